import FoundationEssentials
import MapGeometry
import Platform

/// The map's stack of tile layers as the session holds it (`Scene.tileStack`): each layer's
/// name, role, zooms and credit, and the one copy of what a person sets of them — which map
/// is chosen, which overlays lie over it, how opaque. The host makes each layer's tiles
/// (`TileStack`, layer for layer in the same order) and follows this; the switcher draws it
/// (`SessionFacts.tileStack`); a person's change goes through the session
/// (`MapSession.setOverlay`), which tells the host once (`SessionEffect.tileLayersChanged`).
public struct TileStackModel: Sendable, Hashable {
    /// Bottom to top: fallbacks, the chosen map, overlays, the drawings.
    public internal(set) var layers: [TileLayerSpec]

    public init(layers: [TileLayerSpec] = []) {
        self.layers = layers
    }

    /// The chosen map's index (the topmost with that role).
    public var mapIndex: Int { layers.lastIndex { $0.role == .map } ?? 0 }

    /// The chosen map's name, as the switcher and view.json know it ("" with no layers).
    public var chosenMap: String { layers.indices.contains(mapIndex) ? layers[mapIndex].name : "" }

    /// The overlays, in the order they lie (the last on top).
    public var overlays: [TileLayerSpec] { layers.filter { $0.role == .overlay } }

    /// The overlay named `name`.
    public func overlay(_ name: String) -> TileLayerSpec? { overlayIndex(name).map { layers[$0] } }

    private func overlayIndex(_ name: String) -> Int? { layers.firstIndex { $0.role == .overlay && $0.name == name } }

    /// Shows or hides the overlay `name` and sets its opacity (nil: as it is); false when
    /// there is no such overlay.
    mutating func setOverlay(_ name: String, visible: Bool?, opacity: Double?) -> Bool {
        guard let i = overlayIndex(name) else { return false }
        if let visible { layers[i].isVisible = visible }
        if let opacity { layers[i].opacity = opacity }
        return true
    }
}
