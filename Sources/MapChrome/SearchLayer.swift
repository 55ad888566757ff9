import FoundationEssentials
import MapCore
import MapGeometry
import MapSearch
import Platform

/// Finding a place: the search button (top right), and once opened (Ctrl+F, /) a box whose
/// results follow each key typed — the built-in places and every name the street maps hold
/// (streets, addresses, shops, stations…), ranked together (`SearchRanking`), or coordinates,
/// geo: links and OpenStreetMap links, with what is wrong with them said in the box. Up and
/// Down choose, Enter goes (a flight there; a street is shown whole, its line drawn). An
/// online geocoder is asked only on Enter (its usage policy forbids asking per keystroke):
/// on the last row, "Search online", or when nothing offline matches. Where it went stays
/// marked until another search; a click on the mark makes it a pin.
public struct SearchLayer: MapLayer {
    /// What typing searches: the built-in places and the street maps' indexes.
    public private(set) var searcher: (any PlaceSearching)?
    public private(set) var isOpen = false
    public private(set) var query = ""
    public private(set) var results: [SearchResult] = []
    public private(set) var selection = 0
    /// What is wrong with coordinates typed, when they are.
    public private(set) var problem: String?
    /// Coordinates typed, when they are right.
    public private(set) var typedPlace: CoordinateParser.Place?
    /// The place gone to, marked on the map (a street with its line).
    public var marker: Marker? { didSet { markerRevision += 1 } }
    private var markerRevision = 0
    /// Results are ranked by nearness to this: the view's centre as the query was typed;
    /// the view's zoom then says how much nearness counts (`SearchRanking.nearness(zoom:)`).
    public private(set) var near: Coordinate?
    public private(set) var nearZoom: Double?
    /// The online geocoder's credit, nil when there is none (configured off).
    public var onlineCredit: String?
    public private(set) var online = Online.idle
    /// What a street map's index being built says ("Indexing Helsinki… 40 %"), nil for none.
    public var indexing: String?
    /// Offline results for `query`, and the geocoder's for `online`'s query.
    private var offline: [SearchResult] = []
    private var answered: (query: String, results: [SearchResult])?
    /// "No network" is said once a session; later failures of that kind say nothing new.
    private var offlineSaid = false

    /// The geocoder's state for the query in the box.
    public enum Online: Equatable, Sendable {
        case idle
        case asking(String)
        case failed(query: String, String)
    }

    public struct Marker: Equatable, Sendable {
        public var coordinate: Coordinate
        public var title: String
        /// A street's whole line, drawn while it is marked.
        public var line: [[Coordinate]]
        public init(coordinate: Coordinate, title: String, line: [[Coordinate]] = []) {
            self.coordinate = coordinate; self.title = title; self.line = line
        }
    }

    public init(searcher: (any PlaceSearching)? = nil) { self.searcher = searcher }

    /// The buttons' identities (`DrawList.buttons`).
    enum Button: Hashable, Sendable {
        case open, field, marker
        case result(Int)
    }

    /// Enter was pressed while the places were still being read.
    private var chooseWhenLoaded = false

    /// What to search arrived or changed (the places read on a worker, an index built): what
    /// was typed meanwhile is searched again, and an Enter pressed meanwhile goes to the first.
    public mutating func setSearcher(_ searcher: any PlaceSearching) -> [LayerAction] {
        self.searcher = searcher
        guard isOpen else { return [] }
        let keep = selection
        update()
        // The same row stays chosen, the online one included.
        selection = min(keep, max(0, results.count - (onlineRowShown ? 0 : 1)))
        defer { chooseWhenLoaded = false }
        return [.changed] + (chooseWhenLoaded ? choose() : [])
    }

    /// The geocoder answered `query` (or failed): its results join the list while that is
    /// what the box holds.
    public mutating func setOnline(query q: String, _ outcome: Result<[SearchResult], OnlineFailure>) -> [LayerAction] {
        guard online == .asking(q) else { return [] }
        switch outcome {
        case let .success(found):
            online = .idle
            answered = (q, found)
            if q == query {
                mergeResults()
                // Enter was pressed to see these: the first of them is chosen.
                selection = results.firstIndex { $0.isOnline } ?? 0
            }
        case let .failure(f):
            if f.isSuperseded {
                online = .idle
            } else if f.isOffline {
                online = offlineSaid ? .idle : .failed(query: q, tr("No network: offline results only"))
                offlineSaid = true
            } else {
                online = .failed(query: q, f.message)
            }
        }
        return [.changed]
    }

    /// Why the geocoder gave nothing: no network (said once), or what went wrong.
    public struct OnlineFailure: Error, Sendable, Equatable {
        public var message: String
        public var isOffline: Bool
        /// Replaced by a newer question before it was asked: nothing to say.
        public var isSuperseded: Bool
        public init(_ message: String, offline: Bool = false, superseded: Bool = false) {
            self.message = message; isOffline = offline; isSuperseded = superseded
        }
    }

    public var levels: [LayerLevel] { [.overlay, .chrome] }

