import Foundation
import MapGeometry

/// Circles and the location annotation: sprites rasterized once, placed each frame with the
/// scale and opacity their animations have at time t. Order, bottom to top: pulsing circles,
/// pins, then the location's accuracy disc, halo, heading cone and dot, then a pin's callout.
extension Scene {
    func composeOverlays(into list: inout DrawList, at t: Double, sprites: SpriteAvailability) {
        composeCircles(into: &list, at: t, sprites: sprites)
        let callout = composePins(into: &list, at: t, sprites: sprites)
        composeLocation(into: &list, at: t, sprites: sprites)
        list.commands += callout
    }

    private func composeCircles(into list: inout DrawList, at t: Double, sprites: SpriteAvailability) {
        for circle in circles {
            let c = camera.screenPoint(for: circle.center)
            let r = circle.radiusPoints(camera: camera)
            let (scale, opacity) = circle.pulse?.state(at: t, start: circle.start) ?? (1, 1)
            // One raster for the whole pulse, chosen by its largest size: no switching mid-pulse.
            let key = SpriteKey.pulseCircle(circle.style, radius: SpriteKey.circleBucket(forRadius: r * (circle.pulse?.scale.upperBound ?? 1)))
            if placeRound(key, center: c, radius: r * scale, opacity: opacity, into: &list, sprites: sprites), circle.pulse != nil { list.animating = true }
        }
    }

    private func composeLocation(into list: inout DrawList, at t: Double, sprites: SpriteAvailability) {
        func place(_ key: SpriteKey, center c: ScreenPoint, radius r: Double, opacity: Double, degrees: Double? = nil) -> Bool {
            placeRound(key, center: c, radius: r, opacity: opacity, degrees: degrees, into: &list, sprites: sprites)
        }
        let view = ScreenRect(x: 0, y: 0, width: camera.viewportSize.width, height: camera.viewportSize.height)
        guard let loc = location else { return }
        let p = camera.screenPoint(for: loc.point(at: t))
        let accuracy = Camera.points(forMeters: loc.accuracy(at: t), atLatitude: loc.coordinate(at: t).latitude, zoom: camera.zoom)
        // The accuracy disc is worth drawing only where it reaches beyond the dot.
        if accuracy > LocationAnnotation.dotDiameter / 2 {
            _ = place(.accuracyDisc(loc.color, radius: SpriteKey.circleBucket(forRadius: accuracy)), center: p, radius: accuracy, opacity: 1)
        }
        let halo = loc.halo.state(at: t)
        _ = place(.halo(loc.color, raster: halo.raster), center: p, radius: HaloPulse.diameter / 2 * halo.scale, opacity: halo.opacity)
        // The pulse is visible while the halo's full extent is on screen, pause included.
        let extent = ScreenRect(x: p.x - HaloPulse.diameter / 2, y: p.y - HaloPulse.diameter / 2, width: HaloPulse.diameter, height: HaloPulse.diameter)
        if extent.intersects(view) { list.animating = true }
        if let heading = loc.heading {
            _ = place(.headingCone(loc.color), center: p, radius: LocationAnnotation.dotDiameter * 1.6, opacity: 1, degrees: heading)
        }
        _ = place(.locationDot(loc.color), center: p, radius: LocationAnnotation.dotDiameter / 2 + 4, opacity: 1)
        if loc.isGliding(at: t) { list.animating = true }
    }

    /// Places a round sprite of radius r centred on c, or asks for it; true when on screen.
    func placeRound(_ key: SpriteKey, center c: ScreenPoint, radius r: Double, opacity: Double, degrees: Double? = nil,
                    into list: inout DrawList, sprites: SpriteAvailability) -> Bool {
        let view = ScreenRect(x: 0, y: 0, width: camera.viewportSize.width, height: camera.viewportSize.height)
        let rect = ScreenRect(x: c.x - r, y: c.y - r, width: 2 * r, height: 2 * r)
        guard r > 0.1, opacity > 0.001, rect.intersects(view) else { return false }
        guard sprites.size(of: key) != nil else {
            if !list.wantedSprites.contains(key) { list.wantedSprites.append(key) }
            return true // on screen, arriving next frame
        }
        if let degrees {
            list.commands.append(.rotatedSprite(key, destination: rect, opacity: opacity, degrees: degrees))
        } else {
            list.commands.append(.sprite(key, destination: rect, opacity: opacity))
        }
        return true
    }
}
