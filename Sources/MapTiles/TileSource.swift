import FoundationEssentials
import Glibc
import Platform
import MapGeometry

/// What a source hands over for a tile, before it becomes pixels.
public enum TilePayload: Sendable {
    /// An encoded raster (PNG, JPEG, WebP), decoded by the window's image decoder.
    case encodedImage(Data)
    /// An encoded raster of `tile`, an ancestor of the one asked for (beyond the source's
    /// deepest zoom): the part under the tile asked for is drawn enlarged, so that what is
    /// painted over it (tracks) is drawn at the zoom shown, sharp and at its width.
    case encodedImageRegion(Data, tile: TileID)
    /// A Mapbox Vector Tile, rasterized by the graphics layer. `tile` is the tile the bytes
    /// belong to: the requested one, or an ancestor when drawing beyond the data's zooms.
    case vector(Data, tile: TileID)
    /// The debug grid: drawn from the id alone.
    case debugGrid(TileID)
    /// A DEM tile's PNG (heights in colours, `encoding`), shaded and traced for contours by
    /// the graphics layer. `tile` is the tile the heights belong to: the requested one, or an
    /// ancestor beyond the DEM's deepest zoom.
    case terrain(Data, encoding: DEMTile.Encoding, tile: TileID)
    /// A MapLibre style's vector tile (as `vector`; empty where there is none) with the
    /// pictures of its raster and raster-dem sources over the same ground, drawn together in
    /// the style's order (`StyledTileSource`).
    case styled(Data, tile: TileID, pictures: [StylePicture])
    /// Nothing of its own: a transparent tile for what the map's layers paint into tiles
    /// (tracks, a measured line), laid over the overlays so that they do not shade it.
    case drawings(TileID)
}

/// The picture a style's raster or raster-dem source gives for a tile: its encoded bytes, and
/// the square of ground they cover (the tile's own, or an ancestor's beyond the source's zooms
/// or in its coarser numbering).
public struct StylePicture: Sendable {
    /// The style's name for the source.
    public let source: String
    public let data: Data
    public let tile: TileID
    public init(source: String, data: Data, tile: TileID) { self.source = source; self.data = data; self.tile = tile }
}

extension TilePayload {
    /// A picture, decoded in a millisecond (unlike a vector tile, drawn in ten or more).
    public var isEncodedImage: Bool {
        switch self {
        case .encodedImage, .encodedImageRegion: return true
        case .vector, .debugGrid, .terrain, .styled, .drawings: return false
        }
    }

    /// The bytes it holds.
    public var byteCount: Int {
        switch self {
        case let .encodedImage(d), let .encodedImageRegion(d, _), let .vector(d, _), let .terrain(d, _, _): return d.count
        case let .styled(d, _, pictures): return d.count + pictures.reduce(0) { $0 + $1.data.count }
        case .debugGrid, .drawings: return 0
        }
    }
}

