import MapGeometry
import Platform

/// Where on a route's line a step is.
enum LineIndex {
    /// How far along the line from the last step a step is looked for: engines put maneuvers
    /// on the line's own vertices, in order, so a step is near; the bound keeps a hostile
    /// answer (many steps off the line) from costing steps × points.
    static let window = 20_000

    /// The line's index of `c` at or after `start`, else the nearest one after `start` within
    /// the window. Steps come in the line's order: a loop back past the start must not pull a
    /// later step back.
    static func of(_ c: Coordinate, in line: [Coordinate], from start: Int) -> Int {
        let first = min(max(start, 0), line.count - 1)
        let end = min(line.count, first + window)
        func d(_ i: Int) -> Double {
            let dLat = line[i].latitude - c.latitude, dLon = line[i].longitude - c.longitude
            return dLat * dLat + dLon * dLon
        }
        if let exact = (first..<end).first(where: { d($0) < 1e-14 }) { return exact }
        return (first..<end).min { d($0) < d($1) } ?? first
    }
}
