import FoundationEssentials
import MapCore
import MapGeometry

/// Finding a place: the search button (top right), and once opened (Ctrl+F, /) a box whose
/// results follow each key typed — embedded places by name, or coordinates, geo: links and
/// OpenStreetMap links, with what is wrong with them said in the box. Up and Down choose,
/// Enter goes (a flight there), Esc closes. Where it went stays marked until another search;
/// a click on the mark makes it a pin.
public struct SearchLayer: MapLayer {
    public var index: PlaceIndex?
    public private(set) var isOpen = false
    public private(set) var query = ""
    public private(set) var results: [PlaceIndex.Place] = []
    public private(set) var selection = 0
    /// What is wrong with coordinates typed, when they are.
    public private(set) var problem: String?
    /// Coordinates typed, when they are right.
    public private(set) var typedPlace: CoordinateParser.Place?
    /// The place gone to, marked on the map.
    public var marker: Marker?

    public struct Marker: Equatable, Sendable {
        public var coordinate: Coordinate
        public var title: String
        public init(coordinate: Coordinate, title: String) { self.coordinate = coordinate; self.title = title }
    }

    public init(index: PlaceIndex? = nil) { self.index = index }

    /// The buttons' identities (`DrawList.buttons`).
    enum Button: Hashable, Sendable {
        case open, field, marker
        case result(Int)
    }

    /// Enter was pressed while the places were still being read.
    private var chooseWhenLoaded = false

    /// The places arrived (read on a worker): what was typed meanwhile is searched now, and
    /// an Enter pressed meanwhile goes to the first result.
    public mutating func setIndex(_ index: PlaceIndex) -> [LayerAction] {
        self.index = index
        guard isOpen else { return [] }
        update()
        defer { chooseWhenLoaded = false }
        return [.changed] + (chooseWhenLoaded ? choose().map { [$0] } ?? [] : [])
    }

    public var levels: [LayerLevel] { [.overlay, .chrome] }

    static let width = 340.0
    static let rowHeight = 26.0
    static let markerColor = Color(hex: 0xFF9500)
    static let placeholder = "Search places or coordinates"
    /// The box and its list are opaque: the results read over any map.
    static let fieldFill = Color(hex: 0xFFFFFF)

    // MARK: - Typing

    public mutating func open() { isOpen = true }

    public mutating func close() {
        isOpen = false
        chooseWhenLoaded = false
        query = ""
        update()
    }

    public mutating func type(_ text: String) {
        // One line, and not a book: a pasted paragraph is cut.
        let clean = text.filter { $0 != "\n" && $0 != "\r" && $0 != "\t" }
        guard query.count + clean.count <= 200 else { return }
        query += clean
        update()
    }

    public mutating func backspace() {
        guard !query.isEmpty else { return }
        query.removeLast()
        update()
    }

    public mutating func moveSelection(_ step: Int) {
        guard !results.isEmpty else { return }
        selection = min(max(selection + step, 0), results.count - 1)
    }

    /// The results for the query (the places; or the coordinates, or why they are wrong).
    mutating func update() {
        selection = 0
        problem = nil
        typedPlace = nil
        results = []
        switch CoordinateParser.parse(query) {
        case let .success(place)?: typedPlace = place
        case let .failure(p)?: problem = p.description
        case nil: results = index?.search(query) ?? []
        }
    }

    /// Enter: where to go, and the mark it leaves (nil when there is nowhere yet).
    public mutating func choose() -> LayerAction? {
        let target: (Coordinate, Double, String)
        if let p = typedPlace {
            target = (p.coordinate, p.zoom ?? 15, String(cFormat: "%.5f, %.5f", p.coordinate.latitude, p.coordinate.longitude))
        } else if results.indices.contains(selection) {
            let p = results[selection]
            target = (p.coordinate, p.zoom, "\(p.name), \(p.country)")
        } else {
            if index == nil, problem == nil, !query.isEmpty { chooseWhenLoaded = true }
            return nil
        }
        marker = Marker(coordinate: target.0, title: target.2)
        close()
        return .goTo(target.0, zoom: target.1)
    }

