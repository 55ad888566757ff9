import FoundationEssentials
import Glibc
import MapCore
import MapGeometry
import Platform

/// "Save this area offline…" (key A, or the map switcher's last row). Choosing: the part of
/// the map that will be saved is outlined (what is in view, less a margin; pan and zoom to
/// change it), with a panel to pick the deepest zoom and the tiles and bytes that will take.
/// Saving: the area stays outlined where it is on the map, and a progress bar with Cancel
/// stands at the bottom. The app says what the map shown allows (`offer`), reports the work
/// (`progress`), and carries out the layer's `Request`s.
public struct SaveAreaLayer: MapLayer {
    /// What the map shown allows to be saved.
    public struct Offer: Hashable, Sendable {
        /// The map's title, as the switcher lists it.
        public var title: String
        /// The zooms that can be saved (as the map is drawn: the deepest is street level).
        public var zooms: ClosedRange<Int>
        /// What one tile typically takes, for the estimate.
        public var bytesPerTile: Double
        /// Why this map cannot be saved (a tile policy, or it is offline already); nil if it can.
        public var refusal: String?
        /// How many zooms shallower than drawn the map's own tiles are numbered (a street
        /// map's 512-point tiles: 1), so that what is counted is what will be fetched.
        public var zoomShift: Int
        /// Bytes free where areas are saved (nil: not known).
        public var freeBytes: UInt64?
        public init(title: String, zooms: ClosedRange<Int>, bytesPerTile: Double, refusal: String? = nil, zoomShift: Int = 0, freeBytes: UInt64? = nil) {
            self.title = title; self.zooms = zooms; self.bytesPerTile = bytesPerTile; self.refusal = refusal; self.zoomShift = zoomShift
            self.freeBytes = freeBytes
        }

        /// About how many bytes saving `area` takes.
        public func bytes(in area: Area) -> UInt64 {
            let b = Double(tiles(in: area)) * bytesPerTile
            return b.isFinite && b < 1.8e19 ? UInt64(saturating: b) : .max
        }

        /// Why `area` is not offered for saving: too many tiles or bytes for one area, or
        /// more than the disk has free (nil: it may be saved).
        public func tooMuch(_ area: Area) -> String? {
            let tiles = tiles(in: area), bytes = bytes(in: area)
            if tiles > SaveAreaLayer.maxTiles || bytes > SaveAreaLayer.maxBytes {
                // TRANSLATORS: the tiles and bytes the area chosen takes, then the most one area may take (tiles, bytes). "Go shallower": save fewer zooms.
                return tr("%@ tiles, about %@: more than one area may hold (%@ tiles, %@); zoom in or go shallower", TrackStatistics.grouped(Double(tiles)),
                          SaveAreaLayer.bytes(bytes), TrackStatistics.grouped(Double(SaveAreaLayer.maxTiles)), SaveAreaLayer.bytes(SaveAreaLayer.maxBytes))
            }
            if let free = freeBytes, bytes > free {
                // TRANSLATORS: the tiles and bytes the area chosen takes, and the bytes free on the disk. "Go shallower": save fewer zooms.
                return tr("%@ tiles need about %@, and the disk has %@ free; zoom in or go shallower", TrackStatistics.grouped(Double(tiles)),
                          SaveAreaLayer.bytes(bytes), SaveAreaLayer.bytes(free))
            }
            return nil
        }

        /// The tiles saving `area` fetches: at the map's own zooms.
        public func tiles(in area: Area) -> UInt64 {
            let lo = max(0, area.zooms.lowerBound - zoomShift), hi = max(lo, area.zooms.upperBound - zoomShift)
            return SaveAreaLayer.tileCount(Area(west: area.west, south: area.south, east: area.east, north: area.north, zooms: lo...hi))
        }
    }

