import FoundationEssentials
import MapGeometry
import Platform

/// The parts of the "you are here" annotation, each rasterized once.
public enum LocationSprite: SpriteSpec {
    /// The translucent accuracy disc under the dot.
    case accuracyDisc(Color, radius: Int)
    /// The halo rasterized at `HaloPulse.rasterFractions[raster]` of its full size.
    case halo(Color, raster: Int)
    /// The 23-point dot with its white ring and soft shadow.
    case dot(Color)
    /// A cone of light pointing north, rotated to the heading when placed.
    case headingCone(Color)
}

extension SpriteKey {
    public static func accuracyDisc(_ c: Color, radius: Int) -> SpriteKey { SpriteKey(LocationSprite.accuracyDisc(c, radius: radius)) }
    public static func halo(_ c: Color, raster: Int) -> SpriteKey { SpriteKey(LocationSprite.halo(c, raster: raster)) }
    public static func locationDot(_ c: Color) -> SpriteKey { SpriteKey(LocationSprite.dot(c)) }
    public static func headingCone(_ c: Color) -> SpriteKey { SpriteKey(LocationSprite.headingCone(c)) }
}

/// The location annotation: accuracy disc, pulsing halo, heading cone and dot, bottom to top.
public struct LocationLayer: MapLayer {
    public var annotation: LocationAnnotation?

    public init(annotation: LocationAnnotation? = nil) { self.annotation = annotation }

    /// Labels keep clear of the dot.
    public func labelExclusions(_ context: LayerContext) -> [ScreenRect] {
        guard let loc = annotation else { return [] }
        let p = context.camera.screenPoint(for: loc.point(at: context.time)), r = LocationAnnotation.dotDiameter / 2 + 2
        return [ScreenRect(x: p.x - r, y: p.y - r, width: 2 * r, height: 2 * r)]
    }

    public func compose(at level: LayerLevel, into list: inout DrawList, context: LayerContext) {
        guard let loc = annotation else { return }
        let t = context.time, camera = context.camera, color = loc.shownColor
        let p = camera.screenPoint(for: loc.point(at: t))
        let accuracy = Camera.points(forMeters: loc.accuracy(at: t), atLatitude: loc.coordinate(at: t).latitude, zoom: camera.zoom)
        // The accuracy disc is worth drawing only where it reaches beyond the dot.
        if accuracy > LocationAnnotation.dotDiameter / 2 {
            context.placeRound(.accuracyDisc(color, radius: SpriteKey.circleBucket(forRadius: accuracy)), center: p, radius: accuracy, opacity: 1, into: &list)
        }
        // A stale position does not pulse: it is where the device was, not where it is.
        if !loc.isStale {
            let halo = loc.halo.state(at: t)
            context.placeRound(.halo(color, raster: halo.raster), center: p, radius: HaloPulse.diameter / 2 * halo.scale, opacity: halo.opacity, into: &list)
            // The pulse is visible while the halo's full extent is on screen, pause included.
            let extent = ScreenRect(x: p.x - HaloPulse.diameter / 2, y: p.y - HaloPulse.diameter / 2, width: HaloPulse.diameter, height: HaloPulse.diameter)
            if extent.intersects(context.viewRect) { list.animating = true }
        }
        if let heading = loc.heading, !loc.isStale {
            // The course is from north; on a turned map north is turned too.
            context.placeRound(.headingCone(color), center: p, radius: LocationAnnotation.dotDiameter * 1.6, opacity: 1,
                               degrees: heading + camera.northOnScreen, into: &list)
        }
        context.placeRound(.locationDot(color), center: p, radius: LocationAnnotation.dotDiameter / 2 + 4, opacity: 1, into: &list)
        if loc.isGliding(at: t) { list.animating = true }
    }
}
