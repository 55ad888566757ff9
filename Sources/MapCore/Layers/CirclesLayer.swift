import FoundationEssentials
import MapGeometry
import Platform

/// A circle rasterized at `radius` points (a power of two), scaled and faded when placed.
public struct CircleSprite: SpriteSpec {
    public var style: CircleStyle
    public var radius: Int
}

extension SpriteKey {
    public static func pulseCircle(_ style: CircleStyle, radius: Int) -> SpriteKey { SpriteKey(CircleSprite(style: style, radius: radius)) }
}

/// Circles sized in meters or points, pulsing or still: one raster each, placed every frame
/// with the scale and opacity their pulse has at the frame's time.
public struct CirclesLayer: MapLayer {
    public var circles: [CircleOverlay]

    public init(circles: [CircleOverlay] = []) { self.circles = circles }

    public func compose(at level: LayerLevel, into list: inout DrawList, context: LayerContext) {
        let camera = context.camera
        for circle in circles {
            let c = camera.screenPoint(for: circle.center)
            let r = circle.radiusPoints(camera: camera)
            let (scale, opacity) = circle.pulse?.state(at: context.time, start: circle.start) ?? (1, 1)
            // One raster for the whole pulse, chosen by its largest size: no switching mid-pulse.
            let key = SpriteKey.pulseCircle(circle.style, radius: SpriteKey.circleBucket(forRadius: r * (circle.pulse?.scale.upperBound ?? 1)))
            if context.placeRound(key, center: c, radius: r * scale, opacity: opacity, into: &list), circle.pulse != nil { list.animating = true }
        }
    }
}
