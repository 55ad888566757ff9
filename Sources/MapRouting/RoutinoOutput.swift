import FoundationEssentials
import MapCore
import MapGeometry
import Platform

/// Reads what `routino-router --output-text --output-text-all` writes: the text file's
/// junctions become the steps (Routino's turn, -4…+4 in eighths of a circle, and the road
/// followed from there), the all-nodes file every point of the line and the distances and
/// times to the metre and the second. Both are tab-separated, '#' lines a header; distances
/// are kilometres and times minutes. Hostile bytes get a `RouteError`, never a trap.
public enum RoutinoOutput {
    static let maxBytes = 64 << 20
    static let maxPoints = 2_000_000

    /// One line of either file: where, and the columns after the two coordinates.
    struct Row {
        let at: Coordinate
        let fields: [Substring]
    }

    public static func read(text: Data, all: Data, request: RouteRequest, engine: String = "Routino",
                            credit: String = "© OpenStreetMap contributors") -> Result<Route, RouteError> {
        guard text.count <= maxBytes, all.count <= maxBytes else { return .failure(.unreadable("output larger than 64 MiB")) }
        guard let junctions = rows(text), let nodes = rows(all) else { return .failure(.unreadable("a line is not Routino's text output")) }
        guard junctions.count >= 2, nodes.count >= 2 else { return .failure(.unreadable("fewer than two points")) }
        guard nodes.count <= maxPoints else { return .failure(.unreadable("more than \(maxPoints) points")) }

        // The line, and metres and seconds along it from the all-nodes file (its columns after
        // the coordinates: node, type, segment km, segment min, total km, total min, …).
        var geometry: [Coordinate] = []
        geometry.reserveCapacity(nodes.count)
        var along: [Double] = [], time: [Double] = []
        var metres = 0.0, seconds = 0.0
        for (i, row) in nodes.enumerated() {
            if i > 0 {
                guard row.fields.count >= 4, let km = number(row.fields[2]), let min = number(row.fields[3]) else {
                    return .failure(.unreadable("a node without its segment's distance and time"))
                }
                metres += km * 1000
                seconds += min * 60
            }
            geometry.append(row.at)
            along.append(metres)
            time.append(seconds)
        }

        // The steps: each junction's turn and the road taken from it; its distance and time
        // are those of the line up to the next junction.
        var indices: [Int] = []
        var cursor = 0
        for j in junctions {
            cursor = LineIndex.of(j.at, in: geometry, from: cursor)
            indices.append(cursor)
        }
        var steps: [RouteStep] = []
        for (k, j) in junctions.enumerated() {
            // Columns after the coordinates: section km, section min, total km, total min, type, turn, bearing, highway.
            let type = j.fields.count > 4 ? j.fields[4].trimmed : ""
            let turn = j.fields.count > 5 ? Int(j.fields[5].trimmed) : nil
            let road = j.fields.count > 7 ? roadName(j.fields[7]) : nil
            let maneuver: Maneuver
            if k == 0 { maneuver = .depart }
            else if k == junctions.count - 1 { maneuver = .arrive }
            else if type.hasPrefix("Waypt") { maneuver = .via }
            else { maneuver = Self.maneuver(turn: turn ?? 0) }
            let here = indices[k], next = k + 1 < indices.count ? indices[k + 1] : here
            steps.append(RouteStep(maneuver: maneuver, road: maneuver == .arrive ? nil : road,
                                   distance: max(0, along[next] - along[here]), duration: max(0, time[next] - time[here]),
                                   at: j.at, index: here))
        }
        return .success(Route(request: request, geometry: geometry, steps: steps, distance: metres, duration: seconds,
                              engine: engine, credit: credit))
    }

    /// Routino's turn (eighths of a circle, + to the right) as a maneuver.
    static func maneuver(turn: Int) -> Maneuver {
        switch turn {
        case 0: .straight
        case 1: .slightRight
        case 2: .right
        case 3: .sharpRight
        case -1: .slightLeft
        case -2: .left
        case -3: .sharpLeft
        default: .uTurn
        }
    }

    /// A road's name as people read it: Routino's "(null)" for a way it cannot name is none.
    static func roadName(_ field: Substring) -> String? {
        let s = field.trimmed
        guard !s.isEmpty, s != "(null)" else { return nil }
        return String(s.prefix(200))
    }

    /// The data lines, or nil when one is not "lat<TAB>lon<TAB>…" with a place on Earth.
    static func rows(_ data: Data) -> [Row]? {
        let text = String(decoding: data, as: UTF8.self)
        var out: [Row] = []
        for line in text.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }) {
            if line.hasPrefix("#") || line.allSatisfy({ $0 == " " || $0 == "\t" }) { continue }
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count >= 2, let lat = number(fields[0]), let lon = number(fields[1]),
                  abs(lat) <= 90, abs(lon) <= 180 else { return nil }
            out.append(Row(at: Coordinate(latitude: lat, longitude: lon), fields: Array(fields.dropFirst(2))))
            if out.count > maxPoints { return nil }
        }
        return out
    }

    /// A number from a field such as " 0.116 km", "0.2 min", " 64": the first word.
    static func number(_ field: Substring) -> Double? {
        guard let word = field.split(separator: " ").first, word.count < 32, let n = Double(word), n.isFinite, abs(n) < 1e9 else { return nil }
        return n
    }
}