    static let width = 380.0
    static let rowHeight = 26.0
    static let markerColor = Color(hex: 0xFF9500)
    static let lineColor = Color(hex: 0xFF7A00, alpha: 0.85)
    // TRANSLATORS: what the empty search box says.
    static let placeholder: String = tr("Search places, streets, addresses")
    /// The box and its list are opaque: the results read over any map.
    static let fieldFill = Color(hex: 0xFFFFFF)
    static let maxResults = 8

    // MARK: - Typing

    public mutating func open() { isOpen = true }

    public mutating func close() {
        isOpen = false
        chooseWhenLoaded = false
        // An answer still to come is dropped (`setOnline` takes only what is asked).
        online = .idle
        query = ""
        update()
    }

    public mutating func type(_ text: String, near: Coordinate? = nil, zoom: Double? = nil) {
        // One line, and not a book: a pasted paragraph is cut.
        let clean = text.filter { $0 != "\n" && $0 != "\r" && $0 != "\t" }
        guard query.count + clean.count <= 200 else { return }
        if let near { self.near = near; nearZoom = zoom }
        query += clean
        update()
    }

    public mutating func backspace() {
        guard !query.isEmpty else { return }
        query.removeLast()
        update()
    }

    public mutating func moveSelection(_ step: Int) {
        let count = results.count + (onlineRowShown ? 1 : 0)
        guard count > 0 else { return }
        selection = min(max(selection + step, 0), count - 1)
    }

    /// The results for the query (the places; or the coordinates, or why they are wrong).
    mutating func update() {
        selection = 0
        problem = nil
        typedPlace = nil
        offline = []
        results = []
        if case let .failed(q, _) = online, q != query { online = .idle }
        switch CoordinateParser.parse(query) {
        case let .success(place)?: typedPlace = place
        case let .failure(p)?: problem = p.description
        case nil:
            offline = searcher?.search(query, near: near, zoom: nearZoom, limit: Self.maxResults) ?? []
            mergeResults()
        }
    }

    /// The offline results, and the geocoder's when they answer what the box holds.
    private mutating func mergeResults() {
        guard let answered, answered.query == query else { results = offline; return }
        // The online ones are not pushed out by offline ones: each kind keeps room.
        let mixed = SearchRanking.merge([offline, answered.results], near: near, zoom: nearZoom, limit: Self.maxResults * 2)
        results = Array(mixed.prefix(Self.maxResults + min(answered.results.count, Self.maxResults)))
    }

    /// The row that asks the geocoder: there is one, something that is not coordinates was
    /// typed, and it was not just asked.
    var onlineRowShown: Bool {
        guard onlineCredit != nil, typedPlace == nil, problem == nil, !SearchText.key(query).isEmpty else { return false }
        return answered?.query != query
    }

    /// Enter: where to go, and the mark it leaves; or the geocoder asked.
    public mutating func choose() -> [LayerAction] {
        if let p = typedPlace {
            marker = Marker(coordinate: p.coordinate, title: String(cFormat: "%.5f, %.5f", p.coordinate.latitude, p.coordinate.longitude))
            close()
            return [.goTo(p.coordinate, zoom: p.zoom ?? 15)]
        }
        if results.indices.contains(selection) {
            let r = results[selection]
            marker = Marker(coordinate: r.coordinate, title: r.area.map { r.name + ", " + $0 } ?? r.name, line: r.line)
            close()
            if let rect = Self.bounds(r.line) { return [.show(rect)] }
            return [.goTo(r.coordinate, zoom: r.zoom)]
        }
        // While the places are still read, Enter waits for them rather than asking online.
        if searcher == nil, problem == nil, !query.isEmpty { chooseWhenLoaded = true; return [] }
        if onlineRowShown, selection == results.count, online != .asking(query) {
            online = .asking(query)
            return [.effect(.searchOnline(query, near: near))]
        }
        return []
    }

    /// A street's extent, with a margin, for the view to show it whole.
    static func bounds(_ line: [[Coordinate]]) -> MapRect? {
        guard let box = MapRect.bounding(line.joined().map(WebMercator.project)) else { return nil }
        return box.outset(by: max(box.size.width, box.size.height) * 0.15)
    }

    /// The street chosen is drawn into the tiles, under the labels, as a measured line is.
    public var tileContent: TileContent? {
        let line = marker?.line ?? []
        return TileContent(revision: markerRevision) {
            guard !line.isEmpty else { return nil }
            let lines = line.filter { $0.count >= 2 }.map { part -> TrackLine in
                let track = MeasureLayer.track(of: part)
                return TrackLine(track: track, geometry: TrackGeometry(track, threads: 1), style: TrackStyle(color: Self.lineColor, width: 4))
            }
            return lines.isEmpty ? nil : LineOverlay(lines: lines)
        }
    }

    // MARK: - Input

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
            return [.changed] + choose()
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
        case let .text(s): type(s, near: context.camera.centerCoordinate, zoom: context.camera.zoom)
        case let .keyDown(key, mods):
            switch key {
            case .letter("q") where mods.contains(.control): return nil
            case .backspace: backspace()
            case .up: moveSelection(-1)
            case .down: moveSelection(1)
            case .escape: close()
            case .enter: return [.changed] + choose()
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
