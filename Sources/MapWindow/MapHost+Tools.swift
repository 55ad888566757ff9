import CSDL2
import FoundationEssentials
import MapCore
import MapGeometry
import Platform

/// The help panel, measuring and copying a position: what the keys F1/?, M and Ctrl+C do,
/// and the keys the open panel or the measuring take before the map.
extension MapHost {
    func toggleHelp() {
        state.modify(HelpLayer.self, default: HelpLayer()) { $0.isShown.toggle(); $0.hint = nil }
    }

    func toggleMeasure() {
        let imperial = controller.imperialUnits
        state.modify(MeasureLayer.self, default: MeasureLayer()) { m in
            if m.isActive { m.end() } else { m.start(); m.imperialUnits = imperial }
        }
        measureChanged()
    }

    /// A click while measuring: a point there.
    func measure(at p: ScreenPoint) {
        let c = controller.camera.coordinate(for: p)
        state.modify(MeasureLayer.self, default: MeasureLayer()) { $0.add(c) }
        measureChanged()
    }

    var isMeasuring: Bool { state.layer(MeasureLayer.self)?.isActive == true }

    /// The measured line drawn by the tracks layer (into the tiles, as tracks are).
    private func measureChanged() {
        let m = state.layer(MeasureLayer.self) ?? MeasureLayer()
        var file: TrackFile?
        if m.isActive, m.points.count >= 2 {
            let track = m.track
            var f = TrackFile(path: "Measured line", lines: [TrackLine(track: track, geometry: TrackGeometry(track, threads: 1),
                                                                       style: TrackStyle(color: MeasureLayer.ink, width: 3))],
                              color: MeasureLayer.ink)
            f.isLive = true
            file = f
        }
        measureFileID = state.tracks.replace(id: measureFileID, with: file)
    }

    /// Keys the help panel and the measuring take first; nil for what they leave to the map.
    func toolInput(_ input: InputEvent) -> Bool? {
        guard case let .keyDown(key, mods) = input else { return nil }
        if state.layer(HelpLayer.self)?.isShown == true, key == .escape {
            toggleHelp()
            return true
        }
        guard isMeasuring else { return nil }
        switch KeyBindings.command(for: key, mods) {
        case .cancel?: toggleMeasure()
        case .deletePin?:
            state.modify(MeasureLayer.self, default: MeasureLayer()) { $0.removeLast() }
            measureChanged()
        case .saveTrail?: onSaveMeasure(state.layer(MeasureLayer.self)?.track)
        default: return nil
        }
        return true
    }

    /// Ctrl+C: the selected pin's coordinates, else those under the pointer, to the clipboard.
    func copyPosition() {
        let c: Coordinate
        if let id = controller.pins.selected, let pin = controller.pins.pin(id) { c = pin.coordinate }
        else if let p = pointer { c = controller.camera.coordinate(for: p) }
        else { c = controller.camera.centerCoordinate }
        let text = String(cFormat: "%.6f, %.6f", c.latitude, c.longitude)
        if SDL_SetClipboardText(text) == 0 { showNotice("Copied \(text)") } else { showNotice("Cannot copy: \(String(cString: SDL_GetError()))") }
    }
}
