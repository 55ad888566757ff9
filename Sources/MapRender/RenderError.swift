import Platform

/// Why a picture could not be made: a decoder's or the off-screen renderer's reason, in words
/// for the user.
public struct RenderError: Error, CustomStringConvertible, Sendable {
    public let description: String
    public init(_ description: String) { self.description = description }
}
