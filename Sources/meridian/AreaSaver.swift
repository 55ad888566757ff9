import FoundationEssentials
import Glibc
import MapChrome
import MapCore
import MapGeometry
import MapRouting
import MapSearch
import MapTiles
import MeridianKit
import MapWindow
import Platform

/// "Save this area offline…" in the window: says what the map shown allows (the panel's
/// offer), saves the area on a worker with its progress on the map, lists saved areas in the
/// switcher and in "Saved areas" (with the saves that stopped midway), lays them beneath
/// their map as soon as they are saved, and updates, renames, resumes, discards and deletes
/// them. One save or update runs at a time.
final class AreaSaver: @unchecked Sendable { // the job's state under `lock`; `host` and `backed` on the frame thread only, workers use its handle
    private unowned let host: MapHost
    private let lock = Lock()
    private var extractor: TileExtractor?
    /// Cancel was pressed before the extractor was made (opening a remote archive takes a while).
    private var cancelRequested = false
    /// A save or update is under way.
    private var running = false
    /// The map shown, by name (the session's: read on the window's thread).
    var current: String { host.session.tileStack.chosenMap }
    /// The areas beneath the map shown (nil: a map that has none).
    private var backed: AreaBackedSource?
    /// The maps: the switcher's list, and what the areas are cut from.
    private let catalog: MapCatalog

    init(host: MapHost, catalog: MapCatalog) {
        self.host = host
        self.catalog = catalog
        backed = host.source as? AreaBackedSource
    }

    /// The map shown changed (the switcher): its offer, and its areas.
    func shown(source: TileSource) {
        backed = source as? AreaBackedSource
        refresh()
    }

    /// The offer, the switcher's list, "Saved areas" and the areas beneath, as the folder
    /// now holds them.
    func refresh() {
        // The folder read once (each area's archive opened once) for every list made of it.
        let saved = SavedArea.list()
        backed?.areas = MapCatalog.savedAreas(under: current, of: saved)
        let choices = catalog.choices(current: current, saved: saved), under = !(backed?.areas.isEmpty ?? true)
        let offer = Self.offer(for: current, source: host.source, choices: choices, catalog: catalog)
        let (rows, total) = Self.rows(titles: Dictionary(choices.map { ($0.name, $0.title) }) { a, _ in a }, saved: saved)
        host.change { $0.scene.modify(SaveAreaLayer.self, default: SaveAreaLayer()) { $0.offer = offer } }
        host.change { $0.scene.modify(SourcesLayer.self, default: SourcesLayer()) {
            $0.choices = choices; $0.savedAreasUnder = under; $0.savedAreasCount = rows.count
        } }
        host.change { $0.scene.modify(AreasLayer.self, default: AreasLayer()) { $0.list(rows, total: total) } }
    }

