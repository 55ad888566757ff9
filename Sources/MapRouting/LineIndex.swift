import MapGeometry
import Platform

/// Where on a route's line a step is.
enum LineIndex {
    /// The line's index of `c` at or after `start` (engines put maneuvers on the line's own
    /// vertices), else the nearest one after `start`. Steps come in the line's order: a loop
    /// back past the start must not pull a later step back.
    static func of(_ c: Coordinate, in line: [Coordinate], from start: Int) -> Int {
        let first = min(max(start, 0), line.count - 1)
        func d(_ i: Int) -> Double {
            let dLat = line[i].latitude - c.latitude, dLon = line[i].longitude - c.longitude
            return dLat * dLat + dLon * dLon
        }
        if let exact = (first..<line.count).first(where: { d($0) < 1e-14 }) { return exact }
        return (first..<line.count).min { d($0) < d($1) } ?? first
    }
}
