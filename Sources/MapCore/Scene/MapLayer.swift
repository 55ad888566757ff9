import FoundationEssentials
import MapGeometry
import Platform

/// Where in the picture a layer draws, bottom to top. Base content is the map itself (what a
/// compositor may keep while only overlays animate); callouts sit above all map content;
/// chrome (scale bar, attribution, controls, panels) above them; the notice above everything.
/// Input goes the other way: the top level first (`MapSession.handle`).
public enum LayerLevel: Int, Comparable, CaseIterable, Sendable {
    case base, overlay, callout, chrome, notice
    public static func < (a: LayerLevel, b: LayerLevel) -> Bool { a.rawValue < b.rawValue }
}

/// A kind of map content (Leaflet's Layer, MapKit's overlay with its renderer): a model that
/// composes draw commands at a time, asking for the sprites it needs by `SpriteKey` (painted
/// by MapGraphics' `SpritePainters`), and that takes the input meant for it. The session
/// (`MapSession`) offers input to the layers top first; each answers only for what it drew.
/// Adding a kind = a type conforming to this, put in the session's scene; what it paints into
/// tiles is its `tileContent`, a `TileOverlay` whose painter is registered in `TileOverlayPainters`.
public protocol MapLayer {
    /// The levels this layer draws at; `compose` is called once for each, bottom up.
    var levels: [LayerLevel] { get }
    /// Screen areas the place labels must keep clear of (what this layer draws over them).
    func labelExclusions(_ context: LayerContext) -> [ScreenRect]
    /// Points at the bottom of the window this layer covers with a panel (chrome moves up).
    func bottomInset(_ context: LayerContext) -> Double
    func compose(at level: LayerLevel, into list: inout DrawList, context: LayerContext)

    /// One of the buttons this layer drew (`DrawList.Button.id`, a value of its own type) was
    /// pressed; nil when the button is not one of its own.
    mutating func press(_ button: ButtonID, context: InputContext) -> [LayerAction]?
    /// Any event, offered to the layers top first (those typing before the rest): a box being
    /// typed in takes keys and text, the pins take presses on themselves, the notice the click
    /// that closes it. Nil leaves it to the layers below and then the camera.
    mutating func take(_ event: InputEvent, context: InputContext) -> [LayerAction]?
    /// A command of the key table (`KeyBindings`) the map does not do itself; `key` is the key
    /// pressed (which digit). Nil leaves it to the layers below.
    mutating func perform(_ command: KeyBinding.Command, key: Key, context: InputContext) -> [LayerAction]?
    /// A click on the map (pressed and released without a drag) that no button took, offered
    /// top first until one takes it (measuring adds a point, a track is selected); the others
    /// then put their selections away (`clearSelection`).
    mutating func click(at p: ScreenPoint, context: InputContext) -> [LayerAction]?
    /// A click on the map went to another layer, or to none: what this layer has selected is
    /// put away (the map has one selection at a time). True when the picture changed.
    mutating func clearSelection() -> Bool
    /// The pointer moved over the map (nil: it left the window); true when the picture changed.
    mutating func hover(at p: ScreenPoint?, context: InputContext) -> Bool
    /// The keys this layer binds to commands of its own (`KeyBinding.Command.custom`), which
    /// it carries out in `perform`: answered while the layer is in the scene, after the app's
    /// table (`MapController.keys`), which wins where both bind a key.
    var keyBindings: [KeyBinding] { get }
    /// The keyboard's text is wanted (a box is being typed in).
    var wantsText: Bool { get }
    /// What this layer paints into the map's tiles (nil: it paints none).
    var tileContent: TileContent? { get }
}

extension MapLayer {
    public var levels: [LayerLevel] { [.overlay] }
    public func labelExclusions(_ context: LayerContext) -> [ScreenRect] { [] }
    public func bottomInset(_ context: LayerContext) -> Double { 0 }
    public mutating func press(_ button: ButtonID, context: InputContext) -> [LayerAction]? { nil }
    public mutating func take(_ event: InputEvent, context: InputContext) -> [LayerAction]? { nil }
    public mutating func perform(_ command: KeyBinding.Command, key: Key, context: InputContext) -> [LayerAction]? { nil }
    public mutating func click(at p: ScreenPoint, context: InputContext) -> [LayerAction]? { nil }
    public mutating func clearSelection() -> Bool { false }
    public mutating func hover(at p: ScreenPoint?, context: InputContext) -> Bool { false }
    public var keyBindings: [KeyBinding] { [] }
    public var wantsText: Bool { false }
    public var tileContent: TileContent? { nil }
}

/// What a layer asks of the session when it takes input.
public enum LayerAction: Sendable, Equatable {
    /// The layer changed; draw again.
    case changed
    /// Show this part of the world (fly there).
    case show(MapRect)
    /// Follow the location, or stop (the locate button).
    case toggleFollow
    /// Fly to this place, landing at this zoom (a search result).
    case goTo(Coordinate, zoom: Double)
    /// Make a pin of this place (the search's mark).
    case keepAsPin(Coordinate, title: String)
    /// Drop a new pin here, titled as new pins are (the right-click menu).
    case dropPin(Coordinate)
    /// Zoom in or out by this many levels about the centre (the zoom buttons).
    case zoomBy(Double)
    /// Zoom in or out by this many levels about this point (a bubble of pins spread).
    case zoom(by: Double, around: ScreenPoint)
    /// Stop the camera where it is (a pin taken hold of: the map must stay under it).
    case holdCamera
    /// Turn the map back to north-up, animated (the compass).
    case turnNorth
    /// Put the notice shown away (clicked, or Esc).
    case dismissNotice
    /// Tell the user (a notice at the top).
    case notice(String)
    /// Show or hide the overlay of this name, or set its opacity (nil: as it is): the
    /// switcher's check box and − + (`MapSession.setOverlay`).
    case setOverlay(String, visible: Bool?, opacity: Double?)
    /// Something only the host can do (show another map, open a link, save a file).
    case effect(SessionEffect)
}

