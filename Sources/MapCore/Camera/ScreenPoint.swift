import FoundationEssentials
import Glibc
import Platform

/// A position in the window in logical points (origin top-left, y down).
public struct ScreenPoint: Hashable, Sendable {
    public var x: Double
    public var y: Double
    public init(x: Double, y: Double) { self.x = x; self.y = y }
    public static func - (a: ScreenPoint, b: ScreenPoint) -> ScreenPoint { ScreenPoint(x: a.x - b.x, y: a.y - b.y) }
    public static func + (a: ScreenPoint, b: ScreenPoint) -> ScreenPoint { ScreenPoint(x: a.x + b.x, y: a.y + b.y) }
    public var length: Double { (x * x + y * y).squareRoot() }
}

public struct ScreenSize: Hashable, Sendable {
    public var width: Double
    public var height: Double
    public init(width: Double, height: Double) { self.width = width; self.height = height }
}

public struct ScreenRect: Hashable, Sendable {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }
    public var maxX: Double { x + width }
    public var maxY: Double { y + height }
    public func intersects(_ r: ScreenRect) -> Bool { x < r.maxX && r.x < maxX && y < r.maxY && r.y < maxY }
    public func contains(_ p: ScreenPoint) -> Bool { p.x >= x && p.x < maxX && p.y >= y && p.y < maxY }
    /// Grown by `d` on every side.
    public func outset(_ d: Double) -> ScreenRect { ScreenRect(x: x - d, y: y - d, width: width + 2 * d, height: height + 2 * d) }

    /// The box around the rectangle turned clockwise by `degrees` about its centre.
    public func turnedBounds(_ degrees: Double) -> ScreenRect {
        guard degrees != 0 else { return self }
        let a = degrees * .pi / 180, c = abs(cos(a)), s = abs(sin(a))
        let w = c * width + s * height, h = s * width + c * height
        return ScreenRect(x: x + (width - w) / 2, y: y + (height - h) / 2, width: w, height: h)
    }
}

/// A straight-alpha RGBA colour, components 0…1.
public struct Color: Hashable, Sendable {
    public var r: Double, g: Double, b: Double, a: Double
    public init(r: Double, g: Double, b: Double, a: Double = 1) { self.r = r; self.g = g; self.b = b; self.a = a }
    public init(hex: UInt32, alpha: Double = 1) {
        self.init(r: Double((hex >> 16) & 0xff) / 255, g: Double((hex >> 8) & 0xff) / 255,
                  b: Double(hex & 0xff) / 255, a: alpha)
    }
    /// The same colour with another opacity.
    public func withAlpha(_ alpha: Double) -> Color { Color(r: r, g: g, b: b, a: alpha) }
    /// The neutral grey where no map is drawn yet (a raster map's missing tiles, the frame's
    /// clear): light, so tiles coming in do not flash, and not a land or water colour, so it
    /// is never taken for the map.
    public static let noMap = Color(hex: 0xE8E6E1)
    /// Land where a street style says no background of its own (the basemap style's land).
    public static let styleGround = Color(hex: 0xF4F1EA)
    /// A component as a byte, clamped (Swift traps on out-of-range conversions).
    public static func byte(_ v: Double) -> UInt8 { UInt8(saturating: max(0, min(255, (v * 255).rounded()))) }
}
