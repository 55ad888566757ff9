import FoundationEssentials
import MapCore

/// What the map asks of its host (`HostAction`), done on the frame thread.
extension MapHost {
    /// Does `action`; true when the picture may have changed.
    func perform(_ action: HostAction) -> Bool {
        switch action {
        case .quit: requestQuit()
        case .toggleFullscreen: window.toggleFullscreen()
        case .redraw: return true
        case .openFiles: onOpenRequest(nil)
        case .saveTrail: onSaveTrail()
        case .openSearch:
            state.modify(SearchLayer.self, default: SearchLayer()) { $0.open() }
            return true
        case .toggleHelp: toggleHelp(); return true
        case .toggleMeasure: toggleMeasure(); return true
        case .copyPosition: copyPosition(); return true
        case let .focusButton(forward): moveFocus(forward: forward); return true
        case let .open(path): onOpenRequest(path)
        case .cycleTrackColors: cycleTrackColors(); return true
        case let .clicked(p):
            // A button a layer drew takes the click; else a track may be selected.
            if let name = lastFrame.button(at: p), let result = state.press(name) {
                apply(result)
                return true
            }
            if isMeasuring { measure(at: p); return true }
            return state.tracks.select(at: p, camera: controller.camera)
        case .toggleTrackList:
            if state.tracks.files.isEmpty { showNotice("No tracks are open: drop GPX, KML, GeoJSON or CSV files on the map") }
            else { state.tracks.showsList.toggle() }
            return true
        case .toggleFollow:
            toggleFollow()
            return true
        case .toggleSourceList:
            guard state.layer(SourcesLayer.self) != nil else { return false }
            state.modify(SourcesLayer.self, default: SourcesLayer()) { $0.showsList.toggle(); $0.hint = nil }
            return true
        case let .digit(n):
            // As a click on the list's row would.
            guard let choice = state.layer(SourcesLayer.self)?.choice(number: n),
                  let result = state.press("sources.choose.\(choice.name)") else { return false }
            apply(result)
            return true
        case .cancel:
            if activities.cancelAll() { return true }
            if state.layer(SourcesLayer.self)?.showsList == true {
                state.modify(SourcesLayer.self, default: SourcesLayer()) { $0.showsList = false }
                return true
            }
            if state.tracks.selection != nil { state.tracks.selection = nil; return true }
        case let .hovered(p):
            pointer = p
            return state.tracks.hover(at: p, camera: controller.camera)
        case .toggleProfile:
            if !state.tracks.toggleProfile() { showNotice("Open a track with elevations to see its profile") }
            return true
        }
        return false
    }

    /// Does what a layer asks of the host: a button pressed, or the search box when its
    /// places arrive.
    public func apply(_ result: PressResult) {
        switch result {
        case let .show(rect): show(rect, animated: true)
        case let .chooseTiles(name): onChooseTiles(name)
        case let .openLink(url): onOpenLink(url)
        case .toggleFollow: toggleFollow()
        case let .goTo(c, zoom): controller.fly(to: c, zoom: zoom, at: clock.now)
        case let .keepAsPin(c, title):
            controller.addPin(at: c, title: title, at: clock.now)
        case let .zoomBy(levels): controller.zoom(by: levels, at: clock.now)
        case .changed: break
        }
    }

    /// What the search box does with a key or text while it is open; nil for what it leaves
    /// to the map (the pointer, Ctrl+Q).
    func searchInput(_ input: InputEvent) -> Bool? {
        guard state.layer(SearchLayer.self)?.isOpen == true else { return nil }
        var result: PressResult?
        switch input {
        case let .text(s): state.modify(SearchLayer.self, default: SearchLayer()) { $0.type(s) }
        case let .keyDown(key, mods):
            switch key {
            case .letter("q") where mods.contains(.control): return nil
            case .backspace: state.modify(SearchLayer.self, default: SearchLayer()) { $0.backspace() }
            case .up: state.modify(SearchLayer.self, default: SearchLayer()) { $0.moveSelection(-1) }
            case .down: state.modify(SearchLayer.self, default: SearchLayer()) { $0.moveSelection(1) }
            case .escape: state.modify(SearchLayer.self, default: SearchLayer()) { $0.close() }
            case .enter: state.modify(SearchLayer.self, default: SearchLayer()) { result = $0.choose() }
            default: break // typed characters arrive as text
            }
        default: return nil
        }
        if let result { apply(result) }
        return true
    }

    /// Key F and the locate button: follow the location, or stop.
    private func toggleFollow() {
        if controller.following {
            controller.following = false
        } else if let loc = state.location {
            controller.startFollowing(loc.point(at: clock.now), at: clock.now)
        } else {
            showNotice("No position yet: Meridian follows it once a fix arrives (gpsd, GeoClue, or --location-source)")
        }
    }

    /// Key C: the next colour mode the open tracks have values for, or why there is none.
    private func cycleTrackColors() {
        guard state.tracks.files.contains(where: { !$0.hidden && !$0.lines.isEmpty }) else {
            showNotice("Open a track to colour it by speed or elevation")
            return
        }
        let lines = state.tracks.shownLines
        if state.tracks.cycleColorMode() == .plain, TrackColorMode.allCases.allSatisfy({ TrackColorRamp.fitting($0, lines: lines) == nil }) {
            showNotice("These tracks have no times or elevations to colour them by")
        }
    }
}
