import FoundationEssentials
import MapGeometry
import Platform

/// Lays out a scene's stack of tile layers for one frame (see `TileLayout` for one layer):
/// the map over the clear; under it, each fallback only where those above it have nothing
/// to show; over it, each visible overlay at its opacity. Fills the draw list's tile
/// commands and wants; keeps which ready tiles of each layer count for labels.
struct TileStackLayout {
    let stores: [TileAvailability]
    /// Per layer: ready tiles whose places count for labels (drawn, standing in, or in the ring).
    private(set) var shown: [[TileID]]
    /// Credits of the layers other than the map drawn this frame.
    private(set) var credits: [String] = []
    private let specs: [TileLayerSpec]

    /// A layout made before (`Memo`), with this frame's stores.
    init(scene: Scene, stores given: [TileAvailability], shown: [[TileID]], credits: [String]) {
        specs = scene.tileLayers
        stores = Self.stores(given, count: max(specs.count, 1))
        self.shown = shown
        self.credits = credits
    }

    private static func stores(_ given: [TileAvailability], count: Int) -> [TileAvailability] {
        (0..<count).map { given.indices.contains($0) ? given[$0] : NoTiles() }
    }

    init(scene: Scene, camera: Camera, stores given: [TileAvailability], into list: inout DrawList) {
        specs = scene.tileLayers
        let count = max(specs.count, 1)
        stores = Self.stores(given, count: count)
        shown = Array(repeating: [], count: count)
        var wants = Array(repeating: TileWants(), count: count)
        let m = scene.mapLayerIndex
        list.mapLayer = m
        let range = specs.indices.contains(m) ? specs[m].zoomRange : scene.tileZoomRange
        let map = TileLayout(camera: camera, zoomRange: range, bufferRing: scene.bufferRing, tiles: stores[m]) {
            .tile($0, layer: m, source: $1, destination: $2, opacity: 1, degrees: $3)
        }
        wants[m] = TileWants(wanted: map.wanted, standIns: map.parents, ring: map.ring)
        shown[m] = map.shown
        // Each opaque layer below shows where those above have nothing yet, at the same zoom
        // where it can (an ancestor's part where it cannot go so deep), and wants only those.
        var below: [DrawCommand] = []
        var uncovered = map.uncovered
        for i in stride(from: m - 1, through: 0, by: -1) where specs[i].isVisible && specs[i].isOpaque && !uncovered.isEmpty {
            let r = specs[i].zoomRange
            let z = min(max(uncovered[0].z, r.lowerBound), r.upperBound)
            var seen = Set<TileID>()
            let only = uncovered.compactMap { t -> TileID? in
                let u = t.z > z ? t.ancestor(atZoom: z) : t
                return u.z == z && seen.insert(u).inserted ? u : nil
            }
            guard !only.isEmpty else { break }
            let layout = TileLayout(camera: camera, zoomRange: r, bufferRing: 0, tiles: stores[i], only: only) {
                .tile($0, layer: i, source: $1, destination: $2, opacity: 1, degrees: $3)
            }
            below = layout.commands + below
            wants[i].wanted = layout.wanted
            shown[i] = layout.shown
            if !layout.commands.isEmpty, !specs[i].attribution.isEmpty { credits.append(specs[i].attribution) }
            uncovered = layout.uncovered
        }
        list.commands += below
        list.commands += map.commands
        list.missingTiles += map.missing
        list.tilesCoverView = map.coversView
        /// Layer `i` over the whole view at `zooms`: its commands after those so far, its
        /// missing tiles counted, its wants kept.
        func layOver(_ i: Int, zooms: ClosedRange<Int>, opacity: Double) -> TileLayout {
            let layout = TileLayout(camera: camera, zoomRange: zooms, bufferRing: scene.bufferRing, tiles: stores[i]) {
                .tile($0, layer: i, source: $1, destination: $2, opacity: opacity, degrees: $3)
            }
            list.commands += layout.commands
            list.missingTiles += layout.missing
            wants[i] = TileWants(wanted: layout.wanted, standIns: layout.parents, ring: layout.ring)
            return layout
        }
        // Overlays, bottom to top, each over the whole view.
        var overlaid = false
        for i in specs.indices where i > m && specs[i].role == .overlay && specs[i].isShown {
            let spec = specs[i]
            // Not below its shallowest zoom: a view of the world would need thousands of its tiles.
            guard TileLayout.zoom(for: camera, in: 0...spec.zoomRange.upperBound) >= spec.zoomRange.lowerBound else { continue }
            overlaid = true
            shown[i] = layOver(i, zooms: spec.zoomRange, opacity: spec.opacity).shown
            if !spec.attribution.isEmpty { credits.append(spec.attribution) }
        }
        // Over a shown overlay, what layers paint into tiles goes on top, at the map's zooms.
        if overlaid, let d = specs.lastIndex(where: { $0.role == .drawings }), d > m {
            _ = layOver(d, zooms: range, opacity: 1)
            list.drawingsLayer = d
        }
        list.tileWants = wants
        var seen = Set<String>()
        credits = credits.filter { seen.insert($0).inserted }
    }

    func store(_ layer: Int) -> TileAvailability { stores.indices.contains(layer) ? stores[layer] : NoTiles() }

    /// Where labels come from: the map's tiles; a fallback's where it shows (not under the
    /// map's own tiles, which carry their own names); an overlay's.
    func labelSources(in list: DrawList) -> [LabelSource] {
        let m = list.mapLayer
        var sources = [LabelSource(store: stores[m], shown: shown[m])]
        var mapRects: [ScreenRect]?
        for i in shown.indices where i != m && !shown[i].isEmpty {
            if i < m {
                if mapRects == nil { mapRects = list.tileCommands(layer: m).filter { stores[m].hasPixels($0.0) }.map(\.2) }
                sources.append(LabelSource(store: stores[i], shown: shown[i], hiddenUnder: mapRects ?? []))
            } else {
                sources.append(LabelSource(store: stores[i], shown: shown[i]))
            }
        }
        return sources
    }
}

/// Tiles of one tile layer whose places are label candidates, except where `hiddenUnder`
/// rectangles cover them.
public struct LabelSource {
    public let store: TileAvailability
    public let shown: [TileID]
    public var hiddenUnder: [ScreenRect] = []
}
