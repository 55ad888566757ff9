import MapCore
import MapGeometry
import MapGraphics
import MapTiles
import Platform

/// One layer of the map's stack as the host draws it: how the scene lays it out (`spec`),
/// where its tiles come from, how its vector tiles are painted, and the colour an opaque
/// layer's tiles are laid over.
public struct TileLayerSource: Sendable {
    /// How the layer starts: once shown, the session holds it (`Scene.tileStack`), and
    /// whether it shows and how opaque are read there, never here.
    public var spec: TileLayerSpec
    public let source: TileSource
    public let painter: VectorTilePainter
    /// Opaque layers' tiles are laid over it on the worker, so they are copied, not blended;
    /// nil for an overlay (its pictures keep their transparency).
    public let background: Color?

    public init(spec: TileLayerSpec, source: TileSource, painter: VectorTilePainter = VectorTilePainter(), background: Color?) {
        self.spec = spec
        self.source = source
        self.painter = painter
        self.background = spec.isOpaque ? (background ?? .noMap) : nil
    }

    /// A layer shown only where the layers above have nothing (the embedded basemap under
    /// online tiles), over its own colour.
    public static func fallback(_ source: TileSource, background: Color, painter: VectorTilePainter = VectorTilePainter()) -> TileLayerSource {
        TileLayerSource(spec: TileLayerSpec(name: source.name, role: .fallback, zoomRange: source.zoomRange, attribution: source.attribution),
                        source: source, painter: painter, background: background)
    }

    /// A transparent layer over the map (hillshade, hiking routes); `title`: what the
    /// switcher calls it (nil: its name).
    public static func overlay(_ source: TileSource, name: String, title: String? = nil, opacity: Double = 1, visible: Bool = true,
                               painter: VectorTilePainter = VectorTilePainter()) -> TileLayerSource {
        TileLayerSource(spec: TileLayerSpec(name: name, title: title, role: .overlay, zoomRange: source.zoomRange, opacity: opacity, isVisible: visible,
                                            attribution: source.attribution), source: source, painter: painter, background: nil)
    }
}

/// The map's tile layers as the host has them, bottom to top (fallbacks, the chosen map,
/// overlays), and the map's colour under them all. The window, `render`, export and print
/// all draw from one. What a person sets of the layers (shown or not, how opaque) it holds
/// only as they start: the session's `TileStackModel`, layer for layer in this order, holds
/// it from `showTiles(from:)` on, and the pipeline follows the session's frames.
public struct TileStack: Sendable {
    public var layers: [TileLayerSource]
    /// The colour the map is cleared to (the chosen map's).
    public var background: Color

    /// `map` over `fallback` (nil: none), with `overlays` over it, in order.
    public init(map source: TileSource, painter: VectorTilePainter = VectorTilePainter(), background: Color,
                fallback: TileLayerSource? = nil, overlays: [TileLayerSource] = []) {
        let map = TileLayerSource(spec: TileLayerSpec(name: source.name, role: .map, zoomRange: source.zoomRange, attribution: source.attribution),
                                  source: source, painter: painter, background: background)
        layers = (fallback.map { [$0] } ?? []) + [map]
        self.background = background
        add(overlays)
    }

    /// Lays `overlays` over the map (over those it has), with the layer of what the map's
    /// layers paint into tiles on top of them all (used while an overlay shows).
    public mutating func add(_ overlays: [TileLayerSource]) {
        guard !overlays.isEmpty else { return }
        layers.removeAll { $0.spec.role == .drawings }
        layers += overlays
        layers.append(TileLayerSource(spec: TileLayerSpec(name: "drawings", role: .drawings, zoomRange: map.spec.zoomRange),
                                      source: DrawingsSource(painting: []), background: nil))
    }

    public var mapIndex: Int { layers.lastIndex { $0.spec.role == .map } ?? 0 }
    public var map: TileLayerSource { layers[mapIndex] }
    /// Where the chosen map's tiles come from.
    public var source: TileSource { map.source }
    public var specs: [TileLayerSpec] { layers.map(\.spec) }

    /// The same stack with the map's tiles from `source` (a wrapper that counts or backs them).
    public func replacingMapSource(_ source: TileSource) -> TileStack {
        var s = self
        let m = map
        s.layers[mapIndex] = TileLayerSource(spec: m.spec, source: source, painter: m.painter, background: m.background)
        return s
    }

    /// The layer named `name` (an overlay's settings key).
    public func index(of name: String) -> Int? { layers.firstIndex { $0.spec.name == name } }

    /// The same stack with its map known by `name`: the name it was chosen by (the
    /// switcher's, view.json's), which the session's model then says is shown.
    public func naming(map name: String) -> TileStack {
        var s = self
        s.layers[mapIndex].spec.name = name
        return s
    }
}
