import FoundationEssentials
import Platform

/// A style's text-size over the zoom, sampled at whole zooms, so that a label is drawn at the
/// size the style gives the camera's zoom, not its tile's: while the view zooms, the tiles
/// switch zoom in steps, and without it their labels' sizes jumped with them. The label's
/// sprite is rasterized at its look's size (`zoom`) and drawn magnified by `scale(at:)`.
///
/// Between whole zooms the size goes in a straight line, as MapLibre interpolates a zoom
/// function's size between the zooms around the camera's; every tile's labels of a layer
/// share the samples, so at any zoom two tiles' labels agree.
public struct TextSizeCurve: Hashable, Sendable {
    /// Points at Meridian zooms 0, 1, 2, … (the last held beyond).
    public let sizes: [Double]
    /// The Meridian zoom the label's look (and its sprite) was evaluated at.
    public let zoom: Double

    /// How many whole zooms are sampled: up to one past Meridian's deepest (`Camera.maxZoom`, 20).
    public static let count = 22

    /// `size(z)`: the style's text-size at Meridian zoom z. Sizes are bounded as `LabelLook`
    /// bounds them.
    public init(zoom: Double, size: (Double) -> Double) {
        self.zoom = zoom.isFinite ? zoom : 0
        sizes = (0..<Self.count).map { i in
            let s = size(Double(i))
            return s.isFinite ? min(max(s, 1), 64) : 12
        }
    }

    /// The size at zoom `z`, in a straight line between the whole zooms around it.
    public func size(at z: Double) -> Double {
        guard let last = sizes.last, z.isFinite else { return sizes.first ?? 12 }
        guard z > 0 else { return sizes[0] }
        guard z < Double(sizes.count - 1) else { return last }
        let i = Int(saturating: z.rounded(.down)), f = z - Double(i)
        return sizes[i] + (sizes[i + 1] - sizes[i]) * f
    }

    /// How much larger than its sprite the label is drawn at zoom `z`: exactly 1 at the zoom
    /// its look was made for, so a map at rest (its tiles painted for its zoom) draws text at
    /// its own pixels.
    public func scale(at z: Double) -> Double {
        guard z != zoom else { return 1 }
        let a = size(at: zoom), b = size(at: z)
        guard a > 0, b > 0 else { return 1 }
        return min(max(b / a, 0.25), 4)
    }
}

extension PlaceLabel {
    /// How much larger than its sprites this label is drawn at `camera`'s zoom.
    public func scale(at camera: Camera) -> Double { sizes?.scale(at: camera.zoom) ?? 1 }
}
