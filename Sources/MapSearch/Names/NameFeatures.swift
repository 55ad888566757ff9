import FoundationEssentials
import Glibc
import MapCore
import MapGeometry
import Platform

/// What the search index holds once every tile is read: whole streets (the pieces of one
/// name that lie near each other, merged across tiles, with their line), named points, and
/// addresses (a house number and the street nearest to it), each with the district or town
/// it lies in. Pure: the builder stages each tile's names (`staged`) and makes the rows from
/// them (`mergeStreets`, `AreaFinder`).
public struct NameFeature: Sendable, Equatable {
    public var names: TileNames.Names
    public var category: SearchResult.Category
    public var what: String
    public var area: String?
    public var coordinate: Coordinate
    /// A street's pieces.
    public var line: [[Coordinate]]

    /// A street's extent (for what-is-here), else the point's.
    public var bounds: (south: Double, west: Double, north: Double, east: Double) {
        let c = coordinate
        return NameFeatures.extent(line + [[c]]) ?? (c.latitude, c.longitude, c.latitude, c.longitude)
    }

    public static func == (a: NameFeature, b: NameFeature) -> Bool {
        a.names == b.names && a.category == b.category && a.what == b.what && a.area == b.area && a.coordinate == b.coordinate && a.line == b.line
    }
}

public enum NameFeatures {
    /// Pieces of one name farther apart than this are two streets (two towns' Kirkkokatu).
    static let joinMetres = 250.0
    /// A house number takes the name of the nearest street within this.
    static let addressMetres = 120.0
    /// Features of a street line kept to about this (the tiles' own precision is ~0.3 m).
    static let lineToleranceMetres = 1.0

    /// What one tile gives the index to stage: its street pieces simplified to a metre (what
    /// the index keeps of a line), and its named points with its house numbers joined to the
    /// tile's own streets (which reach past its edge by the tile's buffer), so that a city's
    /// streets need never be held at once. The builder merges the pieces across tiles later,
    /// name by name (`mergeStreets`), and gives every row its district (`AreaFinder`).
    public static func staged(_ names: TileNames) -> (segments: [TileNames.Segment], points: [TileNames.Point]) {
        let tolerance = lineToleranceMetres / 111_000
        let segments = names.segments.map { s in
            TileNames.Segment(names: s.names, kind: s.kind, points: simplify(s.points, tolerance: tolerance))
        }
        let addresses = addresses(names.houseNumbers, streets: mergeStreets(names.segments))
        return (segments, names.points + addresses.map { TileNames.Point(names: $0.names, category: .address, what: $0.what, coordinate: $0.coordinate) })
    }

    /// The grid cell of `c` (cells `size` degrees square), `dy`, `dx` cells away: the key every
    /// grid here (street pieces, streets for addresses, districts) files things under.
    static func cell(_ c: Coordinate, size: Double, _ dy: Int64 = 0, _ dx: Int64 = 0) -> Int64 {
        (Int64(saturating: (c.latitude / size).rounded(.down)) + dy) << 32 ^ (Int64(saturating: (c.longitude / size).rounded(.down)) + dx) & 0xFFFF_FFFF
    }

    // MARK: - Streets

    /// Pieces of one name merged into streets: pieces within `joinMetres` of each other are
    /// one street (a grid of cells that size finds the neighbours, not every pair).
    public static func mergeStreets(_ segments: [TileNames.Segment]) -> [NameFeature] {
        var byName: [String: [Int]] = [:]
        for (i, s) in segments.enumerated() where s.points.allSatisfy(\.isValid) {
            byName[s.names.name, default: []].append(i)
        }
        var out: [NameFeature] = []
        for name in byName.keys.sorted() {
            let members = byName[name]!
            for cluster in clusters(members.map { segments[$0].points }) {
                let pieces = cluster.map { segments[members[$0]] }
                if let street = street(pieces) { out.append(street) }
            }
        }
        return out
    }

