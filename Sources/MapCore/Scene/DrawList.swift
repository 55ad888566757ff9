import FoundationEssentials
import Glibc
import MapGeometry
import Platform

/// A sub-rectangle of a texture in unit coordinates (0…1 across the texture).
public struct UnitRect: Hashable, Sendable {
    public var x: Double, y: Double, width: Double, height: Double
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }
    public static let full = UnitRect(x: 0, y: 0, width: 1, height: 1)
}

/// One thing for the compositor to place. Everything is in logical points; the compositor
/// multiplies by the pixel ratio.
public enum DrawCommand: Hashable, Sendable {
    /// Fills the whole viewport.
    case clear(Color)
    /// Places the texture of a (wrapped) tile of a tile layer (its index in the scene's
    /// `tileLayers`), or part of it, into a screen rectangle; on a turned map, turned clockwise
    /// by `degrees` about the rectangle's centre (as `rotatedSprite`), which is where the tile's
    /// centre appears: neighbours still share their edges.
    case tile(TileID, layer: Int, source: UnitRect, destination: ScreenRect, opacity: Double, degrees: Double = 0)
    case fillRect(ScreenRect, Color)
    /// Places a rasterized sprite (text, dot) into a screen rectangle.
    case sprite(SpriteKey, destination: ScreenRect, opacity: Double)
    /// The same, turned clockwise by `degrees` about the rectangle's centre.
    case rotatedSprite(SpriteKey, destination: ScreenRect, opacity: Double, degrees: Double)
}

/// What a frame shows, in paint order, plus what it wished it had.
public struct DrawList: Sendable {
    public var commands: [DrawCommand] = []
    /// What each tile layer wants loaded, by its index in the scene's `tileLayers`.
    public var tileWants: [TileWants] = []
    /// The index of the chosen map's layer among them.
    public var mapLayer = 0
    /// The tile layer the map's layers paint their tile drawings into this frame (tracks):
    /// the drawings layer over a shown overlay, or nil for the map's own tiles.
    public var drawingsLayer: Int?
    /// The map layer's tiles wanted, most important first (wrapped ids).
    public var wantedTiles: [TileID] { wants(mapLayer).wanted }
    /// Their parents: to stand in for them if they are slow to come.
    public var standInTiles: [TileID] { wants(mapLayer).standIns }
    /// The map layer's ring around the view not ready yet: what a pan shows next.
    public var ringTiles: [TileID] { wants(mapLayer).ring }
    public func wants(_ layer: Int) -> TileWants { tileWants.indices.contains(layer) ? tileWants[layer] : TileWants() }
    /// Tiles the scene had to replace with a parent or children, in any visible tile layer:
    /// the map is not fully drawn.
    public var missingTiles = 0
    /// Every point of the view lies on a ready tile of the map layer's display zoom with a
    /// picture (opaque): the clear and any fallback layer under them are wasted.
    public var tilesCoverView = false
    /// Sprites the scene would have drawn had they been rasterized, most important first.
    public var wantedSprites: [SpriteKey] = []
    /// The labels that won a place this frame.
    public var placedLabels: [PlacedLabel] = []

    /// Asks, once, for `key` to be rasterized for a later frame (after those asked before).
    public mutating func want(_ key: SpriteKey) {
        if !wantedSprites.contains(key) { wantedSprites.append(key) }
    }

    /// Draws `key` in `rect` if `sprites` has it rasterized, else asks for it.
    public mutating func place(_ key: SpriteKey, rect: ScreenRect, opacity: Double, sprites: SpriteAvailability) {
        if sprites.size(of: key) != nil { commands.append(.sprite(key, destination: rect, opacity: opacity)) } else { want(key) }
    }
    /// Something on screen moves by itself (a pulse, a glide): the host must draw again.
    public var animating = false
    /// The first `baseCount` commands are the map itself (tiles, labels): what a compositor
    /// may keep rendered while only the overlays above it animate.
    public var baseCount = 0
    /// The selected pin's callout, and its title line, as drawn (clicks on them are theirs).
    public var calloutFrame: ScreenRect?
    public var calloutTitleFrame: ScreenRect?
    /// The notice at the top, as drawn (a click on it closes it).
    public var noticeFrame: ScreenRect?
    /// Things drawn to be clicked, topmost last: where, and the identity the layer that drew
    /// them knows them by (`MapLayer.press`).
    public var buttons: [Button] = []
    /// One-time hints on screen, by name (the embedder remembers not to offer them again).
    public var shownHints: [String] = []

    /// A thing drawn to be clicked. `focusStop`: Tab stops at it (controls, not every row of
    /// a list or pin on the map).
    public struct Button: Sendable {
        public var frame: ScreenRect
        public var id: ButtonID
        public var focusStop: Bool
    }

    /// Adds a button: `id` is a value of the drawing layer's own type.
    public mutating func button<T: Hashable & Sendable>(_ id: T, frame: ScreenRect, focusStop: Bool = false) {
        buttons.append(Button(frame: frame, id: ButtonID(id), focusStop: focusStop))
    }

    /// The button under `p`, topmost first.
    public func button(at p: ScreenPoint) -> ButtonID? { buttons.last { $0.frame.contains(p) }?.id }
    /// How many pins were drawn (after culling off-screen and hidden ones).
    public var pinsDrawn = 0
    /// Bubbles standing for crowded pins (when more than `PinsLayer.pinBudget` are on screen).
    public var pinClusters: [PlacedPinCluster] = []
    /// While pins are clustered, the ones drawn on their own (nil: every pin is drawn).
    public var pressablePins: Set<String>?

    /// The sprite commands, with what they place and where.
    public var spriteCommands: [(SpriteKey, ScreenRect, Double)] {
        commands.compactMap {
            switch $0 {
            case let .sprite(k, r, o), let .rotatedSprite(k, r, o, _): return (k, r, o)
            default: return nil
            }
        }
    }

    public init() {}

    /// The commands as text, one a line: what a test compares between two renderers.
    public func dump() -> String { commands.map { "\($0)" }.joined(separator: "\n") + "\n" }

    /// The map layer's tile commands.
    public var tileCommands: [(TileID, UnitRect, ScreenRect)] { tileCommands(layer: mapLayer) }

    /// The tile commands of one tile layer.
    public func tileCommands(layer: Int) -> [(TileID, UnitRect, ScreenRect)] {
        commands.compactMap {
            if case let .tile(id, l, src, dst, _, _) = $0, l == layer { return (id, src, dst) } else { return nil }
        }
    }
}

/// A button's identity: a value of the type of the layer that drew it, so a layer knows its
/// own buttons by type, not by a name's prefix.
public struct ButtonID: Hashable, @unchecked Sendable {
    // Unchecked: only built from Sendable values (`init`).
    private let value: AnyHashable
    public init<T: Hashable & Sendable>(_ value: T) { self.value = AnyHashable(value) }
    /// The value, when it is a `T`.
    public func `as`<T>(_ type: T.Type) -> T? { value.base as? T }
}
