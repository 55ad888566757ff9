import FoundationEssentials
import MapGeometry
import Platform

/// The stack of tile layers through the session: the map chosen and the overlays over it,
/// held once (`Scene.tileStack`), read by the switcher from the facts, followed by the host's
/// pipeline frame by frame (what a frame lays out it loads; what it hides it lets go).
extension MapSession {
    /// The stack of tile layers as it is now.
    public var tileStack: TileStackModel { scene.tileStack }

    /// Shows or hides the overlay `name` and sets its opacity (nil: as it is; brought within
    /// `TileLayerSpec.opacityRange`): the one way a person's change of an overlay reaches the
    /// map. The next frame lays it out so, and the next `takeEffects` says so once
    /// (`SessionEffect.tileLayersChanged`) for the host to keep. False when no overlay of
    /// the stack has that name.
    @discardableResult
    public mutating func setOverlay(_ name: String, visible: Bool? = nil, opacity: Double? = nil) -> Bool {
        scene.tileStack.setOverlay(name, visible: visible, opacity: opacity)
    }
}
