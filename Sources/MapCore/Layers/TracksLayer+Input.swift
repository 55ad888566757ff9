import FoundationEssentials
import MapGeometry
import Platform

/// What the tracks layer does with input: keys T, E and C, Esc, a click on a track (its
/// statistics), the pointer over a track or its profile.
extension TracksLayer {
    public mutating func perform(_ command: KeyBinding.Command, key: Key, context: InputContext) -> [LayerAction]? {
        switch command {
        case .trackList:
            if files.isEmpty { return [.notice(tr("No tracks are open: drop GPX, KML, GeoJSON, CSV, FIT or TCX files on the map"))] }
            showsList.toggle()
        case .profile:
            if !toggleProfile() { return [.notice(tr("Open a track with elevations to see its profile"))] }
        case .trackColors:
            return cycleColors()
        case .cancel:
            guard selection != nil else { return nil }
            selection = nil
        default:
            return nil
        }
        return [.changed]
    }

    /// Key C: the next colour mode the open tracks have values for, or why there is none.
    private mutating func cycleColors() -> [LayerAction] {
        guard files.contains(where: { !$0.hidden && !$0.lines.isEmpty }) else { return [.notice(tr("Open a track to colour it by speed or elevation"))] }
        let lines = shownLines
        if cycleColorMode() == .plain, TrackColorMode.allCases.allSatisfy({ TrackColorRamp.fitting($0, lines: lines) == nil }) {
            return [.notice(tr("These tracks have no times or elevations to colour them by"))]
        }
        return [.changed]
    }

    /// A click on a track selects it (its callout); a click elsewhere is not the tracks'.
    public mutating func click(at p: ScreenPoint, context: InputContext) -> [LayerAction]? {
        guard let hit = hit(at: p, camera: context.camera) else { return nil }
        selection = hit
        return [.changed]
    }

    /// A click went elsewhere: the callout goes.
    public mutating func clearSelection() -> Bool {
        guard selection != nil else { return false }
        selection = nil
        return true
    }

    public mutating func hover(at p: ScreenPoint?, context: InputContext) -> Bool {
        hover(at: p, camera: context.camera)
    }
}
