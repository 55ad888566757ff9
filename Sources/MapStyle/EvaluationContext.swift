import MapTiles
import Platform

/// What an expression may read: the zoom, and the feature being drawn (nil for the
/// background and for layer-level evaluation, where feature data reads as missing).
public struct EvaluationContext {
    public var zoom: Double
    public var feature: VectorTile.Feature?
    public init(zoom: Double, feature: VectorTile.Feature? = nil) {
        self.zoom = zoom
        self.feature = feature
    }

    /// A feature property as an expression value; nil when absent.
    func property(_ key: String) -> StyleValue? {
        guard let v = feature?.properties[key] else { return nil }
        return StyleValue(v)
    }
}
