import FoundationEssentials
import MapGeometry
import Platform

/// One layer of the map's stack of tile layers, as the scene lays it out (where its tiles
/// come from and how they are painted is the host's). The stack is ordered bottom to top.
public struct TileLayerSpec: Sendable, Equatable {
    /// What a layer is to the picture.
    public enum Role: Sendable, Equatable {
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

    /// Names the layer to the user and in settings (`terrain`, a `sources.json` key).
    public var name: String
    public var role: Role
    public var zoomRange: ClosedRange<Int>
    /// 0…1; overlays only (opaque layers are drawn whole).
    public var opacity: Double
    public var isVisible: Bool
    /// Credit for its data, shown while any of its tiles is drawn.
    public var attribution: String

    public init(name: String, role: Role, zoomRange: ClosedRange<Int>, opacity: Double = 1, isVisible: Bool = true, attribution: String = "") {
        self.name = name
        self.role = role
        self.zoomRange = zoomRange
        self.opacity = opacity.isFinite ? min(max(opacity, 0), 1) : 1
        self.isVisible = isVisible
        self.attribution = attribution
    }

    /// Whether it is drawn at all (visible, and not faded out).
    public var isShown: Bool { isVisible && opacity > 0 }

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
