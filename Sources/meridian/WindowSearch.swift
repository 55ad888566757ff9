import FoundationEssentials
import MapChrome
import MapCore
import MapGeometry
import MapSearch
import MapTiles
import MeridianKit
import MapWindow
import Platform

/// The window's search, wired: the built-in places (read when the box first opens), the
/// street maps' indexes (built as maps are shown and areas saved, `SearchIndexes`), the online
/// geocoder (asked on Enter), and what is at a pin (looked up when one is added, moved or
/// selected). Everything slow happens off the frame; results reach the frame through
/// `MapHost.perform`.
final class WindowSearch: @unchecked Sendable { // `host` and `lookingUp` are the frame thread's; the rest is locked
    /// Read on the frame thread only (calls come from there); workers reach it through `handle`.
    private unowned let host: MapHost
    private let handle: MapHostHandle
    private let log: Bool
    let indexes = SearchIndexes()
    private let places = LockedValue<PlaceIndex>()
    private let placesAsked = LockedValue<Bool>()
    /// Points whose whereabouts are being looked up (an added pin is also selected: once).
    /// Read and written on the frame's thread only.
    private var lookingUp = Set<Coordinate>()
    /// The geocoder asked on Enter and for key W (nil: configured off).
    let geocoder: Geocoder?

    init(host: MapHost, geocoder: Geocoder?) {
        self.host = host
        handle = host.handle
        self.geocoder = geocoder
        let log = host.configuration.logFrames
        self.log = log
        indexes.changed = { [weak self] ready in
            if log { FileIO.printError("search: indexes ready: " + ready.map { "\($0.title) (\($0.features) names)" }.joined(separator: ", ")) }
            self?.publish()
        }
        indexes.progress = { [weak self] title, share in
            // TRANSLATORS: a street map's search index being built: the map's name, and the share done in percent.
            let text = share.map { tr("Indexing %1$@… %2$d %%", title, Int(saturating: ($0 * 100).rounded(.down))) }
            self?.handle.perform { host in
                host.change { $0.update(SearchLayer.self, at: host.clock.now) { $0.indexing = text; return [.changed] } }
            }
        }
        indexes.failure = { [weak self] message in self?.handle.showNotice(message) }
        if log { Self.sayListShown(host) }
    }

    /// With MERIDIAN_FRAME_LOG: once a frame with the search box is on screen, what its list
    /// shows and which row is selected (`SearchLayer.listFacts`), each time that changes.
    /// Results come from workers after the typing: tests wait for this before they look.
    private static func sayListShown(_ host: MapHost) {
        var said: String?
        let before = host.onPresented
        host.onPresented = { [unowned host] in
            before?()
            // Read after the present, on the frame's thread: the state that frame was composed from.
            let facts = host.session.scene.layer(SearchLayer.self)?.listFacts
            if let facts, facts != said { FileIO.printError(facts) }
            said = facts
        }
    }

    /// The street maps to index now: the map shown (when it is a local file) and every saved area.
    func start(shown: String) {
        indexes.want([shown] + SearchIndexes.savedAreas())
    }

    /// Another map is shown, or an area was saved: index it too.
    func met(_ path: String) { indexes.want([path]) }

    /// The box opened: the built-in places are read now, once (not at start, where the first
    /// screen needs the cores).
    func opened() {
        guard placesAsked.get() != true else { return }
        placesAsked.set(true)
        startThread(name: "places") { [self] in
            // Without the file (or unreadable), an empty index: the box then says no place has
            // that name, rather than that places are loading, and coordinates still work.
            let loaded = Resources.places()
            if loaded == nil { handle.showNotice(tr("The places to search (places.tsv) cannot be read; search finds coordinates only")) }
            places.set(loaded ?? PlaceIndex(reading: Data()))
            publish()
        }
    }

    /// A new finder for the search box, of the places and the indexes there are now. Until the
    /// places are read, the box says they are loading.
    private func publish() {
        // Made on the frame's thread from what is ready then: a finder made earlier on another
        // thread can never come after a newer one.
        handle.perform { [self] host in
            guard let places = places.get() else { return }
            let finder = StreetSearch(places: places, indexes: indexes.indexes)
            host.change { $0.update(SearchLayer.self, at: host.clock.now) { $0.setSearcher(finder) } }
            // The directions panel's rows find places the same way.
            host.change { $0.update(DirectionsLayer.self, at: host.clock.now) { $0.setSearcher(finder) } }
        }
    }

    /// Enter asked the geocoder.
    func searchOnline(_ query: String, near: Coordinate?) {
        let handle = self.handle
        let deliver: @Sendable (Result<[SearchResult], SearchLayer.OnlineFailure>) -> Void = { outcome in
            handle.perform { host in
                host.change { $0.update(SearchLayer.self, at: host.clock.now) { $0.setOnline(query: query, outcome) } }
            }
        }
        guard let geocoder else { deliver(.failure(SearchLayer.OnlineFailure(tr("No online geocoder is configured")))); return }
        OnlineSearch.search(geocoder, query, near: near, log: log, deliver: deliver)
    }

    /// Key W: what the geocoder says is at `c`, in a notice with its credit, and in the
    /// callout of a pin standing there.
    func whatIsHereOnline(_ c: Coordinate) {
        let handle = self.handle, log = self.log
        // TRANSLATORS: geocoder.json is a file's name and "enabled": false what it says: not to translate.
        guard let geocoder else { handle.showNotice(tr("No online geocoder is configured (geocoder.json says \"enabled\": false)")); return }
        geocoder.reverse(c) { outcome in
            switch outcome {
            case let .success(places):
                let text = places.first.map { p in [p.name, p.area].compactMap { $0 }.joined(separator: ", ") }
                if log { FileIO.printError("search: online what is here \(c): \(text ?? "nothing")") }
                handle.perform { host in
                    guard let text else { host.showNotice(tr("The geocoder knows nothing here")); return }
                    if host.session.pins.contains(where: { $0.coordinate == c }) {
                        host.change { $0.scene.pins.setWhereabouts(text, at: c) }
                    }
                    // TRANSLATORS: what the online geocoder says is at a point (a place, an address), then its credit (“© OpenStreetMap contributors”).
                    host.showNotice(tr("Here: %1$@ (%2$@)", text, geocoder.config.credit))
                }
            case .failure(.superseded): break
            case let .failure(e):
                handle.showNotice(OnlineSearch.sentence(e.description))
            }
        }
    }

    /// A pin was added, moved or selected: what is there, from the street maps' indexes, for
    /// its callout and Ctrl+C.
    func pinEvent(_ event: PinEvent) {
        let coordinate: Coordinate
        switch event {
        case let .added(pin), let .moved(pin, _): coordinate = pin.coordinate
        case let .selected(id?):
            guard let pin = host.session.scene.pins.pin(id) else { return }
            coordinate = pin.coordinate
        default: return
        }
        guard host.session.scene.pins.whereabouts[coordinate] == nil else { return }
        let finder = StreetSearch(places: nil, indexes: indexes.indexes)
        guard !finder.indexes.isEmpty, lookingUp.insert(coordinate).inserted else { return }
        startThread(name: "what-is-here") { [self] in
            let text = finder.whatIsHere(coordinate)?.text
            if log { FileIO.printError("search: what is here \(coordinate): \(text ?? "nothing")") }
            handle.perform { [self] host in
                lookingUp.remove(coordinate)
                guard let text else { return }
                host.change { $0.scene.pins.setWhereabouts(text, at: coordinate) }
                host.change { $0.update(SearchLayer.self, at: host.clock.now) { _ in [.changed] } }
            }
        }
    }
}
