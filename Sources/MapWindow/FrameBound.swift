import Platform

/// A value of the frame thread that a worker carries back to it: the worker cannot open it,
/// only the work it hands to `MapHostHandle.perform` can, with the host in hand — so it is
/// only ever touched on the frame thread, where it was made. (This is the promise the
/// compiler cannot check, kept in one place: workers' callbacks into the app's frame-thread
/// objects go through it instead of an unchecked wrapper each.)
public struct FrameBound<Value>: @unchecked Sendable {
    private let value: Value

    /// Made on the frame thread.
    public init(_ value: Value) { self.value = value }

    /// The value, on the frame thread: `host` is the host a `perform` hands its work.
    public func on(_ host: MapHost) -> Value { value }
}
