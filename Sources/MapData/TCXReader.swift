import FoundationEssentials
import MapCore
import Platform

/// Reads Garmin Training Center Database files (TCX), as Garmin Connect, Strava and
/// TrainingPeaks export them: each Activity becomes a track named by its sport, each Course a
/// route named by its Name (a course is planned, not recorded: its times are a virtual
/// partner's), each of their `<Track>` elements a segment, and a course's CoursePoints named
/// waypoints. A trackpoint is a point only with a position: Garmin writes position-less ones
/// while paused or indoors. Heart rate, cadence (or the running cadence of the ActivityExtension)
/// and power come along; element names are matched without their namespace prefix, however
/// the file spells it.
///
/// A TCX file takes some 400 bytes a point, so a 100,000-point activity is 40 MB: the bytes
/// are tokenized as GPXReader does it (elements, attributes, text, comments, CDATA, the
/// predefined entities; a DTD refused, nothing fetched), not through libxml2. Bad values are
/// skipped and reported with their line; a truncated file keeps what came before the cut.
public struct TCXReader {
    let file: String
    public init(file: String) { self.file = file }

    /// Whether `data` looks like TCX (its root element within the first kilobyte).
    public static func looksLikeTCX(_ data: Data) -> Bool {
        let head = data.prefix(1024)
        return head.withUnsafeBytes { b in String(decoding: b, as: UTF8.self) }.contains("TrainingCenterDatabase")
    }

    public func read(_ data: Data) throws -> GeoDocument {
        try data.withUnsafeBytes { raw in
            var parser = TCXParser(bytes: raw.bindMemory(to: UInt8.self), file: file)
            try parser.run()
            try parser.finish()
            return parser.document
        }
    }
}