    /// A box in degrees (west > east when it crosses the antimeridian) and the zooms to save.
    public struct Area: Hashable, Sendable {
        public var west: Double, south: Double, east: Double, north: Double
        public var zooms: ClosedRange<Int>
        public init(west: Double, south: Double, east: Double, north: Double, zooms: ClosedRange<Int>) {
            self.west = west; self.south = south; self.east = east; self.north = north; self.zooms = zooms
        }
    }

    /// What the layer asks of the app (`SessionEffect.layer`).
    public enum Request: Hashable, Sendable {
        case save(Area)
        case cancel
        /// The answer to the panel's question (`Progress.asks`): go on, or not.
        case answer(Bool)
    }

    /// How the saving goes, as the app reports it.
    public struct Progress: Hashable, Sendable {
        /// The map being saved.
        public var title: String
        public var area: Area
        public var done: UInt64, total: UInt64, bytes: UInt64
        public var secondsLeft: Double?
        /// What the panel says it is doing ("Updating “Helsinki”"); nil: saving the map.
        public var headline: String?
        /// The line under it, for work that is not tiles (directions: "Downloading Finland…").
        public var detail: String?
        /// The detail is a question (a large download): the panel offers Download and Not now.
        public var asks = false
        public init(title: String, area: Area, done: UInt64, total: UInt64, bytes: UInt64, secondsLeft: Double?) {
            self.title = title; self.area = area; self.done = done; self.total = total; self.bytes = bytes; self.secondsLeft = secondsLeft
        }
    }

    enum Button: Hashable, Sendable { case shallower, deeper, save, close, stop, directions, yes, no }

    public var offer: Offer?
    public private(set) var isChoosing = false
    /// The saving under way; nil when none.
    public var progress: Progress?
    /// The deepest zoom chosen (nil: the default for the view).
    var chosenZoom: Int?
    /// "Directions offline too" is offered (the app can build routing data: Routino is there).
    public var offersDirections = false
    /// …and chosen: the area's routing data is built after its tiles.
    public var directions = false

    /// More tiles or bytes than this is not an area but a country: the panel asks to zoom in.
    public static let maxTiles: UInt64 = 250_000
    public static let maxBytes: UInt64 = 4_000_000_000
    static let margin = 40.0

    public init() {}

    public var levels: [LayerLevel] { [.overlay, .chrome] }

    static let saveCommand = KeyBinding.Command.custom("saveArea")

    public var keyBindings: [KeyBinding] {
        // TRANSLATORS: what a key does, in the help (after the key's name, lower case).
        [KeyBinding(keys: [.letter("a")], modifiers: [], command: Self.saveCommand, label: "A", help: tr("save this area for offline use"))]
    }

    /// Opens the panel (key A, the switcher's row); a second time closes it. Not while saving.
    public mutating func open() {
        guard progress == nil else { return }
        isChoosing.toggle()
        chosenZoom = nil
    }

    public mutating func close() { isChoosing = false }

    /// The outlined part of the screen while choosing: the view less a margin, less the panel.
    func outline(_ camera: Camera) -> ScreenRect {
        // Clear of the switcher above and of the scale bar and credit over the panel below.
        let v = camera.viewportSize, m = Self.margin, top = m + 12, bottom = Self.panelHeight + 34 + 36
        return ScreenRect(x: m, y: top, width: max(1, v.width - 2 * m), height: max(1, v.height - top - bottom))
    }

    /// The deepest zoom saved: chosen, else street level a few zooms past the view.
    func maxZoom(_ camera: Camera, _ offer: Offer) -> Int {
        let z = chosenZoom ?? max(Int(saturating: camera.zoom.rounded()) + 3, 15)
        return min(max(z, offer.zooms.lowerBound), offer.zooms.upperBound)
    }