    /// "Saved areas": every saved area and unfinished save, and the total they take on disk.
    static func rows(titles: [String: String], saved: [SavedArea], folder: String = SavedArea.folder()) -> ([AreasLayer.Row], String) {
        func mapTitle(_ source: String) -> String {
            titles[source] ?? (MapCatalog.isRemoteArchive(source) ? source.split(separator: "/").last.map(String.init) ?? source : source)
        }
        let unfinished = UnfinishedArea.list(in: folder)
        var rows = saved.map { a -> AreasLayer.Row in
            // Zooms as the save panel said them: a street map's drawn one deeper.
            let shift = a.isVector ? 1 : 0
            // TRANSLATORS: the zoom levels a saved area holds, in the "Saved areas" list: “zooms 7–15”.
            var detail = "\(mapTitle(a.source)) · \(SaveAreaLayer.bytes(a.bytes)) · " + tr("zooms %1$d–%2$d", a.zooms.lowerBound + shift, a.zooms.upperBound + shift)
            // TRANSLATORS: in the "Saved areas" list: the date the area was saved.
            if let d = a.saved { detail += " · " + tr("saved %@", ExtractDates.spoken(d)) }
            // TRANSLATORS: in the "Saved areas" list: the date of the map data the area holds.
            if let d = a.dataDate { detail += " · " + tr("data of %@", ExtractDates.spoken(d)) }
            if case let .success(db) = RoutinoDatabase.open(AreaRouting.directory(forArea: a.path)) {
                let size = SaveAreaLayer.bytes(UInt64(max(0, db.size)))
                if let built = db.built {
                    // TRANSLATORS: in the "Saved areas" list: the size of the area's offline directions (routing data), and the date of the data they were built from.
                    detail += " · " + tr("directions %1$@ of %2$@", size, ExtractDates.spoken(built))
                } else {
                    // TRANSLATORS: in the "Saved areas" list: the size of the area's offline directions (routing data).
                    detail += " · " + tr("directions %@", size)
                }
            }
            return AreasLayer.Row(path: a.path, kind: .saved, title: a.title, detail: detail, area: shown(a))
        }
        rows += unfinished.map { u in
            let share = u.tilesTotal > 0 ? Int(saturating: (100 * Double(min(u.tilesDone, u.tilesTotal)) / Double(u.tilesTotal)).rounded(.down)) : 0
            let done = TrackStatistics.grouped(Double(u.tilesDone)), total = TrackStatistics.grouped(Double(u.tilesTotal))
            let stopped = u.plan.updating == true
                // TRANSLATORS: an unfinished update in the "Saved areas" list: tiles fetched (%2$@) of all the area's tiles (%3$@), and that share in percent (%4$d).
                ? trn("update stopped at %2$@ of %3$@ tiles (%4$d %%)", "update stopped at %2$@ of %3$@ tiles (%4$d %%)", Int(clamping: u.tilesTotal), done, total, share)
                // TRANSLATORS: an unfinished save in the "Saved areas" list: tiles fetched (%2$@) of all the area's tiles (%3$@), and that share in percent (%4$d).
                : trn("stopped at %2$@ of %3$@ tiles (%4$d %%)", "stopped at %2$@ of %3$@ tiles (%4$d %%)", Int(clamping: u.tilesTotal), done, total, share)
            // TRANSLATORS: the bytes an unfinished save has fetched, “12.3 MB so far”.
            let detail = "\(mapTitle(u.plan.source)) · " + stopped + " · " + tr("%@ so far", SaveAreaLayer.bytes(u.bytes))
            // By its .part folder: an update stopped midway is listed beside its area.
            return AreasLayer.Row(path: u.folder, kind: .unfinished, title: u.title, detail: detail, area: shown(u.area))
        }
        let bytes = saved.reduce(UInt64(0)) { $0 + $1.bytes } + unfinished.reduce(UInt64(0)) { $0 + $1.bytes }
        // TRANSLATORS: how many areas are saved, in the "Saved areas" panel's total line.
        let count = trn("%d area", "%d areas", saved.count)
        let total: String
        if rows.isEmpty {
            total = ""
        } else if unfinished.isEmpty {
            // TRANSLATORS: the "Saved areas" panel's total line: how many areas (“3 areas”), and what they take on disk (“12.3 MB”).
            total = tr("%1$@ · %2$@ on disk", count, SaveAreaLayer.bytes(bytes))
        } else {
            // TRANSLATORS: how many saves stopped midway, in “3 areas and 2 unfinished” (saves of areas).
            let stopped = trn("%d unfinished", "%d unfinished", unfinished.count)
            // TRANSLATORS: the "Saved areas" panel's total line: how many areas (“3 areas”), how many unfinished saves (“2 unfinished”), and what they take on disk (“12.3 MB”).
            total = tr("%1$@ and %2$@ · %3$@ on disk", count, stopped, SaveAreaLayer.bytes(bytes))
        }
        return (rows, total)
    }

    /// Where an area is and its zooms, as the panels draw it.
    static func shown(_ a: SavedArea) -> SaveAreaLayer.Area {
        SaveAreaLayer.Area(west: a.west, south: a.south, east: a.east, north: a.north, zooms: a.zooms)
    }

    static func shown(_ a: TileArea) -> SaveAreaLayer.Area {
        SaveAreaLayer.Area(west: a.west, south: a.south, east: a.east, north: a.north, zooms: a.zooms)
    }

