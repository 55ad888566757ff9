import FoundationEssentials
import MapGeometry
import Platform

/// One layer of the map's stack of tile layers, as the scene lays it out (where its tiles
/// come from and how they are painted is the host's). The stack is ordered bottom to top; the
/// session holds it (`TileStackModel`), what a person sets of it included.
public struct TileLayerSpec: Sendable, Hashable {
    /// What a layer is to the picture.
    public enum Role: Sendable, Hashable {
        /// Opaque, shown only where the opaque layers above it have nothing to show (neither
        /// a tile nor an ancestor's part): the embedded basemap under online tiles.
        case fallback
        /// The chosen map: opaque, everywhere.
        case map
        /// Transparent, over everything below it, at `opacity` (hillshade, hiking routes).
        case overlay
        /// What the map's layers paint into tiles (tracks, a measured line), on top: used
        /// only while an overlay shows, so that it does not shade them. Otherwise they are
        /// painted into the map's own tiles (one picture a tile, as ever).
        case drawings
    }

    /// Names the layer in settings: an overlay's `terrain` or `sources.json` key; the chosen
    /// map's name as the switcher and view.json know it (`osm`, a file's path).
    public var name: String
    /// What the switcher calls it ("Terrain: hillshade and contours").
    public var title: String
    public var role: Role
    public var zoomRange: ClosedRange<Int>
    /// How opaque an overlay is drawn, within `opacityRange` whatever is set (opaque layers
    /// are drawn whole).
    public var opacity: Double {
        didSet { opacity = Self.clamped(opacity) }
    }
    public var isVisible: Bool
    /// Credit for its data, shown while any of its tiles is drawn.
    public var attribution: String

    /// The opacities a layer takes: 5 % is the faintest. Never 0, which would draw nothing
    /// while the layer still loaded its tiles and counted as shown: hiding is `isVisible`'s.
    /// sources.json, view.json and `--overlay` refuse an opacity outside it; a value set in
    /// code is brought into it here, the one place.
    public static let opacityRange = 0.05...1.0

    /// `opacity` within `opacityRange` (1 for what is not a number).
    public static func clamped(_ opacity: Double) -> Double {
        opacity.isFinite ? min(max(opacity, opacityRange.lowerBound), opacityRange.upperBound) : 1
    }

    public init(name: String, title: String? = nil, role: Role, zoomRange: ClosedRange<Int>, opacity: Double = 1, isVisible: Bool = true,
                attribution: String = "") {
        self.name = name
        self.title = title ?? name
        self.role = role
        self.zoomRange = zoomRange
        self.opacity = Self.clamped(opacity)
        self.isVisible = isVisible
        self.attribution = attribution
    }

    /// Whether it is drawn at all (its opacity never fades it out: see `opacityRange`).
    public var isShown: Bool { isVisible }

    /// Whether what is below it shows through (its pictures are blended, not copied).
    public var isOpaque: Bool { role == .map || role == .fallback }
}

/// What the scene asks of one tile layer in a frame: its tiles to load, most important first
/// (wrapped ids).
public struct TileWants: Sendable, Equatable {
    /// Visible tiles not ready (or showing an older picture).
    public var wanted: [TileID] = []
    /// Their parents: to stand in for them if they are slow to come.
    public var standIns: [TileID] = []
    /// The ring around the view not ready yet, after `wanted`: what a pan shows next.
    public var ring: [TileID] = []
    public init(wanted: [TileID] = [], standIns: [TileID] = [], ring: [TileID] = []) {
        self.wanted = wanted; self.standIns = standIns; self.ring = ring
    }
    public var isEmpty: Bool { wanted.isEmpty && standIns.isEmpty && ring.isEmpty }
}
