import FoundationEssentials
import MapStyle
import MapTiles
import Platform

/// A decoded vector tile with what every picture drawn from it needs again: each feature's
/// box, and which features each style layer's filter lets through. One data tile is drawn many
/// times — at 512-point sizing into four tiles of the zoom below, over-zoomed into hundreds —
/// so filters are evaluated once per data tile, and a picture looks only at the features
/// whose boxes reach it.
final class PreparedTile: @unchecked Sendable { // its memos under `lock` and `symbolsLock`; the tile immutable
    /// A feature's extent in 4096ths of the data tile.
    struct Box { var minX, minY, maxX, maxY: Double }

    let tile: VectorTile
    /// Source layer name → index in `tile.layers` (the first of that name).
    let layerIndex: [String: Int]
    let boxes: [[Box]]
    private let lock = Lock()
    /// Style layer index → the features of its source layer its filter lets through, for
    /// filters that do not depend on the zoom.
    private var matches: [Int: [Int]] = [:]
    /// Features sorted into kinds by what some filter reads of them (source layer index and
    /// the filter's inputs → each feature's kind, and one feature of each kind).
    private var kinds: [KindKey: (kindOf: [Int32], examples: [Int])] = [:]
    private struct KindKey: Hashable { var layer: Int; var inputs: StyleExpression.FeatureInputs }
    /// A symbol layer's labels by style layer index and zoom (`symbols`), the last few zooms
    /// (a view's tiles and their stand-ins during a zoom are drawn at two or three); made
    /// under their own lock, so the workers painting a data tile's children make them once.
    private struct SymbolsKey: Hashable { var styleIndex: Int; var zoom: Double }
    private var symbols: [SymbolsKey: StyledTilePainter.Symbols] = [:]
    private var symbolZooms: [Double] = []
    private let symbolsLock = Lock()

    init(_ decoded: VectorTile) {
        var tile = decoded
        for l in tile.layers.indices { for f in tile.layers[l].features.indices { Self.fillInNames(&tile.layers[l].features[f]) } }
        self.tile = tile
        var index: [String: Int] = [:]
        for (i, l) in tile.layers.enumerated() where index[l.name] == nil { index[l.name] = i }
        layerIndex = index
        boxes = tile.layers.map { layer in
            let k = 4096 / Double(max(layer.extent, 1))
            return layer.features.map { f in
                var minX = Int32.max, minY = Int32.max, maxX = Int32.min, maxY = Int32.min
                for part in f.parts { for p in part {
                    minX = min(minX, p.x); maxX = max(maxX, p.x); minY = min(minY, p.y); maxY = max(maxY, p.y)
                } }
                guard minX <= maxX else { return Box(minX: 1, minY: 1, maxX: -1, maxY: -1) }
                return Box(minX: Double(minX) * k, minY: Double(minY) * k, maxX: Double(maxX) * k, maxY: Double(maxY) * k)
            }
        }
    }

    /// Tiles name things under different keys (tilemaker writes name:latin, others name and
    /// name_en) and styles ask for one of them: a name missing under one key is taken from
    /// another, so every style finds the names.
    static func fillInNames(_ f: inout VectorTile.Feature) {
        let p = f.properties
        guard let any = p["name"] ?? p["name:latin"] ?? p["name_en"] ?? p["name:en"] else { return }
        for key in ["name", "name:latin"] where p[key] == nil { f.properties[key] = any }
    }