    /// What the map `name` allows: online maps whose server allows bulk downloads and remote
    /// archives can be saved; the rest say why not. `choices`: the switcher's list (its titles).
    static func offer(for name: String, source: TileSource, choices: [SourcesLayer.Choice], catalog: MapCatalog) -> SaveAreaLayer.Offer {
        let title = choices.first { $0.name == name }?.title ?? name
        let bare = MapCatalog.underlying(source)
        let vector = MapCatalog.isStreetMap(bare)
        let shift = bare.zoomShift
        // Zooms as the map is drawn (a street map's 512-point tiles: one deeper than stored).
        var zooms = min(bare.zoomRange.lowerBound, 14)...min(bare.zoomRange.upperBound, 18)
        if let p = bare as? PMTilesSource { zooms = p.dataZoomRange.lowerBound...(p.dataZoomRange.upperBound + shift) }
        if let v = bare as? OnlineVectorTileSource { zooms = v.source.zoomRange.lowerBound...(v.source.zoomRange.upperBound + 1) }
        var offer = SaveAreaLayer.Offer(title: title, zooms: zooms, bytesPerTile: vector ? 30_000 : 20_000, zoomShift: shift,
                                        freeBytes: FileIO.freeBytes(at: SavedArea.folder()))
        if name == MapCatalog.terrain {
            // Its heights are saved (to zoom 12, about 30 m a pixel, as fine as most of the
            // data is): deeper, terrain is drawn from them.
            offer.zooms = 0...AreaSaver.heightsDeepestZoom
            offer.bytesPerTile = 90_000
        } else if MapCatalog.isTerrain(name) {
            offer.refusal = tr("These heights are on this computer already: terrain from them is offline as it is")
        } else if !bare.isRemote {
            offer.refusal = name == MapCatalog.basemap ? tr("The world basemap is on this computer already: choose a map from the list (L) to save an area of it")
                : tr("This map is on this computer already: it is offline as it is")
        } else if !MapCatalog.isRemoteArchive(name), let online = try? catalog.online(name) {
            offer.refusal = online.bulkRefusal
        }
        return offer
    }

    /// Opens the panel (the switcher's row; key A opens it in the session).
    func open() {
        host.change { $0.update(SaveAreaLayer.self, at: host.clock.now) { $0.open(); return [.changed] } }
    }

    /// An area was saved or deleted (or saving stopped): what lists saved areas may look
    /// again (search indexes the new one, and forgets the deleted).
    var listChanged: () -> Void = {}
    /// Heights were saved: the terrain is to be drawn from them (the map's layers made again).
    var heightsSaved: () -> Void = {}

    /// The deepest zoom of heights saved for terrain.
    static let heightsDeepestZoom = 12

    /// Saves `area` of the map shown, on a worker; the panel shows how it goes. With the
    /// terrain overlay on, the heights of the area are saved after the map (as their own
    /// area), so that terrain lies over it offline too.
    func save(_ area: SaveAreaLayer.Area) {
        let terrainOn = host.session.tileStack.overlay(MapOverlays.terrain)?.isVisible == true
        // Terrain as the map: its heights are what is saved.
        let name = current == MapCatalog.terrain ? OnlineSource.terrainDEM.name : current, source = host.source
        let shift = name == OnlineSource.terrainDEM.name ? 0 : source.zoomShift
        // Directions offline too (the panel's choice): after the tiles, and the heights.
        var directions: (@Sendable () -> Void)?
        if host.session.scene.layer(SaveAreaLayer.self)?.directions == true, let path = try? Self.path(of: area, map: name, shift: shift) {
            directions = { [weak self] in self?.routing?.build(area, beside: path) }
        }
        var heights: (@Sendable () -> Void)?
        if terrainOn && name != OnlineSource.terrainDEM.name {
            let after = directions
            heights = { [weak self] in self?.saveHeights(area, then: after) }
        }
        save(area, of: name, shift: shift, then: heights ?? directions)
    }

    /// Builds saved areas' routing data ("Directions offline too"); nil without Routino.
    var routing: AreaDirections?
    /// A saved area was deleted (its routing data with it).
    var deleted: (String) -> Void = { _ in }

    /// Where the area `area` of the map `name` is saved.
    static func path(of area: SaveAreaLayer.Area, map name: String, shift: Int, suffix: String = "") throws -> String {
        let zooms = max(0, area.zooms.lowerBound - shift)...max(0, area.zooms.upperBound - shift)
        let tileArea = try TileArea(west: area.west, south: area.south, east: area.east, north: area.north, zooms: zooms)
        // Named from the English title: the same area is the same file in every language.
        return SavedArea.folder() + "/" + fileName(title: title(of: area, english: true) + suffix, map: name, area: tileArea)
    }

