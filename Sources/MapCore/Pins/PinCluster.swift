import FoundationEssentials
import Glibc
import Platform

/// Pins gathered into one bubble where they crowd (see Scene+Pins).
struct PinCluster {
    var first: Int
    var firstTip: ScreenPoint
    var count: Int
    var sum: ScreenPoint
}

/// A cluster bubble as drawn: a click on it zooms in to spread its pins.
public struct PlacedPinCluster: Hashable, Sendable {
    public var frame: ScreenRect
    public var count: Int

    /// "7", "42", "300+", "2k+": exact while small, then rounded down so a handful of
    /// bubble sprites serve every count.
    public static func label(_ n: Int) -> String {
        if n < 100 { return "\(n)" }
        if n < 1000 { return "\(n / 100 * 100)+" }
        return "\(n / 1000)k+"
    }
}
