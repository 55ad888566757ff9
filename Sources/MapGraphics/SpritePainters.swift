import CCairo
import FoundationEssentials
import MapCore
import MapTiles
import Platform

/// Draws one kind of sprite (a layer's `SpriteSpec`) with Cairo at a pixel density.
public protocol SpritePainter {
    associatedtype Spec: SpriteSpec
    static func paint(_ spec: Spec, pixelRatio: Double) throws -> Bitmap
}

extension SpritePainter {
    /// The kind of sprite it draws (`SpriteKey.kind`).
    static var specKind: ObjectIdentifier { ObjectIdentifier(Spec.self) }

    /// The bitmap for `key` when it is this painter's kind; nil otherwise.
    static func paintIfMine(_ key: SpriteKey, pixelRatio: Double) throws -> Bitmap? {
        guard let spec = key.spec(as: Spec.self) else { return nil }
        return try paint(spec, pixelRatio: pixelRatio)
    }
}

public struct UnknownSpriteError: Error, CustomStringConvertible {
    public let key: SpriteKey
    public var description: String { "no painter registered for sprite \(key)" }
}

/// Every kind of sprite and what draws it, by the kind: the map's own are there from the
/// start; a layer of an app's own with sprites of its own kind registers their painter.
public enum SpritePainters {
    private static let lock = Lock()
    nonisolated(unsafe) private static var painters: [ObjectIdentifier: any SpritePainter.Type] = { // under `lock`
        var all: [ObjectIdentifier: any SpritePainter.Type] = [:]
        for p: any SpritePainter.Type in [LabelPainter.self, CirclePainter.self, LocationPainter.self, PinPainter.self, TrackLegendPainter.self,
                                          TrackProfilePainter.self, IconPainter.self, ShapePainter.self] {
            all[p.specKind] = p
        }
        return all
    }()

    /// Draws sprites of `P.Spec` with `painter` from now on (replacing any painter of that
    /// kind); may be called from any thread, best before the first frame that wants one.
    public static func register<P: SpritePainter>(_ painter: P.Type) {
        lock.lock(); defer { lock.unlock() }
        painters[P.specKind] = painter
    }

    public static func paint(_ key: SpriteKey, pixelRatio: Double) throws -> Bitmap {
        lock.lock()
        let painter = painters[key.kind]
        lock.unlock()
        guard let bitmap = try painter?.paintIfMine(key, pixelRatio: pixelRatio) else { throw UnknownSpriteError(key: key) }
        return bitmap
    }
}

/// Text (labels, chrome, notices) and place dots, with Pango.
public enum LabelPainter: SpritePainter {
    public static func paint(_ spec: LabelSprite, pixelRatio k: Double) throws -> Bitmap {
        switch spec {
        case let .text(s, style): return try TextRasterizer.render(s, style: style, pixelRatio: k)
        case let .placeDot(capital): return try TextRasterizer.placeDot(capital: capital, pixelRatio: k)
        }
    }
}

public enum CirclePainter: SpritePainter {
    public static func paint(_ spec: CircleSprite, pixelRatio k: Double) throws -> Bitmap {
        try OverlaySprites.circle(spec.style, radius: spec.radius, pixelRatio: k)
    }
}

public enum LocationPainter: SpritePainter {
    public static func paint(_ spec: LocationSprite, pixelRatio k: Double) throws -> Bitmap {
        switch spec {
        case let .accuracyDisc(color, r): return try OverlaySprites.accuracyDisc(color, radius: r, pixelRatio: k)
        case let .halo(color, raster): return try OverlaySprites.halo(color, raster: raster, pixelRatio: k)
        case let .dot(color): return try OverlaySprites.locationDot(color, pixelRatio: k)
        case let .headingCone(color): return try OverlaySprites.headingCone(color, pixelRatio: k)
        }
    }
}

public enum PinPainter: SpritePainter {
    public static func paint(_ spec: PinSprite, pixelRatio k: Double) throws -> Bitmap {
        switch spec {
        case let .pin(color): return try PinSprites.pin(color, pixelRatio: k)
        case .shadow: return try PinSprites.shadow(pixelRatio: k)
        case .groundMark: return try PinSprites.groundMark(pixelRatio: k)
        case let .cluster(label): return try PinSprites.cluster(label, pixelRatio: k)
        case let .callout(title, detail, editing): return try PinSprites.callout(title: title, detail: detail, editing: editing, pixelRatio: k)
        }
    }
}

/// The legend's colour ramp: the track colours from low to high, with a thin dark rim.
public enum TrackLegendPainter: SpritePainter {
    public static func paint(_ spec: TrackLegendSprite, pixelRatio k: Double) throws -> Bitmap {
        let size = TracksLayer.legendRampSize
        let canvas = try CairoCanvas(width: Int(saturating: (size.width * k).rounded()), height: Int(saturating: (size.height * k).rounded()))
        let cr = canvas.context, w = Double(canvas.width), h = Double(canvas.height)
        let gradient = cairo_pattern_create_linear(0, 0, w, 0)!
        let stops = TrackColorRamp.stops
        for (i, c) in stops.enumerated() {
            cairo_pattern_add_color_stop_rgba(gradient, Double(i) / Double(stops.count - 1), c.r, c.g, c.b, 1)
        }
        cairo_rectangle(cr, 0, 0, w, h)
        cairo_set_source(cr, gradient)
        cairo_fill_preserve(cr)
        cairo_pattern_destroy(gradient)
        canvas.setColor(Color(hex: 0x000000, alpha: 0.35))
        cairo_set_line_width(cr, k)
        cairo_stroke(cr)
        return canvas.bitmap()
    }
}