    /// Groups of lines that lie within `joinMetres` of one another (through others).
    static func clusters(_ lines: [[Coordinate]]) -> [[Int]] {
        var parent = Array(lines.indices)
        func find(_ i: Int) -> Int {
            var i = i
            while parent[i] != i { parent[i] = parent[parent[i]]; i = parent[i] }
            return i
        }
        // Cells of joinMetres of latitude, and as many degrees of longitude (narrower in
        // metres away from the equator: at 60° pieces join within about half the distance
        // east–west, which still joins a street's pieces, which touch).
        let cell = joinMetres / 111_000
        // One line per cell stands for all in it (they are joined already): a line is joined
        // to at most nine others, however many pieces of one name a tile piles up.
        var grid: [Int64: Int] = [:]
        for (i, line) in lines.enumerated() {
            var cells = Set<Int64>()
            for c in line { for dy in Int64(-1)...1 { for dx in Int64(-1)...1 { cells.insert(Self.cell(c, size: cell, dy, dx)) } } }
            for key in cells {
                if let j = grid[key] { let a = find(i), b = find(j); if a != b { parent[a] = b } }
            }
            for c in line {
                let key = Self.cell(c, size: cell)
                if grid[key] == nil { grid[key] = i }
            }
        }
        var groups: [Int: [Int]] = [:]
        for i in lines.indices { groups[find(i), default: []].append(i) }
        return groups.values.sorted { $0[0] < $1[0] }
    }

    /// One street from its pieces: the best class names it, the point of its line nearest the
    /// middle of its extent marks it.
    static func street(_ pieces: [TileNames.Segment]) -> NameFeature? {
        var others: [String] = []
        for p in pieces { for o in p.names.others where !others.contains(o) && others.count < TileNames.maxOtherNames { others.append(o) } }
        let kind = pieces.map(\.kind).min { rank($0) < rank($1) } ?? ""
        let tolerance = lineToleranceMetres / 111_000
        let line = pieces.map { simplify($0.points, tolerance: tolerance) }.filter { $0.count >= 2 }
        guard let first = pieces.first, !line.isEmpty else { return nil }
        guard let (s, w, n, e) = extent(line) else { return nil }
        let middle = Coordinate(latitude: (s + n) / 2, longitude: (w + e) / 2)
        var best = middle, bestD = Double.infinity
        for part in line { for c in part { let d = flatDistance(c, middle); if d < bestD { best = c; bestD = d } } }
        return NameFeature(names: TileNames.Names(name: first.names.name, others: others), category: .street,
                           what: what(kind), area: nil, coordinate: best, line: line)
    }

    /// The latitudes and longitudes lines span, nil for no point.
    static func extent(_ lines: [[Coordinate]]) -> (south: Double, west: Double, north: Double, east: Double)? {
        guard let first = lines.lazy.compactMap(\.first).first else { return nil }
        var s = first.latitude, n = s, w = first.longitude, e = w
        for part in lines { for c in part { s = min(s, c.latitude); n = max(n, c.latitude); w = min(w, c.longitude); e = max(e, c.longitude) } }
        return (s, w, n, e)
    }

    /// Lower is a bigger road: the class a street is called by.
    static func rank(_ kind: String) -> Int {
        ["motorway", "trunk", "primary", "secondary", "tertiary", "minor", "residential", "service", "pedestrian",
         "track", "path", "cycleway", "footway", "rail", "transit"].firstIndex(of: kind) ?? 20
    }

    static func what(_ kind: String) -> String {
        switch kind {
        case "motorway", "trunk": return "motorway"
        case "service": return "service road"
        case "track": return "track"
        case "path", "footway", "cycleway", "bridleway", "steps": return "path"
        case "pedestrian": return "pedestrian street"
        case "rail", "transit": return "railway"
        default: return "street"
        }
    }

    /// Douglas–Peucker on latitude/longitude: a street's line at a metre's precision.
    static func simplify(_ points: [Coordinate], tolerance: Double) -> [Coordinate] {
        guard points.count > 2 else { return points }
        let mapped = points.map { MapPoint(x: $0.longitude, y: $0.latitude) }
        return Simplify.douglasPeucker(mapped, tolerance: tolerance).map { Coordinate(latitude: $0.y, longitude: $0.x) }
    }

    /// Metres between two near points, on a flat earth (enough within a town).
    static func flatDistance(_ a: Coordinate, _ b: Coordinate) -> Double {
        let k = cos(a.latitude * .pi / 180)
        let dy = (a.latitude - b.latitude) * 111_195, dx = (a.longitude - b.longitude) * 111_195 * k
        return (dx * dx + dy * dy).squareRoot()
    }

    /// Metres from `p` to the segment a–b (flat).
    static func segmentDistance(_ p: Coordinate, _ a: Coordinate, _ b: Coordinate) -> Double {
        let k = cos(p.latitude * .pi / 180)
        let px = p.longitude * k, py = p.latitude, ax = a.longitude * k, ay = a.latitude, bx = b.longitude * k, by = b.latitude
        let dx = bx - ax, dy = by - ay
        let len2 = dx * dx + dy * dy
        let t = len2 > 0 ? max(0, min(1, ((px - ax) * dx + (py - ay) * dy) / len2)) : 0
        let cx = ax + t * dx - px, cy = ay + t * dy - py
        return (cx * cx + cy * cy).squareRoot() * 111_195
    }