    /// The rows the list shows: results, coordinates, a problem, or that places are loading.
    var rows: [(text: String, style: TextStyle, action: Int?)] {
        if query.isEmpty { return [] }
        if let p = typedPlace {
            return [(String(cFormat: "Go to %.5f, %.5f", p.coordinate.latitude, p.coordinate.longitude), .chrome, 0)]
        }
        if let problem { return [(problem, .chrome, nil)] }
        if index == nil { return [("Loading places…", .chrome, nil)] }
        if results.isEmpty { return [("No place of that name", .chrome, nil)] }
        return results.enumerated().map { i, p in ("\(p.name), \(p.country)", .chrome, i) }
    }

    // MARK: - Drawing

    private func fieldFrame(_ context: LayerContext) -> ScreenRect {
        let w = context.camera.viewportSize.width
        return ScreenRect(x: max(10, w - 10 - Self.width), y: 10, width: min(Self.width, w - 20), height: 32)
    }

    static let buttonKey = SpriteKey.text("Search   /", .chrome)

    private func buttonFrame(_ context: LayerContext) -> ScreenRect? {
        guard let s = context.sprites.size(of: Self.buttonKey) else { return nil }
        let w = context.camera.viewportSize.width
        return ScreenRect(x: w - 10 - (s.width + 20), y: 10, width: s.width + 20, height: 28)
    }

    public func labelExclusions(_ context: LayerContext) -> [ScreenRect] {
        if isOpen {
            let f = fieldFrame(context)
            return [ScreenRect(x: f.x, y: f.y, width: f.width, height: f.height + 6 + Double(rows.count) * Self.rowHeight)]
        }
        return (buttonFrame(context).map { [$0] } ?? []) + (markerFrames(context).map { [$0.pin, $0.label] } ?? [])
    }

    private func markerFrames(_ context: LayerContext) -> (tip: ScreenPoint, pin: ScreenRect, label: ScreenRect)? {
        guard let marker else { return nil }
        let tip = context.camera.screenPoint(for: marker.coordinate)
        let size = Pin.imageSize
        let pin = ScreenRect(x: tip.x - size.width / 2, y: tip.y - size.height, width: size.width, height: size.height)
        guard pin.intersects(context.viewRect) else { return nil }
        let s = context.sprites.size(of: .text(marker.title, .chrome)) ?? ScreenSize(width: 0, height: 0)
        let label = ScreenRect(x: pin.maxX + 4, y: pin.y + 4, width: s.width + 12, height: s.height + 6)
        return (tip, pin, label)
    }

    public func compose(at level: LayerLevel, into list: inout DrawList, context: LayerContext) {
        if level == .overlay { composeMarker(into: &list, context: context); return }
        guard isOpen else {
            guard let b = buttonFrame(context) else { list.want(Self.buttonKey); return }
            list.plate(b, fill: Self.fieldFill)
            let s = context.sprites.size(of: Self.buttonKey)!
            list.commands.append(.sprite(Self.buttonKey, destination: ScreenRect(x: b.x + 10, y: b.y + (b.height - s.height) / 2,
                                                                                  width: s.width, height: s.height), opacity: 1))
            list.button(Button.open, frame: b, focusStop: true)
            return
        }
        let f = fieldFrame(context)
        list.plate(f, fill: Self.fieldFill)
        list.commands.append(.fillRect(ScreenRect(x: f.x, y: f.maxY - 2, width: f.width, height: 2), SourcesLayer.ink))
        let shown = query.isEmpty ? SpriteKey.text(Self.placeholder, .chrome) : SpriteKey.text(query, .chrome)
        var caretX = f.x + 10
        if let s = context.sprites.size(of: shown) {
            // A long query shows its end, as a text field scrolls.
            let room = f.width - 20
            let x = f.x + 10 - max(0, s.width - room)
            list.commands.append(.sprite(shown, destination: ScreenRect(x: x, y: f.y + (f.height - s.height) / 2, width: s.width, height: s.height),
                                         opacity: query.isEmpty ? 0.45 : 1))
            if !query.isEmpty { caretX = min(x + s.width + 1, f.maxX - 8) }
        } else {
            list.want(shown)
        }
        list.commands.append(.fillRect(ScreenRect(x: caretX, y: f.y + 7, width: 1.5, height: f.height - 14), SourcesLayer.ink))
        list.button(Button.field, frame: f)
        let rows = rows
        guard !rows.isEmpty else { return }
        let panel = ScreenRect(x: f.x, y: f.maxY + 6, width: f.width, height: Double(rows.count) * Self.rowHeight + 8)
        list.plate(panel, fill: Self.fieldFill)
        for (i, row) in rows.enumerated() {
            let r = ScreenRect(x: panel.x, y: panel.y + 4 + Double(i) * Self.rowHeight, width: panel.width, height: Self.rowHeight)
            if row.action == selection, typedPlace != nil || !results.isEmpty {
                list.commands.append(.fillRect(ScreenRect(x: r.x + 3, y: r.y + 1, width: r.width - 6, height: r.height - 2), SourcesLayer.ink.withAlpha(0.14)))
            }
            let key = SpriteKey.text(row.text, row.style)
            guard let s = context.sprites.size(of: key) else { list.want(key); continue }
            list.commands.append(.sprite(key, destination: ScreenRect(x: r.x + 12, y: r.y + (r.height - s.height) / 2,
                                                                      width: min(s.width, r.width - 20), height: s.height), opacity: 1))
            if problem != nil, row.action == nil {
                list.commands.append(.fillRect(ScreenRect(x: r.x + 4, y: r.y + 5, width: 3, height: r.height - 10), SourcesLayer.warning))
            }
            if let a = row.action { list.button(Button.result(a), frame: r) }
        }
    }