    /// Saves the heights of `area` for the terrain overlay, to `heightsDeepestZoom`, from four
    /// zooms above the area's shallowest (a street-level area is still shaded zoomed out a
    /// little; those tiles are few).
    private func saveHeights(_ area: SaveAreaLayer.Area, then: (@Sendable () -> Void)? = nil) {
        var heights = area
        let deepest = min(area.zooms.upperBound, Self.heightsDeepestZoom)
        heights.zooms = max(0, min(area.zooms.lowerBound, deepest) - 4)...deepest
        let progress = Self.progress(tr("Saving the terrain's heights"), heights)
        // Named after the map's area they go with.
        // TRANSLATORS: the name of the saved heights of an area's terrain: the area's name, “Helsinki (terrain)”.
        save(heights, of: OnlineSource.terrainDEM.name, shift: 0, suffix: " (terrain)", titled: { tr("%@ (terrain)", $0) }, shown: progress) { [weak self] in
            self?.heightsSaved(); then?()
        }
    }

    /// `shift`: zooms the map numbers its tiles shallower than drawn; `suffix`: after the title
    /// in the file's name; `titled`: the title as the reader sees it.
    private func save(_ area: SaveAreaLayer.Area, of name: String, shift: Int, suffix: String = "", titled: @escaping @Sendable (String) -> String = { $0 },
                      shown: SaveAreaLayer.Progress? = nil, then: (@Sendable () -> Void)?) {
        let catalog = self.catalog
        run(shown, then: then) {
            let zooms = max(0, area.zooms.lowerBound - shift)...max(0, area.zooms.upperBound - shift)
            let tileArea = try TileArea(west: area.west, south: area.south, east: area.east, north: area.north, zooms: zooms)
            let title = titled(Self.title(of: area))
            let folder = SavedArea.folder()
            if let problem = FileIO.makeDirectories(folder) { throw ExtractError.failed("\(folder): \(problem)") }
            let path = try Self.path(of: area, map: name, shift: shift, suffix: suffix)
            // TRANSLATORS: %@ is the area's name; Shift+A opens Saved areas.
            if FileIO.exists(path) { return .nothing(tr("This area is saved already, as “%@”: it is in Saved areas (Shift+A)", title)) }
            let extractor = try TileExtractor(source: try ExtractSources.open(name, in: catalog), area: tileArea, output: path, title: title)
            return .extract(extractor) { result in
                // TRANSLATORS: %2$@ is the area's name, %3$@ its size on disk (“12.3 MB”), %4$@ how many tiles it holds (“12,345”).
                trn("Saved “%2$@” offline (%3$@): %4$@ tiles, in Saved areas (Shift+A)", "Saved “%2$@” offline (%3$@): %4$@ tiles, in Saved areas (Shift+A)",
                    Int(clamping: result.tilesDone), title, SaveAreaLayer.bytes(UInt64(FileIO.fileSize(path))), TrackStatistics.grouped(Double(result.tilesDone)))
            }
        }
    }

    /// Brings the saved area at `path` up to date from its map: only the tiles the server
    /// says changed are downloaded, and the area is replaced when the update is whole.
    func update(_ path: String) {
        guard let area = try? SavedArea(path: path) else { return host.showNotice(tr("Cannot update %@: it is not a saved area", path)) }
        // Its directions are built again after its tiles, from the region's newest extract.
        var directions: (@Sendable () -> Void)?
        if FileIO.exists(AreaRouting.directory(forArea: path)) {
            directions = { [weak self] in self?.routing?.build(Self.shown(area), beside: path) }
        }
        let catalog = self.catalog
        run(Self.progress(tr("Updating “%@”", area.title), area), replacing: path, then: directions) {
            guard let extractor = try area.updater(from: try ExtractSources.open(area.source, in: catalog)) else {
                // An update stopped before is no use either.
                try? UnfinishedArea.list().first { $0.path == path && $0.plan.updating == true }?.discard()
                return .nothing(tr("“%@” is up to date: its map has not changed since it was saved", area.title))
            }
            return .extract(extractor) { Self.updated(area.title, $0) }
        }
    }

