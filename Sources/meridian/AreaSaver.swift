import FoundationEssentials
import Glibc
import MapChrome
import MapCore
import MapGeometry
import MapTiles
import MapWindow
import Platform

/// "Save this area offline…" in the window: says what the map shown allows (the panel's
/// offer), saves the area on a worker with its progress on the map, lists saved areas in the
/// switcher, lays them beneath their map as soon as they are saved, and deletes them.
final class AreaSaver: @unchecked Sendable {
    private unowned let host: MapHost
    private let lock = Lock()
    private var extractor: TileExtractor?
    /// Cancel was pressed before the extractor was made (opening a remote archive takes a while).
    private var cancelRequested = false
    /// The map shown, by name, and its areas beneath it (nil: a map that has none).
    private(set) var current: String
    private var backed: AreaBackedSource?

    init(host: MapHost, current: String) {
        self.host = host
        self.current = current
        backed = host.source as? AreaBackedSource
    }

    /// The map shown changed (the switcher): its offer, and its areas.
    func shown(_ name: String, source: TileSource) {
        current = name
        backed = source as? AreaBackedSource
        refresh()
    }

    /// The offer, the switcher's list and the areas beneath, as the folder now holds them.
    func refresh() {
        backed?.areas = MapSources.savedAreas(under: current)
        let offer = Self.offer(for: current, source: host.source)
        let choices = MapSources.choices(current: current), under = !(backed?.areas.isEmpty ?? true)
        host.session.scene.modify(SaveAreaLayer.self, default: SaveAreaLayer()) { $0.offer = offer }
        host.session.scene.modify(SourcesLayer.self, default: SourcesLayer()) { $0.choices = choices; $0.savedAreasUnder = under }
    }

    /// What the map `name` allows: online maps whose server allows bulk downloads and remote
    /// archives can be saved; the rest say why not.
    static func offer(for name: String, source: TileSource) -> SaveAreaLayer.Offer {
        let title = MapSources.choices(current: name).first { $0.name == name }?.title ?? name
        let bare = (source as? AreaBackedSource)?.primary ?? source
        let vector = MapSources.isStreetMap(bare)
        let shift = zoomShift(bare)
        // Zooms as the map is drawn (a street map's 512-point tiles: one deeper than stored).
        var zooms = min(bare.zoomRange.lowerBound, 14)...min(bare.zoomRange.upperBound, 18)
        if let p = bare as? PMTilesSource { zooms = p.dataZoomRange.lowerBound...(p.dataZoomRange.upperBound + shift) }
        if let v = bare as? OnlineVectorTileSource { zooms = v.source.zoomRange.lowerBound...(v.source.zoomRange.upperBound + 1) }
        var offer = SaveAreaLayer.Offer(title: title, zooms: zooms, bytesPerTile: vector ? 30_000 : 20_000, zoomShift: shift)
        if !bare.isRemote {
            offer.refusal = name == MapSources.basemap ? "The world basemap is on this computer already: choose a map from the list (L) to save an area of it"
                : "This map is on this computer already: it is offline as it is"
        } else if !MapSources.isRemoteArchive(name), let online = try? MapSources.online(name) {
            offer.refusal = online.bulkRefusal
        }
        return offer
    }

    /// How many zooms shallower than drawn `source` numbers its tiles: a street map's
    /// 512-point tiles one, others none.
    static func zoomShift(_ source: TileSource) -> Int { MapSources.isStreetMap(source) ? 1 : 0 }

    /// Opens the panel (the switcher's row; key A opens it in the session).
    func open() {
        host.session.update(SaveAreaLayer.self, at: host.clock.now) { $0.open(); return [.changed] }
    }

    /// Saves `area` of the map shown, on a worker; the panel shows how it goes.
    /// An area was saved or deleted (or saving stopped): what lists saved areas may look
    /// again (search indexes the new one, and forgets the deleted).
    var listChanged: () -> Void = {}

    func save(_ area: SaveAreaLayer.Area) {
        let name = current, source = host.source
        let host = UncheckedSendable(self.host)
        lock.lock(); cancelRequested = false; lock.unlock()
        startThread(name: "save-area") { [self] in
            let outcome: String
            do {
                outcome = try extract(area, of: name, source: source, host: host.value)
            } catch ExtractError.cancelled {
                outcome = "Saving stopped; what was saved is kept, and saving the same area again goes on from there"
            } catch {
                outcome = "Cannot save the area: \(error)"
            }
            lock.lock(); extractor = nil; cancelRequested = false; lock.unlock()
            host.value.perform { [self] host in
                host.session.update(SaveAreaLayer.self, at: host.clock.now) { $0.finish(); return [.changed] }
                refresh()
                listChanged()
                host.showNotice(outcome)
            }
        }
    }

