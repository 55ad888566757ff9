import FoundationEssentials
import MapGeometry
import Platform

/// The standard layers' models, read and written through the scene. Conveniences only: a
/// layer of any kind is reached the same way, with `layer(_:)` and `modify(_:default:_:)`.
extension Scene {
    public var circles: [CircleOverlay] {
        get { layer(CirclesLayer.self)?.circles ?? [] }
        set { modify(CirclesLayer.self, default: CirclesLayer()) { $0.circles = newValue } }
    }

    public var location: LocationAnnotation? {
        get { layer(LocationLayer.self)?.annotation }
        set { modify(LocationLayer.self, default: LocationLayer()) { $0.annotation = newValue } }
    }

    public var pins: PinEditor {
        get { layer(PinsLayer.self)?.pins ?? PinEditor() }
        set { modify(PinsLayer.self, default: PinsLayer()) { $0.pins = newValue } }
    }

    /// Credit for the data shown, bottom right; empty for none.
    public var attribution: String {
        get { layer(ChromeLayer.self)?.attribution ?? "" }
        set { modify(ChromeLayer.self, default: ChromeLayer()) { $0.attribution = newValue } }
    }

    /// Where a click on the attribution leads; nil: it is not a link.
    public var attributionURL: String? {
        get { layer(ChromeLayer.self)?.attributionURL }
        set { modify(ChromeLayer.self, default: ChromeLayer()) { $0.attributionURL = newValue } }
    }

    public var showsScaleBar: Bool {
        get { layer(ChromeLayer.self)?.showsScaleBar ?? false }
        set { modify(ChromeLayer.self, default: ChromeLayer()) { $0.showsScaleBar = newValue } }
    }

    /// Place labels on or off (the labels layer taken out or put back).
    public var showsLabels: Bool {
        get { layer(LabelsLayer.self) != nil }
        set {
            // Above the tracks, below everything else.
            guard newValue else { layers.removeAll { $0 is LabelsLayer }; return }
            guard !showsLabels else { return }
            layers.insert(LabelsLayer(), at: layers.firstIndex { !($0 is TracksLayer) } ?? 0)
        }
    }

    /// Tracks, routes, shapes and waypoints from opened files.
    public var tracks: TracksLayer {
        get { layer(TracksLayer.self) ?? TracksLayer() }
        set { modify(TracksLayer.self, default: TracksLayer()) { $0 = newValue } }
    }
}