/// What a layer knows when it takes input: the view, the time, and what the last frame drew.
public struct InputContext {
    public let camera: Camera
    public let time: Double
    /// The last frame's draw list: where its buttons were.
    public let lastFrame: DrawList
    /// The facts of the session the layers read (units, following, status).
    public let facts: SessionFacts
    /// A pin is carried, being renamed or selected: Esc is the pins' first.
    public let pinsBusy: Bool
    /// The button the keyboard's focus is on (Enter presses it), if any.
    public var focused: ButtonID? = nil
    /// The keys this map answers (`MapController.keys`): layers read commands through it.
    public var keys = KeyBindings.all
    /// The pins, as they are (a right-click on one offers directions to it).
    public var pins: [Pin] = []
    /// A pin is being carried (a right-click then puts it back, as it always did).
    public var carryingPin = false
}

/// What the session knows that layers draw: one place, read by every layer, so no layer keeps
/// a copy that can go stale.
public struct SessionFacts: Sendable, Equatable {
    /// The camera keeps the location at the centre (the locate button shows it).
    public var following = false
    /// …and turns the map with the location's course (heading-up).
    public var headingUp = false
    /// There is a location to follow.
    public var hasLocation = false
    /// Where the location is (its latest fix), when there is one.
    public var location: Coordinate?
    /// The pin whose callout shows (directions offer to go from or to it).
    public var selectedPin: Pin?
    public var imperialUnits = false
    /// The first of the notices, with how many wait after it; nil for none.
    public var notice: String?
    /// What long work under way says (opening a large file); nil for none.
    public var status: String?
    /// How the map's tiles are coming (the switcher says "loading…" or "offline").
    public var tiles = TileStatus.ready
    /// The stack of tile layers: the map chosen, the overlays and how they are set (the
    /// switcher draws its check boxes from it).
    public var tileStack = TileStackModel()
    public init() {}
}

/// How the map's tiles are coming: a server out of reach, or tiles on their way over the
/// network (local sources are too quick to say so).
public enum TileStatus: Hashable, Sendable {
    case ready
    case loading
    /// The tile server cannot be reached (the reason).
    case unreachable(String)
}

/// What a layer knows of the frame it composes.
public struct LayerContext {
    public let camera: Camera
    /// The frame's time (clock seconds): every animation is a function of it.
    public let time: Double
    public let sprites: SpriteAvailability
    public let tiles: TileAvailability
    /// Ready tiles whose places count for labels (drawn, standing in, or in the ring).
    public let shownTiles: [TileID]
    /// The session's facts as of this frame.
    public internal(set) var facts = SessionFacts()
    /// Where label candidates come from: the map layer's tiles first, then other tile
    /// layers' where they show.
    public internal(set) var labelSources: [LabelSource] = []
    /// Credits of the tile layers other than the map's drawn this frame (the fallback while
    /// it shows, overlays).
    public internal(set) var credits: [String] = []
    /// Filled before any layer composes, from every layer's `labelExclusions`.
    public internal(set) var labelExclusions: [ScreenRect] = []
    /// Points at the bottom covered by panels (the largest any layer asks for).
    public internal(set) var bottomInset = 0.0
    /// Seconds labels take to fade in and out (`Scene.labelFadeSeconds`, the one setting).
    public internal(set) var labelFadeSeconds = 0.0

    public var viewRect: ScreenRect { ScreenRect(x: 0, y: 0, width: camera.viewportSize.width, height: camera.viewportSize.height) }

    /// Places `key` in `rect` if rasterized, or asks for it. Off-screen rectangles are skipped.
    public func place(_ key: SpriteKey, rect: ScreenRect, opacity: Double, into list: inout DrawList) {
        guard rect.intersects(viewRect) else { return }
        list.place(key, rect: rect, opacity: opacity, sprites: sprites)
    }

    /// Places a round sprite of radius r centred on c, or asks for it; true when on screen.
    @discardableResult
    public func placeRound(_ key: SpriteKey, center c: ScreenPoint, radius r: Double, opacity: Double, degrees: Double? = nil,
                           into list: inout DrawList) -> Bool {
        let rect = ScreenRect(x: c.x - r, y: c.y - r, width: 2 * r, height: 2 * r)
        guard r > 0.1, opacity > 0.001, rect.intersects(viewRect) else { return false }
        guard sprites.size(of: key) != nil else {
            list.want(key)
            return true // on screen, arriving next frame
        }
        if let degrees {
            list.commands.append(.rotatedSprite(key, destination: rect, opacity: opacity, degrees: degrees))
        } else {
            list.commands.append(.sprite(key, destination: rect, opacity: opacity))
        }
        return true
    }
}
