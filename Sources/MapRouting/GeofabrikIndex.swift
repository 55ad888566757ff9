import FoundationEssentials
import MapCore
import Platform

/// Geofabrik's list of OpenStreetMap extracts (`index-v1.json`, a GeoJSON FeatureCollection:
/// each region's `id`, `parent`, `name`, `urls.pbf` and its outline), read to find the
/// smallest region that holds a saved area whole: the one download that routing data for
/// the area can be cut from. Hostile bytes get a `RouteError`, never a trap.
public struct GeofabrikIndex: Sendable {
    public struct Region: Sendable, Equatable {
        public var id: String
        public var name: String
        public var parent: String?
        /// Where its `.osm.pbf` is.
        public var pbf: String
        /// Its outline: polygons, each a list of rings of (longitude, latitude).
        var polygons: [[[(Double, Double)]]]

        public static func == (a: Region, b: Region) -> Bool { a.id == b.id && a.pbf == b.pbf }

        /// The outline's area in square degrees (how regions are ranked: the smallest wins).
        var size: Double {
            polygons.reduce(0) { total, rings in
                guard let outer = rings.first, outer.count >= 3 else { return total }
                var twice = 0.0
                for (a, b) in zip(outer, outer.dropFirst() + [outer[0]]) { twice += a.0 * b.1 - b.0 * a.1 }
                return total + abs(twice) / 2
            }
        }

        /// Whether (lon, lat) is inside the outline (inside an outer ring and not in its holes).
        func contains(_ lon: Double, _ lat: Double) -> Bool {
            polygons.contains { rings in
                guard let outer = rings.first, Self.inside(lon, lat, outer) else { return false }
                return !rings.dropFirst().contains { Self.inside(lon, lat, $0) }
            }
        }

        static func inside(_ x: Double, _ y: Double, _ ring: [(Double, Double)]) -> Bool {
            var inside = false
            var j = ring.count - 1
            for i in ring.indices {
                let (xi, yi) = ring[i], (xj, yj) = ring[j]
                if (yi > y) != (yj > y), x < (xj - xi) * (y - yi) / (yj - yi) + xi { inside.toggle() }
                j = i
            }
            return inside
        }
    }

    public let regions: [Region]

    /// Geofabrik's own index; routing.json's `"extracts"` names a mirror instead.
    public static let standardURL = "https://download.geofabrik.de/index-v1.json"
    static let maxBytes = 64 << 20
    static let maxPoints = 5_000_000

    public init(regions: [Region]) { self.regions = regions }

    public static func read(_ data: Data) -> Result<GeofabrikIndex, RouteError> {
        guard data.count <= maxBytes else { return .failure(.unreadable(tr("the extracts' index is larger than 64 MiB"))) }
        guard let json = try? JSONValue.parse(data), let features = json["features"]?.array else {
            // TRANSLATORS: Geofabrik is a name; a GeoJSON FeatureCollection is a kind of file.
            return .failure(.unreadable(tr("not Geofabrik's index of extracts (a GeoJSON FeatureCollection)")))
        }
        var regions: [Region] = []
        var points = 0
        for f in features {
            guard let p = f["properties"]?.object, let id = p["id"]?.string, !id.isEmpty,
                  let pbf = p["urls"]?["pbf"]?.string, pbf.hasPrefix("http://") || pbf.hasPrefix("https://"),
                  let geometry = f["geometry"], let coordinates = geometry["coordinates"]?.array else { continue }
            var polygons: [[[(Double, Double)]]] = []
            let parts: [JSONValue]
            switch geometry["type"]?.string {
            case "Polygon": parts = [.array(coordinates)]
            case "MultiPolygon": parts = coordinates
            default: continue
            }
            for part in parts {
                var rings: [[(Double, Double)]] = []
                for ring in part.array ?? [] {
                    var r: [(Double, Double)] = []
                    for c in ring.array ?? [] {
                        guard let a = c.array, a.count >= 2, let lon = a[0].number, let lat = a[1].number,
                              lon.isFinite, lat.isFinite, abs(lon) <= 180, abs(lat) <= 90 else { continue }
                        r.append((lon, lat))
                    }
                    points += r.count
                    guard points <= maxPoints else { return .failure(.unreadable(tr("the extracts' index has more than %@ points", maxPoints))) }
                    if r.count >= 3 { rings.append(r) }
                }
                if !rings.isEmpty { polygons.append(rings) }
            }
            guard !polygons.isEmpty else { continue }
            regions.append(Region(id: String(id.prefix(100)), name: String((p["name"]?.string ?? id).prefix(200)),
                                  parent: p["parent"]?.string.map { String($0.prefix(100)) }, pbf: pbf, polygons: polygons))
        }
        guard !regions.isEmpty else { return .failure(.unreadable(tr("the extracts' index names no region"))) }
        return .success(GeofabrikIndex(regions: regions))
    }

    /// The smallest region whose outline holds the box (west, south, east, north) whole: a
    /// grid of points over it, its edges every sixteenth (a border that bends into the box
    /// between two points is missed only where it bends less than that). Nil when none does,
    /// and for a box across the antimeridian (west > east), which no extract is cut along.
    public func smallestRegion(west: Double, south: Double, east: Double, north: Double) -> Region? {
        guard west <= east, south <= north else { return nil }
        let steps = 16
        let xs = (0...steps).map { west + (east - west) * Double($0) / Double(steps) }
        let ys = (0...steps).map { south + (north - south) * Double($0) / Double(steps) }
        // Only regions whose outline's box holds the box are tested point by point, smallest first.
        let near = regions.filter { r in
            r.polygons.contains { rings in
                guard let outer = rings.first else { return false }
                return outer.contains { $0.0 <= west } && outer.contains { $0.0 >= east } && outer.contains { $0.1 <= south } && outer.contains { $0.1 >= north }
            }
        }
        return near.map { ($0, $0.size) }.sorted { $0.1 < $1.1 }.map(\.0)
            .first { r in xs.allSatisfy { x in ys.allSatisfy { y in r.contains(x, y) } } }
    }
}