    /// What an update did, said.
    static func updated(_ title: String, _ result: ExtractProgress) -> String {
        // TRANSLATORS: how many tiles an update downloaded (“12,345”), in “Updated “Helsinki”: 12 tiles downloaded, 3,400 unchanged (15 requests)”.
        let downloaded = trn("%2$@ tiles downloaded", "%2$@ tiles downloaded", Int(clamping: result.downloaded), TrackStatistics.grouped(Double(result.downloaded)))
        // TRANSLATORS: how many tiles an update found unchanged (“3,400”), in “Updated “Helsinki”: 12 tiles downloaded, 3,400 unchanged (15 requests)”.
        let unchanged = trn("%2$@ unchanged", "%2$@ unchanged", Int(clamping: result.unchanged), TrackStatistics.grouped(Double(result.unchanged)))
        // TRANSLATORS: how many requests an update made to the map's server, in “Updated “Helsinki”: 12 tiles downloaded, 3,400 unchanged (15 requests)”.
        let requests = trn("%d requests", "%d requests", result.requests)
        // TRANSLATORS: what an update did: %1$@ is the area's name, then “12 tiles downloaded”, “3,400 unchanged” and “15 requests”.
        return tr("Updated “%1$@”: %2$@, %3$@ (%4$@)", title, downloaded, unchanged, requests)
    }

    /// Goes on with the save (or update) whose `.part` folder is `folder`.
    func resume(_ folder: String) {
        guard let unfinished = UnfinishedArea.list().first(where: { $0.folder == folder }) else {
            return host.showNotice(tr("There is no unfinished save at %@ any more", folder))
        }
        let plan = unfinished.plan, path = unfinished.path, tileArea = unfinished.area
        let headline = plan.updating == true
            // TRANSLATORS: the save panel's headline while a saved area is updated; %@ is its name.
            ? tr("Updating “%@”", unfinished.title)
            // TRANSLATORS: the save panel's headline while an area is saved; %@ is its name.
            : tr("Saving “%@” offline", unfinished.title)
        let catalog = self.catalog
        run(Self.progress(headline, Self.shown(tileArea), done: unfinished.tilesDone, total: unfinished.tilesTotal), replacing: path) {
            let source = try ExtractSources.open(plan.source, in: catalog)
            if plan.updating == true, let area = try? SavedArea(path: path) {
                guard let made = try area.updater(from: source) else {
                    try? unfinished.discard()
                    return .nothing(tr("“%@” is up to date: its map has not changed since it was saved", area.title))
                }
                return .extract(made) { Self.updated(area.title, $0) }
            }
            let extractor = try TileExtractor(source: source, area: tileArea, output: path, title: plan.title)
            return .extract(extractor) { result in
                // TRANSLATORS: %2$@ is the area's name, %3$@ its size on disk (“12.3 MB”), %4$@ how many tiles it holds (“12,345”).
                trn("Saved “%2$@” offline (%3$@): %4$@ tiles", "Saved “%2$@” offline (%3$@): %4$@ tiles",
                    Int(clamping: result.tilesDone), unfinished.title, SaveAreaLayer.bytes(UInt64(FileIO.fileSize(path))), TrackStatistics.grouped(Double(result.tilesDone)))
            }
        }
    }

    /// What a job on the worker comes to: nothing to do (and why), or an extract to run and
    /// what to say when it is done.
    private enum Job {
        case nothing(String)
        case extract(TileExtractor, done: (ExtractProgress) -> String)
    }

    private static func progress(_ headline: String, _ area: SavedArea) -> SaveAreaLayer.Progress { progress(headline, shown(area)) }

    private static func progress(_ headline: String, _ area: SaveAreaLayer.Area, done: UInt64 = 0, total: UInt64 = 0) -> SaveAreaLayer.Progress {
        var p = SaveAreaLayer.Progress(title: headline, area: area, done: done, total: total, bytes: 0, secondsLeft: nil)
        p.headline = headline
        return p
    }