    private func composeMarker(into list: inout DrawList, context: LayerContext) {
        guard let m = marker, let f = markerFrames(context) else { return }
        let pin = SpriteKey.pin(Self.markerColor), title = SpriteKey.text(m.title, .chrome)
        guard context.sprites.size(of: pin) != nil else { list.want(pin); return }
        list.commands.append(.sprite(pin, destination: f.pin, opacity: 1))
        list.button(Button.marker, frame: f.pin)
        guard context.sprites.size(of: title) != nil else { list.want(title); return }
        list.commands.append(.fillRect(f.label, Color(hex: 0xFFFFFF, alpha: 0.92)))
        let s = context.sprites.size(of: title)!
        list.commands.append(.sprite(title, destination: ScreenRect(x: f.label.x + 6, y: f.label.y + 3, width: s.width, height: s.height), opacity: 1))
        list.button(Button.marker, frame: f.label)
    }

    public mutating func press(_ button: ButtonID, context: InputContext) -> [LayerAction]? {
        switch button.as(Button.self) {
        case .open?: return openBox()
        case .field?: return [.changed]
        case .marker?:
            guard let m = marker else { return nil }
            marker = nil
            return [.keepAsPin(m.coordinate, title: m.title)]
        case let .result(n)?:
            selection = n
            return [.changed] + (choose().map { [$0] } ?? [])
        case nil: return nil
        }
    }

    /// Ctrl+F and / open the box.
    public mutating func perform(_ command: KeyBinding.Command, key: Key, context: InputContext) -> [LayerAction]? {
        command == .search ? openBox() : nil
    }

    /// The box open takes every key and all text but Ctrl+Q, and leaves the pointer to the map.
    public mutating func take(_ event: InputEvent, context: InputContext) -> [LayerAction]? {
        guard isOpen else { return nil }
        switch event {
        case let .text(s): type(s)
        case let .keyDown(key, mods):
            switch key {
            case .letter("q") where mods.contains(.control): return nil
            case .backspace: backspace()
            case .up: moveSelection(-1)
            case .down: moveSelection(1)
            case .escape: close()
            case .enter: return [.changed] + (choose().map { [$0] } ?? [])
            default: break // typed characters arrive as text
            }
        default: return nil
        }
        return [.changed]
    }

    public var wantsText: Bool { isOpen }

    /// Opens the box; its places are read when it first opens (`SessionEffect.searchOpened`).
    private mutating func openBox() -> [LayerAction] {
        open()
        return [.changed, .effect(.searchOpened)]
    }
}
