import Platform

/// What is wrong with a style, and where: the JSON path of the value ("layers[12].paint.line-width")
/// and why ("expected a number"). Thrown for what makes a whole style unusable; a layer with
/// one becomes a notice and is left out.
public struct StyleError: Error, CustomStringConvertible, Sendable {
    public var path: String
    public var reason: String
    public init(path: String, reason: String) { self.path = path; self.reason = reason }
    public var description: String { path.isEmpty ? reason : "\(path): \(reason)" }
}
