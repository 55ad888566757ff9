import FoundationEssentials
import Glibc
import MapGeometry
import Platform

/// Where labels were placed at the camera before this one: the placer tries them there first,
/// so a label that still fits keeps its place (and its side of the dot, its spot along the
/// street) while the map moves and zooms under it. MapLibre's placement holds labels the same
/// way; without it a zoom in — where room only grows — reshuffled up to a third of the names.
public struct LabelMemory: Sendable {
    /// One placed label: the point it names (for a label along a line, the point on the line
    /// under its middle) and the side of its dot it took.
    struct Entry: Sendable {
        var at: MapPoint
        var side: PlacedLabel.Side
    }

    private var byLabel: [SameLabel: [Entry]] = [:]

    public init() {}

    /// The labels of a placement (ready or still waiting for their sprites: both held room).
    public init(_ placed: [PlacedLabel], camera: Camera) {
        for p in placed {
            byLabel[SameLabel(p), default: []].append(Entry(at: camera.mapPoint(for: p.anchor), side: p.side))
        }
    }

    public var isEmpty: Bool { byLabel.isEmpty }

    /// The remembered labels of `label`, on screen at `camera`.
    func entries(_ label: SameLabel, camera: Camera) -> [(point: ScreenPoint, side: PlacedLabel.Side)] {
        (byLabel[label] ?? []).map { (camera.screenPoint(for: $0.at), $0.side) }
    }

    /// The remembered label that is `label` at `p` on screen (`SameLabel`'s rule), if any.
    func entry(_ label: SameLabel, near p: ScreenPoint, camera: Camera) -> PlacedLabel.Side? {
        guard let list = byLabel[label] else { return nil }
        for e in list where SameLabel.near(camera.screenPoint(for: e.at), p) { return e.side }
        return nil
    }
}