    /// The features of source layer `layer` sorted into kinds by `inputs` (kept for the next
    /// filter that reads the same).
    private func kinds(layer: Int, inputs: StyleExpression.FeatureInputs) -> (kindOf: [Int32], examples: [Int]) {
        let key = KindKey(layer: layer, inputs: inputs)
        lock.lock()
        let known = kinds[key]
        lock.unlock()
        if let known { return known }
        struct Kind: Hashable { var values: [VectorTile.Value?]; var geometry: String }
        var index: [Kind: Int32] = [:]
        var kindOf: [Int32] = [], examples: [Int] = []
        let features = tile.layers[layer].features
        kindOf.reserveCapacity(features.count)
        for (i, f) in features.enumerated() {
            let kind = Kind(values: inputs.keys.map { f.properties[$0] }, geometry: inputs.geometry ? StyleExpression.geometryName(of: f) : "")
            if let k = index[kind] { kindOf.append(k); continue }
            let k = Int32(examples.count)
            index[kind] = k
            examples.append(i)
            kindOf.append(k)
        }
        lock.lock()
        kinds[key] = (kindOf, examples)
        lock.unlock()
        return (kindOf, examples)
    }

    /// What style layer `styleIndex`'s symbols are at `zoom` over the whole data tile, made
    /// once by `make` for every tile drawn from it at that zoom.
    func symbols(styleIndex: Int, zoom: Double, make: () -> StyledTilePainter.Symbols) -> StyledTilePainter.Symbols {
        symbolsLock.lock()
        defer { symbolsLock.unlock() }
        let key = SymbolsKey(styleIndex: styleIndex, zoom: zoom)
        if let known = symbols[key] { return known }
        if !symbolZooms.contains(zoom) {
            symbolZooms.append(zoom)
            if symbolZooms.count > 3 {
                let oldest = symbolZooms.removeFirst()
                symbols = symbols.filter { $0.key.zoom != oldest }
            }
        }
        let set = make()
        symbols[key] = set
        return set
    }

    /// Bytes held, for the decoded-tile cache's budget (an estimate).
    var cost: Int { tile.layers.reduce(0) { $0 + $1.features.reduce(64) { $0 + 48 + $1.parts.reduce(0) { $0 + $1.count * 8 + 32 } + $1.properties.count * 48 } } }

    /// The features of source layer `layer` (an index) that style layer `style` (its index
    /// `styleIndex`) draws at `zoom` and whose boxes come within `margin` of `square` (in
    /// 4096ths of the data tile: minX, minY, size).
    func features(layer: Int, style: StyleLayer, styleIndex: Int, zoom: Double,
                  square: (x: Double, y: Double, size: Double), margin: Double) -> [Int] {
        let all = matching(layer: layer, style: style, styleIndex: styleIndex, zoom: zoom)
        let box = boxes[layer]
        let x0 = square.x - margin, y0 = square.y - margin, x1 = square.x + square.size + margin, y1 = square.y + square.size + margin
        // A tile drawn at its data's own zoom holds every feature: no need to look.
        if square.x <= 0 && square.y <= 0 && square.size >= 4096 && margin >= 0 { return all }
        return all.filter { let b = box[$0]; return b.maxX >= x0 && b.minX <= x1 && b.maxY >= y0 && b.minY <= y1 }
    }

    private func matching(layer: Int, style: StyleLayer, styleIndex: Int, zoom: Double) -> [Int] {
        let features = tile.layers[layer].features
        guard let filter = style.filter else { return Array(features.indices) }
        let cacheable = !filter.isZoomDependent
        if cacheable {
            lock.lock()
            let cached = matches[styleIndex]
            lock.unlock()
            if let cached { return cached }
        }
        var out: [Int] = []
        if let inputs = filter.featureInputs, features.count > 32 {
            // The filter reads a few properties (a road's class and brunnel, say): it is
            // evaluated once for each kind of feature, not for each of thousands of features.
            let (kindOf, examples) = self.kinds(layer: layer, inputs: inputs)
            let passes = examples.map { style.matches(EvaluationContext(zoom: zoom, feature: features[$0])) }
            for i in features.indices where passes[Int(kindOf[i])] { out.append(i) }
        } else {
            for (i, f) in features.enumerated() where style.matches(EvaluationContext(zoom: zoom, feature: f)) { out.append(i) }
        }
        if cacheable {
            lock.lock()
            matches[styleIndex] = out
            lock.unlock()
        }
        return out
    }
}