    private func extract(_ area: SaveAreaLayer.Area, of name: String, source: TileSource, host: MapHost) throws -> String {
        let shift = Self.zoomShift((source as? AreaBackedSource)?.primary ?? source)
        let zooms = max(0, area.zooms.lowerBound - shift)...max(0, area.zooms.upperBound - shift)
        let tileArea = try TileArea(west: area.west, south: area.south, east: area.east, north: area.north, zooms: zooms)
        let title = Self.title(of: area)
        let folder = SavedArea.folder()
        if let problem = FileIO.makeDirectories(folder) { throw ExtractError.failed("\(folder): \(problem)") }
        let path = folder + "/" + Self.fileName(title: title, map: name, area: tileArea)
        if FileIO.exists(path) { return "This area is saved already, as “\(title)”: it is in the map list (L)" }
        let extractor = try TileExtractor(source: try ExtractSources.open(name), area: tileArea, output: path, title: title)
        lock.lock()
        self.extractor = extractor
        let cancelled = cancelRequested
        lock.unlock()
        if cancelled { throw ExtractError.cancelled }
        let pace = Pace(interval: 0.2)
        let result = try extractor.run { progress in
            // A few reports a second are enough for a bar; the frame is not woken for each tile.
            guard pace.due() || progress.tilesDone == progress.tilesTotal else { return }
            host.perform { host in
                host.session.update(SaveAreaLayer.self, at: host.clock.now) {
                    $0.report(done: progress.tilesDone, total: progress.tilesTotal, bytes: progress.bytesDone, secondsLeft: progress.secondsLeft)
                    return [.changed]
                }
            }
        }
        return "Saved “\(title)” offline (\(SaveAreaLayer.bytes(UInt64(FileIO.fileSize(path))))): \(TrackStatistics.grouped(Double(result.tilesDone))) tiles, in the map list (L)"
    }

    /// Stops the saving under way (its progress is kept: saving the same area again resumes).
    func cancel() {
        lock.lock(); let e = extractor; cancelRequested = e == nil; lock.unlock()
        e?.cancel()
    }

    /// Deletes the saved area at `path`; if it is the map shown, its map is shown instead.
    func delete(_ path: String, choose: (String) -> Void) {
        guard path.hasPrefix(SavedArea.folder() + "/"), let area = try? SavedArea(path: path) else {
            host.showNotice("Cannot delete \(path): it is not a saved area")
            return
        }
        if current == path { choose(area.source) }
        // Its search index goes with it (rebuilt should the area come back).
        unlink(NameIndex.file(for: path, in: NameIndex.folder(environment: ProcessInfo.processInfo.environment)))
        if unlink(path) != 0 {
            host.showNotice("Cannot delete “\(area.title)”: \(FileIO.reason())")
        } else {
            host.showNotice("Deleted “\(area.title)” (\(SaveAreaLayer.bytes(area.bytes)))")
        }
        refresh()
        listChanged()
    }

    /// What the area is called: the largest place in it, else where it is.
    static func title(of area: SaveAreaLayer.Area) -> String {
        if let index = Resources.places() {
            let inside = index.places.filter { p in
                let c = p.coordinate
                let lon = area.west <= area.east ? c.longitude >= area.west && c.longitude <= area.east : c.longitude >= area.west || c.longitude <= area.east
                return lon && c.latitude >= area.south && c.latitude <= area.north
            }
            if let biggest = inside.max(by: { $0.population < $1.population }) { return biggest.name }
        }
        let lat = (area.south + area.north) / 2
        var lon = area.west <= area.east ? (area.west + area.east) / 2 : (area.west + area.east + 360) / 2
        if lon > 180 { lon -= 360 }
        return "Area at " + String(cFormat: "%.2f", abs(lat)) + (lat >= 0 ? "° N, " : "° S, ") + String(cFormat: "%.2f", abs(lon)) + (lon >= 0 ? "° E" : "° W")
    }

    /// A file name from the title and the map, and the box and zooms: the same area of the
    /// same map gets the same name, so saving it again resumes an interrupted save.
    static func fileName(title: String, map: String, area: TileArea) -> String {
        func slug(_ s: String) -> String {
            let kept = s.lowercased().unicodeScalars.map { ($0.value >= 0x61 && $0.value <= 0x7A) || ($0.value >= 0x30 && $0.value <= 0x39) ? Character($0) : "-" }
            return String(String(kept).split(separator: "-").joined(separator: "-").prefix(32))
        }
        let hash = FNV1a.hash("\(map)|\(area.west)|\(area.south)|\(area.east)|\(area.north)|\(area.zooms)")
        let mapSlug = MapSources.isRemoteArchive(map) ? slug(map.split(separator: "/").last.map(String.init) ?? "archive") : slug(map)
        return [slug(title), mapSlug, String(hash >> 40, radix: 16)].filter { !$0.isEmpty }.joined(separator: "-") + ".pmtiles"
    }
}

/// Lets something through at most once an interval (progress reports), from any thread.
private final class Pace: @unchecked Sendable {
    private let lock = Lock()
    private let interval: Double
    private var last = -Double.infinity
    init(interval: Double) { self.interval = interval }

    func due() -> Bool {
        let now = WallClock.now
        lock.lock(); defer { lock.unlock() }
        guard now - last >= interval else { return false }
        last = now
        return true
    }
}