    /// The area the outline holds, with the zooms chosen. On a turned map, the largest area
    /// (north–south and east–west, as areas are) that fits in the outline about its centre.
    func area(_ camera: Camera, outline r: ScreenRect, offer: Offer) -> Area {
        var nw = camera.mapPoint(for: ScreenPoint(x: r.x, y: r.y)), se = camera.mapPoint(for: ScreenPoint(x: r.maxX, y: r.maxY))
        if camera.isTurned {
            let (w, h) = Self.inscribed(r.width, r.height, turnedBy: camera.bearing)
            let c = camera.mapPoint(for: ScreenPoint(x: r.x + r.width / 2, y: r.y + r.height / 2))
            nw = MapPoint(x: c.x - w / 2 / camera.scale, y: c.y - h / 2 / camera.scale)
            se = MapPoint(x: c.x + w / 2 / camera.scale, y: c.y + h / 2 / camera.scale)
        }
        let world = WebMercator.worldSize
        let north = WebMercator.unproject(MapPoint(x: 0, y: max(0, nw.y))).latitude
        let south = WebMercator.unproject(MapPoint(x: 0, y: min(world, se.y))).latitude
        var west = -180.0, east = 180.0
        if se.x - nw.x < world {
            west = WebMercator.unproject(MapPoint(x: WebMercator.wrapX(nw.x), y: 0)).longitude
            east = WebMercator.unproject(MapPoint(x: WebMercator.wrapX(se.x), y: 0)).longitude
            if east == -180 { east = 180 }
        }
        return Area(west: west, south: south, east: east, north: north, zooms: offer.zooms.lowerBound...maxZoom(camera, offer))
    }

    /// On a turned map, the corners on screen of what the outline holds (`area`), clockwise
    /// from its north-west.
    func chosenCorners(_ camera: Camera) -> [ScreenPoint] {
        let r = outline(camera)
        let (w, h) = Self.inscribed(r.width, r.height, turnedBy: camera.bearing)
        let c = camera.mapPoint(for: ScreenPoint(x: r.x + r.width / 2, y: r.y + r.height / 2))
        let dx = w / 2 / camera.scale, dy = h / 2 / camera.scale
        return [MapPoint(x: c.x - dx, y: c.y - dy), MapPoint(x: c.x + dx, y: c.y - dy), MapPoint(x: c.x + dx, y: c.y + dy),
                MapPoint(x: c.x - dx, y: c.y + dy)].map(camera.screenPointUnwrapped(for:))
    }

    /// The largest rectangle (width, height) turned by `degrees` inside a `width` × `height`
    /// one with the same centre. Its corners reach the outer one's sides: w·c + h·s ≤ width and
    /// w·s + h·c ≤ height (c, s: the turn's |cos|, |sin|); the most area lies where both hold
    /// exactly, or, when one side is much the longer, where only the shorter one's does (then
    /// w·c = h·s: a square's diagonal across it).
    static func inscribed(_ width: Double, _ height: Double, turnedBy degrees: Double) -> (Double, Double) {
        let a = degrees * .pi / 180, c = abs(cos(a)), s = abs(sin(a))
        guard s > 1e-9 else { return (width, height) }
        guard c > 1e-9 else { return (height, width) }
        func fits(_ w: Double, _ h: Double) -> Bool { w * c + h * s <= width * (1 + 1e-9) && w * s + h * c <= height * (1 + 1e-9) }
        var best = (0.0, 0.0)
        func consider(_ w: Double, _ h: Double) {
            if w > 0, h > 0, fits(w, h), w * h > best.0 * best.1 { best = (w, h) }
        }
        let det = c * c - s * s
        if abs(det) > 1e-9 { consider((width * c - height * s) / det, (height * c - width * s) / det) }
        consider(width / (2 * c), width / (2 * s))
        consider(height / (2 * s), height / (2 * c))
        return best
    }