public struct TileSourceError: Error, CustomStringConvertible, Sendable {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// Where tiles come from. Called on worker threads; must be thread-safe.
public protocol TileSource: Sendable {
    /// A short stable name (used in cache keys and messages).
    var name: String { get }
    var zoomRange: ClosedRange<Int> { get }
    /// Attribution the map must show for this source.
    var attribution: String { get }
    /// The page the attribution links to (the data's copyright), when there is one.
    var attributionURL: String? { get }
    /// The tile's payload, nil where the source has no tile (the background shows through).
    func payload(for tile: TileID) throws -> TilePayload?
    /// How many tiles to load at once (worker threads).
    var concurrency: Int { get }
    /// Tiles come over the network (loading them takes long enough to say so).
    var isRemote: Bool { get }
    /// Why the source cannot be reached now, nil when it can (or when it is local).
    var unreachable: String? { get }
    /// The schema of its vector tiles (nil for pictures, or when nothing tells it).
    var schema: TileSchema? { get }
    /// How many zooms shallower than drawn its tiles are numbered: 1 for vector tiles made for
    /// 512 points (OpenMapTiles' z is drawn where 256-point tiles are at z + 1), else 0. What a
    /// saved area's zooms, a style's zoom and the data tile of a drawn tile all follow.
    var zoomShift: Int { get }
    /// The frame no longer wants these tiles: requests for them under way may stop (their
    /// `payload` then throws `TileLoadCancelled`).
    func cancel(_ tiles: [TileID])
    /// The loader decoded a payload this source gave (`ok`), or found it undecodable.
    func decoded(_ tile: TileID, payload: TilePayload, ok: Bool)
    /// The loader keeps a picture this source gave, to decode when it comes into view (a ring
    /// tile); its header and chunks are whole. A source that caches only what decodes may
    /// cache it now: `decoded` still follows, and a picture that then fails may be dropped.
    func keptAhead(_ tile: TileID, payload: TilePayload)
    /// The loader let go of a payload this source gave without decoding it (a ring tile the
    /// view moved away from): what the source keeps until `decoded` may go.
    func abandoned(_ tile: TileID)
}

/// A tile's load was given up because the view no longer wants it: not a failure.
public struct TileLoadCancelled: Error {
    public init() {}
}

extension TileSource {
    /// Sources that read local files use the processors.
    public var concurrency: Int { max(2, ProcessInfo.processInfo.activeProcessorCount) }
    public var attributionURL: String? { nil }
    public var isRemote: Bool { false }
    public var unreachable: String? { nil }
    public var schema: TileSchema? { nil }
    public var zoomShift: Int { 0 }
    public func cancel(_ tiles: [TileID]) {}
    public func decoded(_ tile: TileID, payload: TilePayload, ok: Bool) {}
    public func keptAhead(_ tile: TileID, payload: TilePayload) {}
    public func abandoned(_ tile: TileID) {}
}

/// Tiles that show their own z/x/y: for seeing the machinery work.
public struct DebugGridSource: TileSource {
    public init() {}
    public var name: String { "debug" }
    public var zoomRange: ClosedRange<Int> { 0...20 }
    public var attribution: String { "Debug grid" }
    public func payload(for tile: TileID) throws -> TilePayload? { .debugGrid(tile) }
}

/// A folder of raster tiles laid out as DIR/{z}/{x}/{y}.png (or .jpg, .jpeg, .webp).
public struct DirectorySource: TileSource {
    public let root: URL
    /// The zooms the folder holds; deeper ones are drawn from its deepest (`RasterOverzoom`).
    public let dataZoomRange: ClosedRange<Int>
    public var zoomRange: ClosedRange<Int> { RasterOverzoom.displayRange(dataZoomRange) }
    public var attribution: String
    public var name: String { "dir:" + root.path }
    static let extensions = ["png", "jpg", "jpeg", "webp"]

    /// Finds the zoom levels present; a folder with none is an error worth telling.
    public init(root: URL, attribution: String = "") throws {
        guard FileIO.isDirectory(root.path) else {
            throw TileSourceError(tr("%@: not a directory", root.path))
        }
        let zooms = ((try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? [])
            .compactMap(Int.init).filter { (0...TileID.maxZoom).contains($0) }
        guard let lo = zooms.min(), let hi = zooms.max() else {
            // TRANSLATORS: DIR/{z}/{x}/{y}.png is a pattern of file names: keep it as it is.
            throw TileSourceError(tr("%@: no zoom folders (expected DIR/{z}/{x}/{y}.png)", root.path))
        }
        self.root = root
        self.dataZoomRange = lo...hi
        self.attribution = attribution
    }

    public func payload(for tile: TileID) throws -> TilePayload? {
        try RasterOverzoom.payload(for: tile, dataZoomRange: dataZoomRange) { try image(for: $0) }
    }

    private func image(for tile: TileID) throws -> Data? {
        let base = root.appendingPathComponent("\(tile.z)/\(tile.x)/\(tile.y)")
        for ext in Self.extensions {
            let url = base.appendingPathExtension(ext)
            guard FileIO.exists(url.path) else { continue }
            // Larger than any real tile: a wrong file, not worth decoding.
            let data = try FileIO.read(url.path, limit: 8 << 20)
            guard !data.isEmpty else { throw TileSourceError(tr("%@: empty file", url.path)) }
            return data
        }
        return nil
    }
}

/// Raster tiles beyond a source's deepest zoom: the deepest tile above, its part enlarged.
public enum RasterOverzoom {
    /// Raster sources are drawn at every zoom up to this one.
    public static let maxDisplayZoom = 20

