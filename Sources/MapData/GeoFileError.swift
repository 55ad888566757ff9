import FoundationEssentials
import Platform

/// What is wrong with a file of tracks or shapes: the file, the line (or none when the whole
/// file is at fault) and the reason, as "FILE:LINE: REASON".
public struct GeoFileError: Error, CustomStringConvertible, Sendable, Equatable {
    public let file: String
    public let line: Int?
    public let reason: String
    public var description: String { line.map { "\(file):\($0): \(reason)" } ?? "\(file): \(reason)" }

    public init(file: String, line: Int?, reason: String) {
        self.file = file
        self.line = line
        self.reason = reason
    }
}