    /// How many tiles `area` takes: columns (both sides of the antimeridian) × rows, per zoom.
    public static func tileCount(_ area: Area) -> UInt64 {
        let nw = WebMercator.project(Coordinate(latitude: area.north, longitude: area.west))
        let se = WebMercator.project(Coordinate(latitude: area.south, longitude: area.east))
        var spanX = se.x - nw.x
        if area.west > area.east { spanX += WebMercator.worldSize }
        var total: UInt64 = 0
        for z in area.zooms {
            let n = 1 << z, size = WebMercator.worldSize / Double(n)
            let x0: Int = Int(saturating: (nw.x / size).rounded(.down)), x1: Int = Int(saturating: ((nw.x + spanX) / size).rounded(.up)) - 1
            let y0: Int = max(Int(saturating: (nw.y / size).rounded(.down)), 0), y1: Int = min(Int(saturating: (se.y / size).rounded(.up)) - 1, n - 1)
            guard x1 >= x0, y1 >= y0 else { continue }
            let columns = UInt64(min(x1 - x0 + 1, n)), rows = UInt64(y1 - y0 + 1)
            total += columns * rows
        }
        return total
    }

    public func bottomInset(_ context: LayerContext) -> Double { isChoosing || progress != nil ? Self.panelHeight + 20 : 0 }

    public func labelExclusions(_ context: LayerContext) -> [ScreenRect] {
        isChoosing || progress != nil ? [panelFrame(context)] : []
    }

    static let panelHeight = 96.0

    func panelFrame(_ context: LayerContext) -> ScreenRect {
        let v = context.camera.viewportSize
        let w = min(v.width - 20, 520.0)
        return ScreenRect(x: (v.width - w) / 2, y: v.height - Self.panelHeight - 34, width: w, height: Self.panelHeight)
    }

    // MARK: input

    public mutating func perform(_ command: KeyBinding.Command, key: Key, context: InputContext) -> [LayerAction]? {
        switch command {
        case Self.saveCommand:
            if progress != nil { return [.notice(tr("An area is being saved: its progress is at the bottom (Esc or Cancel stops it)"))] }
            open()
            return [.changed]
        case .cancel where isChoosing:
            isChoosing = false
            return [.changed]
        default: return nil
        }
    }

    /// Enter saves while choosing (as the Save button does), unless a button has the focus.
    public mutating func take(_ event: InputEvent, context: InputContext) -> [LayerAction]? {
        guard isChoosing, context.focused == nil, case .keyDown(.enter, _) = event else { return nil }
        return save(context)
    }

    public mutating func press(_ button: ButtonID, context: InputContext) -> [LayerAction]? {
        guard let b = button.as(Button.self) else { return nil }
        switch b {
        case .shallower, .deeper:
            guard let offer else { return [.changed] }
            let z = maxZoom(context.camera, offer) + (b == .deeper ? 1 : -1)
            chosenZoom = min(max(z, offer.zooms.lowerBound), offer.zooms.upperBound)
            return [.changed]
        case .save: return save(context)
        case .close: isChoosing = false; return [.changed]
        case .stop: return [.effect(.layer(LayerRequest(Request.cancel)))]
        case .yes, .no:
            progress?.asks = false
            return [.changed, .effect(.layer(LayerRequest(Request.answer(b == .yes))))]
        case .directions: directions.toggle(); return [.changed]
        }
    }

    private mutating func save(_ context: InputContext) -> [LayerAction] {
        guard let offer, offer.refusal == nil else { return [.changed] }
        let r = outline(context.camera)
        let area = area(context.camera, outline: r, offer: offer)
        // TRANSLATORS: %@ says why (too many tiles, too little space on the disk).
        if let why = offer.tooMuch(area) { return [.notice(tr("Cannot save this area: %@", why))] }
        isChoosing = false
        progress = Progress(title: offer.title, area: area, done: 0, total: offer.tiles(in: area), bytes: 0, secondsLeft: nil)
        return [.changed, .effect(.layer(LayerRequest(Request.save(area))))]
    }

    /// The app's report of the saving under way.
    public mutating func report(done: UInt64, total: UInt64, bytes: UInt64, secondsLeft: Double?) {
        guard progress != nil else { return }
        progress?.done = done; progress?.total = total; progress?.bytes = bytes; progress?.secondsLeft = secondsLeft
    }

    /// The saving ended (saved, failed or cancelled: the app says which in a notice).
    public mutating func finish() { progress = nil }
}