    // MARK: - Addresses

    /// House numbers with the name of the nearest street (roads before paths: a number is
    /// on the street a car reaches it by); numbers with no street near are left out.
    static func addresses(_ numbers: [TileNames.HouseNumber], streets: [NameFeature]) -> [NameFeature] {
        let cell = addressMetres / 111_000
        var grid: [Int64: [(street: Int, a: Coordinate, b: Coordinate)]] = [:]
        func key(_ c: Coordinate, _ dy: Int64 = 0, _ dx: Int64 = 0) -> Int64 { Self.cell(c, size: cell, dy, dx) }
        for (i, s) in streets.enumerated() where s.what != "railway" {
            for part in s.line where part.count >= 2 {
                for j in 1..<part.count {
                    // A segment longer than a cell is entered in each cell along it.
                    let steps = max(1, min(1000, Int(saturating: (flatDistance(part[j - 1], part[j]) / addressMetres).rounded(.up))))
                    var keys = Set<Int64>()
                    for k in 0...steps {
                        let t = Double(k) / Double(steps)
                        keys.insert(key(Coordinate(latitude: part[j - 1].latitude + (part[j].latitude - part[j - 1].latitude) * t,
                                                   longitude: part[j - 1].longitude + (part[j].longitude - part[j - 1].longitude) * t)))
                    }
                    for k in keys { grid[k, default: []].append((i, part[j - 1], part[j])) }
                }
            }
        }
        var out: [NameFeature] = []
        var seen = Set<String>()
        for n in numbers where n.coordinate.isValid {
            var best: Int?, bestD = Double.infinity
            for dy in -1...1 {
                for dx in -1...1 {
                    for s in grid[key(n.coordinate, Int64(dy), Int64(dx))] ?? [] {
                        // Paths count as further than they are: the road is the address's.
                        let penalty = ["path", "service road", "pedestrian street"].contains(streets[s.street].what) ? 40.0 : 0
                        let d = segmentDistance(n.coordinate, s.a, s.b) + penalty
                        if d < bestD { bestD = d; best = s.street }
                    }
                }
            }
            guard let best, bestD <= addressMetres else { continue }
            let street = streets[best].names
            let name = street.name + " " + n.number
            guard seen.insert(name).inserted else { continue }
            out.append(NameFeature(names: TileNames.Names(name: name, others: street.others.map { $0 + " " + n.number }),
                                   category: .address, what: "address", area: nil, coordinate: n.coordinate, line: []))
        }
        return out
    }
}

/// Which district or town a point lies in: the nearest district or neighbourhood within a
/// few kilometres, else the nearest village, town or city within twenty. Places are kept in
/// cells of a tenth of a degree, so that a row asks the few around it, not a country's.
public struct AreaFinder: Sendable {
    private let near: [Int64: [TileNames.Point]], far: [Int64: [TileNames.Point]]
    static let cell = 0.1

    public init(_ places: [TileNames.Point]) {
        var near: [Int64: [TileNames.Point]] = [:], far: [Int64: [TileNames.Point]] = [:]
        for p in places where p.coordinate.isValid {
            let key = Self.key(p.coordinate)
            switch p.category {
            case .suburb, .neighbourhood: near[key, default: []].append(p)
            case .city, .town, .village: far[key, default: []].append(p)
            default: continue
            }
        }
        self.near = near
        self.far = far
    }

    static func key(_ c: Coordinate, _ dy: Int64 = 0, _ dx: Int64 = 0) -> Int64 { NameFeatures.cell(c, size: cell, dy, dx) }

    public func area(of c: Coordinate, except name: String, townOnly: Bool = false) -> String? {
        guard c.isValid else { return nil }
        // Cells reached: a tenth of a degree of latitude is 11 km; of longitude, less.
        func nearest(_ cells: [Int64: [TileNames.Point]], within metres: Double) -> String? {
            let dy = Int64(saturating: (metres / 11_000).rounded(.up))
            let dx = Int64(saturating: min(1800, (metres / (11_000 * max(cos(c.latitude * .pi / 180), 0.01))).rounded(.up)))
            var best: String?, bestD = metres
            for y in -dy...dy {
                for x in -dx...dx {
                    for p in cells[Self.key(c, y, x)] ?? [] where p.names.name != name {
                        let d = NameFeatures.flatDistance(c, p.coordinate)
                        if d < bestD { bestD = d; best = p.names.name }
                    }
                }
            }
            return best
        }
        return (townOnly ? nil : nearest(near, within: 3000)) ?? nearest(far, within: 20_000)
    }
}
