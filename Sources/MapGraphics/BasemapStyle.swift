import FoundationEssentials
import Glibc
import MapCore
import Platform

/// The look of the embedded basemap: a calm palette in which water, land and borders are
/// told apart at a glance and nothing shouts. Widths are in points at the tile's zoom.
public struct BasemapStyle: Sendable {
    public var water = Color(hex: 0xAAD0E6)
    public var coast = Color(hex: 0x8FBBD6)
    public var land = Color(hex: 0xF3F0E8)
    public var glacier = Color(hex: 0xFCFDFE)
    public var urban = Color(hex: 0xE8DFD1)
    public var river = Color(hex: 0x9CC4DE)
    public var border = Color(hex: 0x9A8AA6)
    public var state = Color(hex: 0xBCB0C6)
    public var label = Color(hex: 0x2F2F38)
    public var capitalLabel = Color(hex: 0x1D1D26)
    public var labelHalo = Color(hex: 0xFFFFFF, alpha: 0.85)

    public init() {}

    public static let standard = BasemapStyle()

    /// Country borders thicken gently with zoom.
    public func borderWidth(zoom z: Int) -> Double { min(0.6 + 0.15 * Double(z), 1.8) }
    public func stateWidth(zoom z: Int) -> Double { min(0.4 + 0.08 * Double(z), 1.0) }
    public func riverWidth(zoom z: Int) -> Double { min(0.3 + 0.18 * Double(max(z - 2, 0)), 2.2) }
    public func coastWidth(zoom z: Int) -> Double { z < 3 ? 0.4 : 0.7 }
    /// Province lines appear from this zoom, faint.
    public let stateMinZoom = 4
    public let riverMinZoom = 3
}