    /// Runs `prepare` and the extract it makes on a worker, one job at a time; the save
    /// panel shows its progress (`shown`: a job the panel did not start itself), a notice
    /// its outcome, and the lists are read again after it.
    /// `then`: what to do once the job was done whole (another save).
    private func run(_ shown: SaveAreaLayer.Progress?, replacing: String? = nil, then: (@Sendable () -> Void)? = nil, _ prepare: @escaping @Sendable () throws -> Job) {
        lock.lock()
        guard !running, routing?.isBusy != true else {
            lock.unlock()
            return host.showNotice(tr("An area is being saved: wait for it to finish, or stop it (Esc or Cancel)"))
        }
        running = true
        cancelRequested = false
        lock.unlock()
        if let shown { self.host.change { $0.update(SaveAreaLayer.self, at: self.host.clock.now) { $0.progress = shown; return [.changed] } } }
        let host = self.host.handle
        startThread(name: "save-area") { [self] in
            // A saved area is for later: it yields to the view and to the desktop (the
            // extractor's threads, started from this one, inherit it).
            ThreadPriority.speculative.apply()
            let outcome: String
            var whole = false
            do {
                switch try prepare() {
                case let .nothing(message): outcome = message
                case let .extract(extractor, done):
                    lock.lock()
                    self.extractor = extractor
                    let cancelled = cancelRequested
                    lock.unlock()
                    if cancelled { extractor.abandon(); throw ExtractError.cancelled }
                    let result = try extractor.run(progress: reporter(host))
                    outcome = (extractor.startedAgain.map { $0 + ". " } ?? "") + done(result)
                    whole = true
                }
            } catch ExtractError.cancelled {
                outcome = tr("Saving stopped; what was saved is kept: Resume in Saved areas (Shift+A) goes on from there")
            } catch let ExtractError.diskFull(what) {
                // TRANSLATORS: %@ says what was being written when the disk filled up.
                outcome = tr("The disk is full (%@): saving stopped, and what was saved is kept. Free some space, then Resume in Saved areas (Shift+A)", what)
            } catch {
                outcome = tr("Cannot save the area: %@", error)
            }
            lock.lock(); extractor = nil; lock.unlock()
            let done = whole
            host.perform { [self] host in
                host.change { $0.update(SaveAreaLayer.self, at: host.clock.now) { $0.finish(); return [.changed] } }
                // Only now may the next job begin: its panel must not be cleared by this one's end.
                lock.lock(); cancelRequested = false; running = false; lock.unlock()
                refresh()
                listChanged()
                if let replacing { reshow(replacing) }
                host.showNotice(outcome)
                if done { then?() }
            }
        }
    }

    /// Progress for the panel, a few reports a second (the frame is not woken per tile).
    private func reporter(_ host: MapHostHandle) -> @Sendable (ExtractProgress) -> Void {
        let pace = Pace(interval: 0.2)
        return { progress in
            guard pace.due() || progress.tilesDone == progress.tilesTotal else { return }
            host.perform { host in
                host.change { $0.update(SaveAreaLayer.self, at: host.clock.now) {
                    $0.report(done: progress.tilesDone, total: progress.tilesTotal, bytes: progress.bytesDone, secondsLeft: progress.secondsLeft)
                    return [.changed]
                } }
            }
        }
    }

    /// The saved area at this path was replaced (updated, renamed): if it is the map shown,
    /// the map is read again from the new file.
    var reshow: (String) -> Void = { _ in }

    /// Stops the saving under way (its progress is kept: saving the same area again resumes).
    func cancel() {
        lock.lock(); let e = extractor; cancelRequested = e == nil; lock.unlock()
        e?.cancel()
        routing?.stop()
    }

    /// Opens or closes "Saved areas" (the switcher's row; Shift+A opens it in the session).
    func openList() {
        host.change { $0.update(AreasLayer.self, at: host.clock.now) { $0.open(); return [.changed] } }
    }

    /// Deletes the saved area at `path`; if it is the map shown, its map is shown instead.
    func delete(_ path: String, choose: (String) -> Void) {
        guard path.hasPrefix(SavedArea.folder() + "/"), let area = try? SavedArea(path: path) else {
            host.showNotice(tr("Cannot delete %@: it is not a saved area", path))
            return
        }
        guard !refusedWhileBusy() else { return }
        if current == path { choose(area.source) }
        // Its search index goes with it (rebuilt should the area come back).
        unlink(NameIndex.file(for: path, in: NameIndex.folder(environment: ProcessInfo.processInfo.environment)))
        do {
            try area.delete()
            // Its directions go with it.
            _ = FileIO.removeTree(AreaRouting.directory(forArea: path))
            deleted(path)
            // TRANSLATORS: %1$@ is the area's name, %2$@ what it took on disk (“12.3 MB”).
            host.showNotice(tr("Deleted “%1$@” (%2$@)", area.title, SaveAreaLayer.bytes(area.bytes)))
        } catch {
            host.showNotice(tr("Cannot delete “%1$@”: %2$@", area.title, error))
        }
        refresh()
        listChanged()
    }

