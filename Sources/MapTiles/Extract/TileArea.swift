import FoundationEssentials
import Glibc
import MapGeometry
import Platform

/// What an extract cuts: a box in degrees (west > east when it crosses the antimeridian) and
/// a range of zooms, and the tiles that cover it. Every value is checked where it is made, so
/// a command line or a resume file never puts a NaN or a reversed range into the arithmetic.
public struct TileArea: Sendable, Equatable, CustomStringConvertible {
    public let west: Double, south: Double, east: Double, north: Double
    public let zooms: ClosedRange<Int>

    /// The deepest zoom an extract may ask for (the archive's ids stay far from overflow).
    public static let maxZoom = 20
    /// More tiles than this is a country at street level, not an area: refused before
    /// anything is fetched (the journal and the directory take about 100 bytes a tile).
    public static let maxTiles: UInt64 = 5_000_000

    public struct Invalid: Error, CustomStringConvertible, Sendable {
        public let description: String
        public init(_ description: String) { self.description = description }
    }

    public init(west: Double, south: Double, east: Double, north: Double, zooms: ClosedRange<Int>) throws {
        // The box's sides, each with the sentence for a value out of its range.
        let sides: [(Double, Double, (Double) -> String)] = [
            (west, 180, { tr("west %@ is not a longitude (-180…180)", $0) }),
            (east, 180, { tr("east %@ is not a longitude (-180…180)", $0) }),
            (south, 90, { tr("south %@ is not a latitude (-90…90)", $0) }),
            (north, 90, { tr("north %@ is not a latitude (-90…90)", $0) }),
        ]
        for (v, limit, said) in sides {
            guard v.isFinite, abs(v) <= limit else { throw Invalid(said(v)) }
        }
        guard south < north else { throw Invalid(tr("south %1$@ is not below north %2$@", south, north)) }
        guard west != east else { throw Invalid(tr("west and east are both %@: the box has no width", west)) }
        guard zooms.lowerBound >= 0, zooms.upperBound <= Self.maxZoom else {
            // TRANSLATORS: %1$@…%2$@ is the range of zooms asked for, %3$@ the deepest allowed.
            throw Invalid(tr("zooms %1$@…%2$@ must lie within 0…%3$@", zooms.lowerBound, zooms.upperBound, Self.maxZoom))
        }
        // Web Mercator stops short of the poles: a box beyond it has no tiles.
        let limit = Coordinate.maxMercatorLatitude
        guard north > -limit, south < limit else { throw Invalid(tr("the box lies beyond ±%@°, where the map has no tiles", String(cFormat: "%.2f", limit))) }
        (self.west, self.south, self.east, self.north) = (west, south, east, north)
        self.zooms = zooms
        guard tileCount <= Self.maxTiles else {
            // TRANSLATORS: %1$d is a number of tiles, %2$@…%3$@ a range of zooms, %4$@ the most tiles allowed.
            throw Invalid(trn("the box holds %1$d tile at zooms %2$@…%3$@, more than %4$@: choose a smaller box or a lower deepest zoom",
                              "the box holds %1$d tiles at zooms %2$@…%3$@, more than %4$@: choose a smaller box or a lower deepest zoom",
                              Int(clamping: tileCount), zooms.lowerBound, zooms.upperBound, Self.maxTiles))
        }
    }

    /// "W,S,E,N" in degrees (what is wrong names the value, not where it was typed).
    public init(bbox: String, zooms: ClosedRange<Int>) throws {
        let parts = bbox.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmed }
        guard parts.count == 4 else {
            // TRANSLATORS: %@ is the area given; W,S,E,N (west, south, east, north) is how an area is written.
            throw Invalid(tr("area \"%@\": four numbers W,S,E,N in degrees (e.g. 24.90,60.15,24.98,60.19)", bbox.prefix(80)))
        }
        // The sentence for each part that is not a number.
        let notNumbers: [(Substring) -> String] = [
            { tr("west \"%@\" is not a number", $0) },
            { tr("south \"%@\" is not a number", $0) },
            { tr("east \"%@\" is not a number", $0) },
            { tr("north \"%@\" is not a number", $0) },
        ]
        var v = [Double]()
        for (notNumber, p) in zip(notNumbers, parts) {
            guard let d = Double(p), d.isFinite else { throw Invalid(notNumber(p.prefix(40))) }
            v.append(d)
        }
        try self.init(west: v[0], south: v[1], east: v[2], north: v[3], zooms: zooms)
    }

    public var crossesAntimeridian: Bool { west > east }

    /// The box's columns and rows at zoom `z`: one range of rows, one or two of columns (two
    /// across the antimeridian).
    public func ranges(atZoom z: Int) -> (columns: [ClosedRange<Int>], rows: ClosedRange<Int>) {
        let n = 1 << z
        func column(_ lon: Double) -> Int { min(n - 1, max(0, Int(saturating: floor((lon + 180) / 360 * Double(n))))) }
        func row(_ lat: Double) -> Int {
            let y = WebMercator.project(Coordinate(latitude: lat, longitude: 0)).y / WebMercator.worldSize * Double(n)
            return min(n - 1, max(0, Int(saturating: floor(y))))
        }
        let rows = row(north)...row(south)
        let (w, e) = (column(west), column(east))
        // Across the antimeridian: two runs of columns, or, at zooms so low that they meet,
        // every column once.
        let columns = !crossesAntimeridian ? [w...e] : w <= e + 1 ? [0...(n - 1)] : [w...(n - 1), 0...e]
        return (columns, rows)
    }

    /// Tiles at zoom `z`.
    public func count(atZoom z: Int) -> UInt64 {
        let (columns, rows) = ranges(atZoom: z)
        return columns.reduce(0) { $0 + UInt64($1.count) } * UInt64(rows.count)
    }

    /// Tiles at every zoom of the range.
    public var tileCount: UInt64 { zooms.reduce(0) { $0 + count(atZoom: $1) } }

    /// The tiles at zoom `z`, as PMTiles ids in ascending order (the order an archive holds).
    public func tileIDs(atZoom z: Int) -> [UInt64] {
        let (columns, rows) = ranges(atZoom: z)
        var ids = [UInt64]()
        ids.reserveCapacity(Int(count(atZoom: z)))
        for xs in columns { for x in xs { for y in rows { ids.append(PMTilesTileID.id(of: TileID(z: z, x: x, y: y))) } } }
        ids.sort()
        return ids
    }

    public func contains(_ tile: TileID) -> Bool {
        guard zooms.contains(tile.z) else { return false }
        let (columns, rows) = ranges(atZoom: tile.z)
        return rows.contains(tile.y) && columns.contains { $0.contains(tile.x) }
    }

    /// Bytes the tiles will take, from a typical size per tile (vector tiles of a city average
    /// tens of kilobytes deep in, far less at low zooms and over sea).
    public func estimatedBytes(perTile: UInt64) -> UInt64 { tileCount * perTile }

    public var description: String {
        func f(_ v: Double) -> String { String(cFormat: "%.5f", v) }
        return "\(f(west)),\(f(south)),\(f(east)),\(f(north)) z\(zooms.lowerBound)–\(zooms.upperBound)"
    }
}
