import Platform

/// What happens once in a window's life: its first present and its first frame with
/// everything drawn (`MapHost.onFirstPresent`, `onFullyDrawn`).
struct Milestones {
    private(set) var presented = false
    private(set) var fullyDrawn = false

    /// A frame was presented: whether it was the first.
    mutating func present() -> Bool {
        defer { presented = true }
        return !presented
    }

    /// A frame was drawn, whole or not: whether it is the first drawn whole.
    mutating func drawn(whole: Bool) -> Bool {
        guard whole, !fullyDrawn else { return false }
        fullyDrawn = true
        return true
    }
}