    /// Gives the saved area at `path` another name, on the worker: its metadata is rewritten
    /// and its tiles copied as they are into a new file renamed over it (seconds for a large
    /// area, and room for a second copy).
    func rename(_ path: String, to title: String) {
        guard let area = try? SavedArea(path: path) else { return }
        run(nil, replacing: path) {
            do {
                let renamed = try area.renamed(to: title)
                // TRANSLATORS: a saved area renamed: its old name, then its new one.
                return .nothing(tr("“%1$@” is now “%2$@”", area.title, renamed.title))
            } catch {
                return .nothing(tr("Cannot rename “%1$@”: %2$@", area.title, error))
            }
        }
    }

    /// Throws away what the unfinished save whose `.part` folder is `folder` fetched.
    func discard(_ folder: String) {
        guard let unfinished = UnfinishedArea.list().first(where: { $0.folder == folder }), !refusedWhileBusy() else { return }
        do {
            try unfinished.discard()
            // TRANSLATORS: %1$@ is the area's name, %2$@ the space freed (“12.3 MB”).
            host.showNotice(tr("Discarded the unfinished save of “%1$@” (%2$@ freed)", unfinished.title, SaveAreaLayer.bytes(unfinished.bytes)))
        } catch {
            host.showNotice(tr("Cannot discard “%1$@”: %2$@", unfinished.title, error))
        }
        refresh()
    }

    /// Whether a save or update is under way: then the areas wait (said in a notice).
    private func refusedWhileBusy() -> Bool {
        lock.lock(); let busy = running || routing?.isBusy == true; lock.unlock()
        if busy { host.showNotice(tr("An area is being saved or updated: wait for it to finish, or stop it (Esc or Cancel)")) }
        return busy
    }

    /// What the area is called: the largest place in it, else where it is (`english`: in
    /// English whatever the language, as its file is named).
    static func title(of area: SaveAreaLayer.Area, english: Bool = false) -> String {
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
        let latitude = String(cFormat: "%.2f", abs(lat)), longitude = String(cFormat: "%.2f", abs(lon))
        if english { return "Area at " + latitude + (lat >= 0 ? "° N, " : "° S, ") + longitude + (lon >= 0 ? "° E" : "° W") }
        let ns = lat >= 0
            // TRANSLATORS: a latitude north of the equator, as in “Area at 60.17° N, 24.94° E”.
            ? tr("%@° N", latitude)
            // TRANSLATORS: a latitude south of the equator, as in “Area at 33.87° S, 151.21° E”.
            : tr("%@° S", latitude)
        let ew = lon >= 0
            // TRANSLATORS: a longitude east of Greenwich, as in “Area at 60.17° N, 24.94° E”.
            ? tr("%@° E", longitude)
            // TRANSLATORS: a longitude west of Greenwich, as in “Area at 40.71° N, 74.01° W”.
            : tr("%@° W", longitude)
        // TRANSLATORS: the name of a saved area where no place lies: its middle, a latitude (“60.17° N”) and a longitude (“24.94° E”).
        return tr("Area at %1$@, %2$@", ns, ew)
    }

    /// A file name from the title and the map, and the box and zooms: the same area of the
    /// same map gets the same name, so saving it again resumes an interrupted save.
    static func fileName(title: String, map: String, area: TileArea) -> String {
        func slug(_ s: String) -> String {
            let kept = s.lowercased().unicodeScalars.map { ($0.value >= 0x61 && $0.value <= 0x7A) || ($0.value >= 0x30 && $0.value <= 0x39) ? Character($0) : "-" }
            return String(String(kept).split(separator: "-").joined(separator: "-").prefix(32))
        }
        let hash = FNV1a.hash("\(map)|\(area.west)|\(area.south)|\(area.east)|\(area.north)|\(area.zooms)")
        let mapSlug = MapCatalog.isRemoteArchive(map) ? slug(map.split(separator: "/").last.map(String.init) ?? "archive") : slug(map)
        return [slug(title), mapSlug, String(hash >> 40, radix: 16)].filter { !$0.isEmpty }.joined(separator: "-") + ".pmtiles"
    }
}

/// Lets something through at most once an interval (progress reports), from any thread.
final class Pace: @unchecked Sendable {
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
