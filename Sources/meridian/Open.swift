import ArgumentParser
import FoundationEssentials
import Glibc
import MapNetwork
import MapSearch
import MeridianKit
import Platform
import MapChrome
import MapCore
import MapData
import MapGeometry
import MapRender
import MapTiles
import MapWindow

/// Opens the map window (the default command).
struct Open: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "open", abstract: tr("Open the map window (default)."))

    @OptionGroup var view: ViewOptions
    @OptionGroup var overlays: OverlayOptions

    @Option(name: .long, help: ArgumentHelp(tr("Window size in points."), valueName: "WxH"))
    var size = WindowSize(width: 1280, height: 800)

    // TRANSLATORS: auto, gpu, software and pixels are typed as they are: keep them.
    @Option(name: .long, help: ArgumentHelp(tr("How to draw: auto (OpenGL with a GPU, else software), gpu, software (on X11 the X server draws, with RENDER, where it can; else the app) or pixels (software, always in the app)."), valueName: "KIND"))
    var renderer = RendererChoice.auto

    // TRANSLATORS: auto, gpsd, gpsd:HOST:PORT, geoclue, nmea:FILE[@SPEED] and none are typed as they are: keep them.
    @Option(name: .long, help: ArgumentHelp(tr("Where the live position comes from: auto (gpsd on this machine when it answers, else the desktop's GeoClue, else none), gpsd, gpsd:HOST:PORT, geoclue, nmea:FILE[@SPEED] (a log replayed), or none."), valueName: "SOURCE"))
    var locationSource = LocationSourceOption.auto

    @Option(name: .long, help: ArgumentHelp(tr("The GeoJSON file pins are loaded from and saved to (default: $XDG_DATA_HOME/meridian/pins.geojson)."), valueName: "FILE"))
    var pins: String?

    @Option(name: .long, help: ArgumentHelp(tr("An OpenStreetMap extract to find directions in offline, with Routino (again for more; built once into a database under ~/.cache/meridian/routing)."), valueName: "FILE.osm.pbf"))
    var osm: [String] = []

    // TRANSLATORS: the coordinates are an example, typed as they are: keep them.
    @Option(name: .long, help: ArgumentHelp(tr("Open with directions through this place: coordinates (42.5063,1.5218) or a name the offline search finds. Again for each place: the first is the start, the last the end, those between are passed on the way."), valueName: "PLACE"))
    var route: [String] = []

    @Argument(help: ArgumentHelp(tr("GPX, KML, GeoJSON, CSV, FIT or TCX files to open (the view moves to show them), or a place to show: a geo: link (geo:48.85,2.35?z=12) or an OpenStreetMap link."), valueName: "FILE"))
    var files: [String] = []

    @Flag(name: .long, help: .hidden)
    var exitAfterFirstPresent = false

    @Flag(name: .long, help: .hidden)
    var exitWhenDrawn = false

    /// Bench runs leave no state behind.
    private var isBenchRun: Bool { exitAfterFirstPresent || exitWhenDrawn }

    /// Street maps as the options say, dark where the desktop prefers it.
    private var styleChoice: StyleChoice { view.styleChoice.followingDesktop() }

    func validate() throws {
        // TRANSLATORS: --route is the option itself, typed as it is.
        if route.count == 1 { throw ValidationError(tr("--route needs two places at least: give it again for where the route ends")) }
    }

    mutating func run() throws {
        // A place of --route that cannot be had is said before any window opens.
        let asked: [RoutePlaces.Place]
        let names = view.tiles.map { [$0] }?.filter(SearchIndexes.isIndexable) ?? []
        switch RoutePlaces.resolve(route, tiles: names) {
        case let .success(places): asked = places
        case let .failure(problem): throw ValidationError("--route: \(problem.text)")
        }
        // Errors a person must see go to the window (started from the desktop, there is no
        // terminal), and to stderr.
        var notices: [String] = []
        if view.offline { Meridian.catalog.isOffline = true }
        let catalog = Meridian.catalog
        let stateURL = ViewState.defaultURL()
        var saved: ViewState?
        do { saved = try ViewState.load(from: stateURL) } catch { notices.append(tr("%@; starting from the default view", error)) }
        // The first start: over the reader's country, and streets where OpenFreeMap answers.
        let firstStart = saved == nil && !FileIO.exists(stateURL.path) && !isBenchRun
        let asksNoPlace = files.isEmpty && route.isEmpty && view.center == nil && view.zoom == nil
        let firstView = firstStart && asksNoPlace
            ? FirstStart.view(region: Localization.region(environment: ProcessInfo.processInfo.environment), places: Resources.places(), viewport: size.screenSize)
            : nil
        // The labels' names as the view kept them, unless --labels says.
        if view.labels == nil { view.labels = saved?.labels.flatMap(LabelNames.init(rawValue:)) }
        let (paths, place) = Self.placesAndFiles(files, notices: &notices)
        let camera = Camera(center: place?.coordinate ?? view.center ?? saved?.coordinate ?? firstView?.center ?? ViewOptions.defaultCenter,
                            zoom: place.map { $0.zoom ?? 15 } ?? view.zoom ?? saved?.zoom ?? firstView?.zoom ?? ViewOptions.defaultZoom, viewportSize: size.screenSize,
                            bearing: view.bearing ?? (place == nil && view.center == nil ? saved?.openingBearing : nil) ?? 0)
        // Started without files, the window reopens those open when it was last closed (the
        // view is the saved one, so it does not move to them).
        let reopen = paths.isEmpty && place == nil && asked.isEmpty && view.center == nil && view.zoom == nil ? saved?.files ?? [] : []
        let marker = place.map { SearchLayer.Marker(coordinate: $0.coordinate, title: String(cFormat: "%.5f, %.5f", $0.coordinate.latitude, $0.coordinate.longitude)) }
        // The view is kept for the next start when the window closes, and whenever another
        // map or an overlay is chosen (bench runs leave none).
        let bench = isBenchRun
        let keep = { (end: WindowEnd) in
            guard !bench else { return }
            do { try end.viewState.save(to: stateURL) } catch { warn(tr("could not save the view: %@", error)) }
        }
        let end = try showWindow(camera: camera, files: paths, marker: marker, route: asked, notices: notices, reopen: reopen,
                                 tiles: view.tiles ?? catalog.styles.tilesNamed(by: view.styleChoice) ?? saved?.tiles ?? MapCatalog.basemap, hintShown: saved?.hintShown ?? false,
                                 helpHintShown: saved?.helpHintShown ?? false, tileOverlays: catalog.overlays.settings(remembered: saved?.overlays, asked: view.overlay),
                                 offerStreets: firstStart && asksNoPlace && place == nil && !Meridian.catalog.isOffline && view.tiles == nil && view.style == nil,
                                 catalog: catalog, keep: keep)
        // Every SDL object is gone by now; only then may SDL shut down.
        SDL.quit()
        keep(end)
    }

    /// What the window leaves to remember.
    private struct WindowEnd {
        var camera: Camera
        var open: [ViewState.OpenFile]
        /// The map shown, and the overlays offered, as the session's stack had them.
        var tiles: String
        var overlays: [ViewState.OverlayState]
        var hintShown: Bool
        var helpHintShown: Bool
        /// How street maps are drawn (the labels' names as the switcher left them).
        var style: StyleChoice

        var viewState: ViewState {
            ViewState(center: camera.centerCoordinate, zoom: camera.zoom, bearing: camera.bearing, files: open,
                      tiles: tiles == MapCatalog.basemap ? nil : tiles, hintShown: hintShown, helpHintShown: helpHintShown,
                      overlays: MapOverlays.remembered(overlays), labels: style.labels == .standard ? nil : style.labels.rawValue)
        }
    }

    /// Loads the pins file's problems into the window; returns the saver that keeps the pins
    /// after every change (nil when the file must not be written: it could not be read nor
    /// moved aside).
    private func pinSaver(for host: MapHost, file: PinFile, loaded: PinFile.Loaded) -> PinSaver? {
        if let notice = Self.summary(loaded.problems) { host.showNotice(notice) }
        guard !loaded.mustNotSave else { return nil }
        let handle = host.handle
        return PinSaver(file: file, onError: { handle.showNotice($0) })
    }

    /// What the window says of a file's problems: the first and how many more; all but the
    /// first go to stderr here (the window's notice goes there too). Nil when there are none.
    static func summary(_ problems: [String]) -> String? {
        guard let first = problems.first else { return nil }
        for p in problems.dropFirst() { warn(p) }
        guard problems.count > 1 else { return first }
        // English says "problems" also after 1, as it always has.
        // TRANSLATORS: %2$@ is the first problem (a sentence); %1$d how many more there are.
        return trn("%2$@ (and %1$d more problems, listed on stderr)", "%2$@ (and %1$d more problems, listed on stderr)", problems.count - 1, first)
    }

    /// Runs the window until the user quits; returns the last camera.
    /// The command line's files (file:// URIs as paths, as the desktop hands them over), and
    /// the place a geo: or OpenStreetMap link names (the last one); a link that names no
    /// place is said in `notices`.
    static func placesAndFiles(_ args: [String], notices: inout [String]) -> ([String], CoordinateParser.Place?) {
        var paths: [String] = [], place: CoordinateParser.Place?
        for arg in args {
            let lower = arg.lowercased()
            if lower.hasPrefix("geo:") || lower.hasPrefix("http://") || lower.hasPrefix("https://") {
                switch CoordinateParser.parse(arg) {
                case let .success(p)?: place = p
                case let .failure(problem)?: notices.append("\(arg): \(problem)")
                case nil: notices.append(tr("%@ names no place Meridian can show", arg))
                }
            } else if lower.hasPrefix("file://") {
                paths.append(PortalFileChooser.path(ofURI: arg) ?? arg)
            } else {
                paths.append(arg)
            }
        }
        return (paths, place)
    }

    private func showWindow(camera: Camera, files: [String], marker: SearchLayer.Marker?, route: [RoutePlaces.Place], notices: [String], reopen: [ViewState.OpenFile],
                            tiles name: String, hintShown: Bool, helpHintShown: Bool, tileOverlays: [ViewState.OverlayState],
                            offerStreets: Bool = false, catalog: MapCatalog, keep: @escaping (WindowEnd) -> Void) throws -> WindowEnd {
        // Files are read on a worker from the start; the window opens meanwhile and jumps to
        // them when they are in (unless --center or --zoom said where to look).
        let opener = TrackFileOpener()
        opener.open(files, animated: false, moveView: view.center == nil && view.zoom == nil)
        opener.open(reopen.map(\.path), animated: false, moveView: false, hidden: Set(reopen.filter(\.hidden).map(\.path)))
        let window: SDLWindow
        do {
            window = try SDLWindow(title: "Meridian", width: size.width, height: size.height, renderer: renderer)
        } catch {
            warn("\(error)")
            throw ExitCode(1)
        }
        if ProcessInfo.processInfo.environment["MERIDIAN_REPORT_DRIVER"] != nil {
            warn("video driver: \(SDL.videoDriver), renderer: \(window.rendererName)")
        }
        var notices = notices
        let overlayLayers = { (settings: [ViewState.OverlayState], notices: inout [String]) in
            catalog.overlays.layers(settings, pixelRatio: window.pixelRatio, problems: &notices)
        }
        let (tiles, shownName) = openTiles(name, pixelRatio: window.pixelRatio, overlays: overlayLayers(tileOverlays, &notices), notices: &notices, catalog: catalog)
        let file = PinFile(url: pins.map { URL(fileURLWithPath: $0) } ?? PinFile.defaultURL())
        let loaded = file.load()
        var session = makeSession(camera: camera, tiles: tiles, tilesName: shownName, overlays: overlays, pins: loaded.pins, catalog: catalog)
        // The first start's hints wait for a start without --route: its panel and the route's
        // ends fill the corners where they go (unseen, they stay for a later start).
        let hints = route.isEmpty
        // TRANSLATORS: L is the key that opens the map switcher.
        if !hintShown, hints { session.scene.modify(SourcesLayer.self, default: SourcesLayer()) { $0.hint = tr("Street maps are one key away: press L") } }
        if let marker { session.scene.modify(SearchLayer.self, default: SearchLayer()) { $0.marker = marker } }
        // TRANSLATORS: F1 and ? are the keys that show the keys and gestures.
        if !helpHintShown, hints { session.scene.modify(HelpLayer.self, default: HelpLayer()) { $0.hint = tr("Keys and gestures: F1 or ?") } }
        // A live position, unless a fixed one was asked for (or none at all); the locate button
        // only with one.
        let positions = overlays.location == nil && !overlays.noLocation ? locationSource.makeSource() : nil
        if positions != nil { session.scene.layers.append(LocateLayer()) }
        session.position.color = overlays.pulseColor
        session.position.halo = overlays.halo
        session.position.noFixYet = tr("No position yet: Meridian follows it once a fix arrives (gpsd, GeoClue, or --location-source)")
        let view = try appView(window: window, session: session, stack: tiles.stack)
        let host = view.host
        let live = positions.map { LivePosition($0, host: host) }
        live?.start()
        if live == nil, let notice = TrailRecorder().recoverAndSave() { view.showNotice(notice) }
        for n in notices { view.showNotice(n) }
        let saver = pinSaver(for: host, file: file, loaded: loaded)
        opener.attach(host)
        var end = WindowEnd(camera: camera, open: [], tiles: shownName, overlays: tileOverlays, hintShown: hintShown, helpHintShown: helpHintShown,
                            style: styleChoice)
        /// The overlays as the session's stack has them (those whose tiles could not be had,
        /// as they started).
        func overlaySettings() -> [ViewState.OverlayState] { MapOverlays.settings(of: view.session.tileStack, otherwise: tileOverlays) }
        /// What the window leaves to remember, as it is now.
        func ending() -> WindowEnd {
            var e = end
            e.camera = view.camera
            e.open = view.session.scene.tracks.files.filter { !$0.isLive }.map { ViewState.OpenFile(path: $0.path, hidden: $0.hidden) }
            e.tiles = view.session.tileStack.chosenMap
            e.overlays = overlaySettings()
            return e
        }
        // The switcher's row for the labels' names, where the reader's language is known.
        if !Localization.languages.isEmpty {
            view.change { $0.scene.modify(SourcesLayer.self, default: SourcesLayer()) { $0.labels = end.style.labels } }
        }
        let (geocoder, geocoderProblem) = OnlineSearch.geocoder()
        if let geocoderProblem { view.showNotice(geocoderProblem) }
        let search = WindowSearch(host: host, geocoder: geocoder)
        let areas = AreaSaver(host: host, catalog: catalog)
        areas.refresh()
        areas.listChanged = { search.indexes.want(SearchIndexes.savedAreas()) }
        search.start(shown: shownName)
        view.update(SearchLayer.self) { $0.onlineCredit = geocoder?.config.credit; return [] }
        let exporter = MapExporter(host: host)
        // The route asked for is shown whole at once (unless --center or --zoom said where to
        // look), right of the directions panel, which is open for it.
        if !route.isEmpty {
            let places = route.map(\.coordinate)
            let camera = view.camera
            var rect: MapRect?
            view.update(DirectionsLayer.self) { $0.open(); rect = $0.fitted(places, camera); return [.changed] }
            if let rect, self.view.center == nil, self.view.zoom == nil { host.show(rect, animated: false) }
        }
        let routing = WindowRouting(host: host, osm: osm, offline: Meridian.catalog.isOffline, catalog: catalog, ask: route)
        areas.routing = AreaDirections(host: host)
        areas.routing?.built = { db in routing.add(db) }
        areas.deleted = { path in routing.removeArea(path) }
        /// Shows the map `name` (the switcher's choice, or the map of a deleted area), with the
        /// overlays as they are: the session's stack from then on (it tells `onEffect` so).
        @discardableResult
        func choose(_ name: String) -> Bool {
            do {
                var problems: [String] = []
                let made = try catalog.tiles(name, pixelRatio: window.pixelRatio, style: end.style, overlays: overlayLayers(overlaySettings(), &problems))
                for p in problems + made.notices { view.showNotice(p) }
                view.setTiles(made.stack)
                view.change { $0.scene.modify(SourcesLayer.self, default: SourcesLayer()) { $0.hint = nil } }
                areas.shown(source: made.source)
                search.met(name)
                return true
            } catch {
                view.showNotice(tr("Cannot show %@: %@", name, error))
                return false
            }
        }
        // A bare {z}/{x}/{y} address told its schema by its first tile: drawn again in that
        // schema's style.
        let learnedHost = host.handle, chooser = FrameBound(choose)
        OnlineVectorTileSource.schemaLearned.set { name in
            learnedHost.perform { host in
                let shown = host.session.tileStack.chosenMap
                if (try? catalog.online(shown))??.name == name { _ = chooser.on(host)(shown) }
            }
        }
        if offerStreets {
            FirstStart.offerStreets(host: host) { host in
                // Unless a map was chosen meanwhile.
                guard host.session.tileStack.chosenMap == MapCatalog.basemap else { return }
                guard chooser.on(host)(OnlineSource.openFreeMap.name) else { return }
                // TRANSLATORS: said once, on the first start; L is the key of the map switcher.
                host.showNotice(tr("Showing OpenFreeMap's street map (online). Press L to choose another map, or the basemap to stay offline."))
            }
        }
        // A saved area shown as the map was replaced (updated, renamed): shown from its new file.
        areas.reshow = { path in if areas.current == path { choose(path) } }
        areas.heightsSaved = { choose(areas.current) }
        view.onEffect = { [unowned view] effect in
            switch effect {
            case let .pin(event):
                if event.changesPins { saver?.save(view.session.pins) }
                search.pinEvent(event)
            case .tileLayersChanged: keep(ending())
            case .hintShown("sources"): end.hintShown = true
            case .hintShown("help"): end.helpHintShown = true
            case .searchOpened: search.opened()
            case let .searchOnline(query, near): search.searchOnline(query, near: near)
            case let .keepMeasuredLine(points): keepMeasuredLine(points, host: view.host, opener: opener)
            case let .chooseTiles(name): choose(name)
            case let .layer(request):
                if case let .labels(names)? = request.as(SourcesLayer.Request.self) {
                    // The street map drawn again with its labels' names so (styles are read
                    // once for each).
                    end.style.labels = names
                    view.change { $0.scene.modify(SourcesLayer.self, default: SourcesLayer()) { $0.labels = names } }
                    choose(view.session.tileStack.chosenMap)
                }
                areaRequest(request, saver: areas, choose: { choose($0) })
                if let r = request.as(DirectionsLayer.Request.self) { routing.handle(r, opener: opener) }
                switch request.as(KeyBinding.Command.self) {
                case AppKeys.quit?: view.quit()
                case AppKeys.fullscreen?: view.toggleFullscreen()
                case AppKeys.openFiles?: chooseFiles(host: view.host, opener: opener)
                case AppKeys.exportMap?: exporter.export()
                case AppKeys.printMap?: exporter.print()
                case AppKeys.whatIsHere?: search.whatIsHereOnline(view.session.pointedAt)
                case AppKeys.saveTrail?:
                    if let live { live.save() } else { view.showNotice(tr("There is no trail to save: no live position is shown")) }
                default: break
                }
            case let .openLink(url):
                let notices = view.handle
                Browser.open(url) { notices.showNotice($0) }
            case let .open(path) where path.lowercased().hasSuffix(".osm.pbf"): routing.addExtract(path)
            case let .open(path) where SearchIndexes.isIndexable(path): choose(FileIO.absolute(path))   // a street map's archive
            case let .open(path): opener.open([path], animated: true)
            default: break
            }
        }
        let quitAtFirstPresent = exitAfterFirstPresent
        view.onFirstPresent = { [unowned view] in
            opener.letReadingStart()
            if quitAtFirstPresent { view.quit() }
        }
        if exitWhenDrawn {
            view.onFullyDrawn = { [unowned view] in
                // The bench's measure of what the drawn map holds (not the peak on the way).
                if ProcessInfo.processInfo.environment["MERIDIAN_REPORT_RSS"] != nil { warn("resident \(FileIO.residentBytes()) bytes") }
                view.quit()
            }
        }
        view.run()
        // An index being built stops between tiles (it resumes the next time).
        search.indexes.stop()
        geocoder?.stop()
        routing.stop()
        // No fix may reach the host after this (it holds the host unowned).
        live?.finish()
        saver?.flush()
        // The closures set above hold the host: it is closed here, before SDL goes, not when
        // (if ever) it is freed.
        view.close()
        return ending()
    }

    /// What the area panel and the switcher ask: save, cancel, open the panel, delete.
    private func areaRequest(_ request: LayerRequest, saver: AreaSaver, choose: (String) -> Void) {
        switch request.as(SaveAreaLayer.Request.self) {
        case let .save(area)?: saver.save(area)
        case .cancel?: saver.cancel()
        case let .answer(yes)?: saver.routing?.answer(yes)
        case nil: break
        }
        switch request.as(SourcesLayer.Request.self) {
        case .saveArea?: saver.open()
        case .savedAreas?: saver.openList()
        case let .deleteArea(path)?: saver.delete(path, choose: choose)
        case .labels?, nil: break
        }
        switch request.as(AreasLayer.Request.self) {
        case let .update(path)?: saver.update(path)
        case let .rename(path, to)?: saver.rename(path, to: to)
        case let .delete(path)?: saver.delete(path, choose: choose)
        case let .resume(path)?: saver.resume(path)
        case let .discard(path)?: saver.discard(path)
        case nil: break
        }
    }

    /// Ctrl+S while measuring: the measured line kept as a GPX track, and opened.
    private func keepMeasuredLine(_ points: [Coordinate], host: MapHost, opener: TrackFileOpener) {
        let url = TrailRecorder.unusedURL("measured-line", in: TrailRecorder.defaultFolder())
        do {
            try AtomicFile.write(GPXWriter.data([MeasureLayer.track(of: points)]), to: url)
            opener.open([url.path], animated: false, moveView: false)
            host.showNotice(tr("The measured line is kept as %@", url.path))
        } catch {
            host.showNotice(tr("Cannot keep the measured line: %@", error))
        }
    }

    /// Ctrl+O: the desktop's file chooser (one at a time), else how else to open files.
    private func chooseFiles(host: MapHost, opener: TrackFileOpener) {
        guard !opener.choosing else { return }
        opener.choosing = true
        let handle = host.handle, bound = FrameBound(opener)
        PortalFileChooser.choose(title: tr("Open tracks")) { outcome in
            handle.perform { host in
                let opener = bound.on(host)
                opener.choosing = false
                switch outcome {
                case let .chosen(paths):
                    // With MERIDIAN_FRAME_LOG, tests hear that the chooser answered (cancelled: nothing else is said).
                    if host.configuration.logFrames { FileIO.printError("chooser: \(paths.count) chosen") }
                    opener.open(paths, animated: true)
                case let .unavailable(reason):
                    warn(tr("no file chooser: %@", reason))
                    host.showNotice(tr("To open tracks, drop GPX, KML, GeoJSON, CSV, FIT or TCX files on the map, or start Meridian with them: meridian FILE…"))
                }
            }
        }
    }

    /// The map `name` names, or what stands in when it cannot be had (said in `notices`):
    /// the basemap, or a placeholder grid when even that is missing (a broken install still
    /// opens a window that says what is wrong). Returns the name of the map shown.
    private func openTiles(_ name: String, pixelRatio: Double, overlays: [TileLayerSource], notices: inout [String],
                           catalog: MapCatalog) -> (MapCatalog.Tiles, String) {
        do {
            let tiles = try catalog.tiles(name, pixelRatio: pixelRatio, style: styleChoice, overlays: overlays)
            // What the style leaves out is said in the window too (started from the desktop,
            // there is no terminal to read it on).
            notices += tiles.notices
            if let skipped = tiles.painter.mapStyle?.notices, !skipped.isEmpty {
                let ids = skipped.prefix(3).map { $0.split(separator: ":").first.map(String.init) ?? $0 }.joined(separator: ", ")
                // TRANSLATORS: %2$@ lists the ids of the style's layers left out (the first three, then "…").
                notices.append(trn("The map's style leaves out %1$d layer it cannot draw (%2$@)", "The map's style leaves out %1$d layers it cannot draw (%2$@)",
                                   skipped.count, ids + (skipped.count > 3 ? "…" : "")))
            }
            return (tiles, name)
        } catch {
            notices.append(name == MapCatalog.basemap ? tr("%@; showing a placeholder grid", error) : tr("Cannot show %@: %@; showing the basemap", name, error))
        }
        if name != MapCatalog.basemap, let base = try? catalog.tiles(MapCatalog.basemap, overlays: overlays) { return (base, MapCatalog.basemap) }
        let grid = DebugGridSource()
        return (MapCatalog.Tiles(source: grid, fallback: nil, background: MapCatalog.background(for: grid)), "debug")
    }
}