    public static func displayRange(_ data: ClosedRange<Int>) -> ClosedRange<Int> {
        data.lowerBound...max(data.upperBound, maxDisplayZoom)
    }

    /// `tile`'s payload from `image` (the encoded tile stored for an id, nil if none).
    public static func payload(for tile: TileID, dataZoomRange: ClosedRange<Int>, image: (TileID) throws -> Data?) throws -> TilePayload? {
        guard tile.z > dataZoomRange.upperBound else { return try image(tile).map { .encodedImage($0) } }
        let ancestor = tile.ancestor(atZoom: dataZoomRange.upperBound)
        return try image(ancestor).map { .encodedImageRegion($0, tile: ancestor) }
    }
}

/// Vector tiles drawn from the data tile that holds them: a zoom up for tiles made for 512
/// points (OpenMapTiles': its zoom z is drawn where Meridian's 256-point tiles are at z + 1),
/// the deepest stored ancestor beyond the data's zooms (drawn larger, crisp).
public enum VectorOverzoom {
    /// The zoom shift (`TileSource.zoomShift`) of tiles made for `tilePoints` points: a tile
    /// of 512 at zoom z covers the ground of a 256-point tile at z + 1.
    public static func shift(tilePoints: Int) -> Int { tilePoints == 512 ? 1 : 0 }

    /// The stored tile that draws `tile`; nil where the data has none to offer.
    public static func dataTile(for tile: TileID, dataZoomRange: ClosedRange<Int>, vectorTileSize: Int) -> TileID? {
        let shifted = max(tile.z - shift(tilePoints: vectorTileSize), 0)
        let z = min(shifted, dataZoomRange.upperBound)
        guard z >= dataZoomRange.lowerBound else { return nil }
        return tile.ancestor(atZoom: z)
    }

    /// `tile`'s payload from a file's stored tiles (`stored`: the bytes kept for an id, nil if
    /// none): nil outside `bounds`; no tile stored means nothing there but water, an empty tile.
    /// `recent`: the data tiles read last, inflated (the tiles drawn from one data tile — 4 at
    /// its own zoom, 16 a zoom deeper — are asked for one after another).
    public static func payload(for tile: TileID, bounds: MapRect?, dataZoomRange: ClosedRange<Int>, vectorTileSize: Int, name: String,
                        recent: InflatedDataTiles? = nil, stored: (TileID) throws -> Data?) throws -> TilePayload? {
        if let bounds, !bounds.intersects(tile.mapRect) { return nil }
        guard let source = dataTile(for: tile, dataZoomRange: dataZoomRange, vectorTileSize: vectorTileSize) else { return nil }
        if let kept = recent?.data(for: source) { return .vector(kept, tile: source) }
        let data = try inflated(try stored(source) ?? Data(), source, in: name)
        recent?.keep(data, for: source)
        return .vector(data, tile: source)
    }

    /// `body` inflated when it is gzipped (whatever the source says of its compression); the
    /// error names the source and the tile.
    static func inflated(_ body: Data, _ tile: TileID, in name: String) throws -> Data {
        guard Gzip.isCompressed(body) else { return body }
        do { return try Gzip.decompress(body) } catch let e as TileSourceError {
            // TRANSLATORS: %1$@ is a map source's name, %2$@ a tile's z/x/y, %3$@ what is wrong.
            throw TileSourceError(tr("%1$@: tile %2$@: %3$@", name, tile, e.description))
        }
    }
}

/// The few data tiles a vector source read last, inflated: reading and inflating one costs a
/// few milliseconds, and the many tiles drawn from it are asked for together.
public final class InflatedDataTiles: @unchecked Sendable { // `tiles` under `lock`
    private let lock = Lock()
    private var tiles = LRUCache<TileID, Data>(capacity: 8 << 20)

    public init() {}

    func data(for tile: TileID) -> Data? {
        lock.lock(); defer { lock.unlock() }
        return tiles.value(for: tile)
    }

    func keep(_ data: Data, for tile: TileID) {
        lock.lock(); defer { lock.unlock() }
        _ = tiles.insert(data, for: tile, cost: max(data.count, 64))
    }
}
