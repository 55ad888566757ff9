import FoundationEssentials
import MapGeometry

/// Where in the picture a layer draws, bottom to top. Base content is the map itself (what a
/// compositor may keep while only overlays animate); callouts sit above all map content;
/// chrome (scale bar, attribution, controls, notices) above everything.
public enum LayerLevel: Int, Comparable, CaseIterable, Sendable {
    case base, overlay, callout, chrome
    public static func < (a: LayerLevel, b: LayerLevel) -> Bool { a.rawValue < b.rawValue }
}

/// A kind of map content (Leaflet's Layer, MapKit's overlay with its renderer): a model that
/// composes draw commands at a time, asking for the sprites it needs by `SpriteKey`; its
/// painter in MapGraphics rasterizes them. Adding a kind = a type conforming to this, a
/// `SpriteSpec` and a painter registered in `SpritePainters`, and the layer put in a scene.
public protocol MapLayer {
    /// The levels this layer draws at; `compose` is called once for each, bottom up.
    var levels: [LayerLevel] { get }
    /// Screen areas the place labels must keep clear of (what this layer draws over them).
    func labelExclusions(_ context: LayerContext) -> [ScreenRect]
    /// Points at the bottom of the window this layer covers with a panel (chrome moves up).
    func bottomInset(_ context: LayerContext) -> Double
    /// One of this layer's buttons (`DrawList.buttons`) was clicked; nil when the name is
    /// not one of its own.
    mutating func press(_ button: String) -> PressResult?
    func compose(at level: LayerLevel, into list: inout DrawList, context: LayerContext)
}

extension MapLayer {
    public var levels: [LayerLevel] { [.overlay] }
    public func labelExclusions(_ context: LayerContext) -> [ScreenRect] { [] }
    public func bottomInset(_ context: LayerContext) -> Double { 0 }
    public mutating func press(_ button: String) -> PressResult? { nil }
}

/// What pressing a layer's button asks of the host.
public enum PressResult: Sendable, Equatable {
    /// The layer changed; draw again.
    case changed
    /// Show this part of the world (fly there).
    case show(MapRect)
    /// Show the map of this name (the layer switcher's choice).
    case chooseTiles(String)
    /// Open this web page (an http(s) address) in the browser.
    case openLink(String)
    /// Follow the location, or stop (the locate button).
    case toggleFollow
    /// Fly to this place, landing at this zoom (a search result).
    case goTo(Coordinate, zoom: Double)
    /// Make a pin of this place (the search's mark).
    case keepAsPin(Coordinate, title: String)
    /// Zoom in or out by this many levels about the centre (the zoom buttons).
    case zoomBy(Double)
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
    /// The plane under the map's own tiles, and those of its tiles drawn (their places
    /// count for labels too).
    public internal(set) var under: TileAvailability?
    public internal(set) var underShownTiles: [TileID] = []
    /// Where the map's own tiles show (screen rectangles): the under plane's names are not
    /// placed there, as those tiles carry their own.
    public internal(set) var mainTileRects: [ScreenRect] = []
    /// Filled before any layer composes, from every layer's `labelExclusions`.
    public internal(set) var labelExclusions: [ScreenRect] = []
    /// Points at the bottom covered by panels (the largest any layer asks for).
    public internal(set) var bottomInset = 0.0

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
