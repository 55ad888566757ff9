import FoundationEssentials
import MapCore
import MapGeometry
import Platform

/// Reads what `routino-router --output-text --output-text-all` writes: the text file's
/// junctions become the steps (and the road followed from each), the all-nodes file every
/// point of the line, the distances and times to the metre and the second, and the bearings
/// each turn is measured by (the text file's own turn column is off by one for left turns:
/// it truncates (22 + angle) / 45 toward zero, so a right angle to the left reads -1). Both are tab-separated, '#' lines a header; distances
/// are kilometres and times minutes. Roundabouts are named only in the HTML output (asked in
/// English): where a route enters one and which exit it leaves by, read from there when it is
/// given. Hostile bytes get a `RouteError`, never a trap.
public enum RoutinoOutput {
    static let maxBytes = 64 << 20
    static let maxPoints = 2_000_000

    /// One line of either file: where, and the columns after the two coordinates.
    struct Row {
        let at: Coordinate
        let fields: [Substring]
    }

    public static func read(text: Data, all: Data, html: Data? = nil, request: RouteRequest, engine: String = "Routino",
                            credit: String = "© OpenStreetMap contributors") -> Result<Route, RouteError> {
        guard text.count <= maxBytes, all.count <= maxBytes, (html?.count ?? 0) <= maxBytes else { return .failure(.unreadable(tr("output larger than 64 MiB"))) }
        guard let junctions = rows(text), let nodes = rows(all) else { return .failure(.unreadable(tr("a line is not Routino's text output"))) }
        guard junctions.count >= 2, nodes.count >= 2 else { return .failure(.unreadable(tr("fewer than two points"))) }
        guard nodes.count <= maxPoints else { return .failure(.unreadable(tr("more than %@ points", maxPoints))) }

        // The line, and metres and seconds along it from the all-nodes file (its columns after
        // the coordinates: node, type, segment km, segment min, total km, total min, …).
        var geometry: [Coordinate] = []
        geometry.reserveCapacity(nodes.count)
        var along: [Double] = [], time: [Double] = [], bearing: [Double] = []
        var metres = 0.0, seconds = 0.0
        for (i, row) in nodes.enumerated() {
            if i > 0 {
                guard row.fields.count >= 4, let km = number(row.fields[2]), let min = number(row.fields[3]), km >= 0, min >= 0 else {
                    return .failure(.unreadable(tr("a node without its segment's distance and time")))
                }
                metres += km * 1000
                seconds += min * 60
            }
            geometry.append(row.at)
            // The direction of the segment that arrives here, in degrees (none on the first row).
            bearing.append(row.fields.count > 7 ? number(row.fields[7]) ?? .nan : .nan)
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
            let road = j.fields.count > 7 ? roadName(j.fields[7]) : nil
            let here = indices[k], next = k + 1 < indices.count ? indices[k + 1] : here
            let maneuver: Maneuver
            if k == 0 { maneuver = .depart }
            else if k == junctions.count - 1 { maneuver = .arrive }
            else if type.hasPrefix("Waypt") { maneuver = .via }
            else if type == "Mini-RB" { maneuver = .roundabout(exit: 0) }
            else { maneuver = Maneuver.turn(degrees: here + 1 < bearing.count ? bearing[here + 1] - bearing[here] : 0) }
            steps.append(RouteStep(maneuver: maneuver, road: maneuver == .arrive ? nil : road,
                                   distance: max(0, along[next] - along[here]), duration: max(0, time[next] - time[here]),
                                   at: j.at, index: here))
        }
        if let html { steps = foldRoundabouts(steps, Roundabouts(html: html)) }
        return .success(Route(request: request, geometry: geometry, steps: steps, distance: metres, duration: seconds,
                              engine: engine, credit: credit))
    }

    /// Where the HTML output says a route enters a roundabout (the junction numbers, from 1)
    /// and which exit it takes when it leaves one.
    struct Roundabouts {
        var enters: Set<Int> = []
        var exits: [Int: Int] = [:]

        static let ordinals = ["First", "Second", "Third", "Fourth", "Fifth", "Sixth", "Seventh", "Eighth", "Ninth", "Tenth"]

        /// Rows as Routino writes them: `<tr class='c'><td>N: lat lon` opens junction N, its
        /// `<tr class='n'>` says what to do there ("Leave Roundabout, take the <span
        /// class='t'>Third</span> exit …") and its `<tr class='s'>` what to follow from there
        /// ("Follow <span class='h'>Roundabout</span> …").
        init(html: Data) {
            var junction = 0
            for line in String(decoding: html, as: UTF8.self).split(whereSeparator: \.isNewline) {
                if line.hasPrefix("<tr class='c'><td>") {
                    junction = Int(line.dropFirst(18).prefix { $0.isNumber }.prefix(9)) ?? 0
                } else if junction > 0, line.hasPrefix("<tr class='s'>"), line.contains("<span class='h'>Roundabout</span>") {
                    enters.insert(junction)
                } else if junction > 0, line.hasPrefix("<tr class='n'><td>Leave "), let open = line.firstRange(of: "take the <span class='t'>"),
                          let close = line[open.upperBound...].firstRange(of: "</span> exit") {
                    let word = String(line[open.upperBound..<close.lowerBound])
                    exits[junction] = Self.ordinals.firstIndex(of: word).map { $0 + 1 } ?? 0
                }
            }
        }
    }

    /// The steps with each roundabout one step: where the route enters it, "take exit N" onto
    /// the road it leaves by, its length to where the next step is.
    static func foldRoundabouts(_ steps: [RouteStep], _ r: Roundabouts) -> [RouteStep] {
        guard !r.enters.isEmpty else { return steps }
        var out: [RouteStep] = []
        var k = 0
        while k < steps.count {
            var step = steps[k]
            let junction = k + 1
            if r.enters.contains(junction), step.maneuver != .arrive,
               let leave = ((junction + 1)...max(junction + 1, steps.count - 1)).first(where: { r.exits[$0] != nil && $0 <= steps.count - 1 }) {
                let left = steps[leave - 1]
                step.maneuver = .roundabout(exit: r.exits[leave] ?? 0)
                step.road = left.road
                for inside in steps[(k + 1)..<leave] {
                    step.distance += inside.distance
                    step.duration += inside.duration
                }
                out.append(step)
                k = leave
                continue
            }
            out.append(step)
            k += 1
        }
        return out
    }

    /// A road's name as people read it: Routino's "(null)" for a way it cannot name is none.
    static func roadName(_ field: Substring) -> String? {
        let s = field.trimmed
        guard !s.isEmpty, s != "(null)" else { return nil }
        return unnamed(s) ?? String(s.prefix(200))
    }

    /// A road without a name, as Routino calls it in English ("residential road"), in the
    /// reader's language. Routino runs in English (its HTML, read for roundabouts, is read in
    /// English) and has 11 languages; Meridian's catalogues have more.
    static func unnamed(_ s: String) -> String? {
        switch s {
        case "motorway": trc("unnamed road", "motorway")
        case "trunk road": trc("unnamed road", "trunk road")
        case "primary road": trc("unnamed road", "primary road")
        case "secondary road": trc("unnamed road", "secondary road")
        case "tertiary road": trc("unnamed road", "tertiary road")
        case "unclassified road": trc("unnamed road", "unclassified road")
        case "residential road": trc("unnamed road", "residential road")
        case "service road": trc("unnamed road", "service road")
        case "track": trc("unnamed road", "track")
        case "cycleway": trc("unnamed road", "cycleway")
        case "path": trc("unnamed road", "path")
        case "steps": trc("unnamed road", "steps")
        case "ferry": trc("unnamed road", "ferry")
        case "roundabout", "Roundabout": trc("unnamed road", "roundabout")
        default: nil
        }
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
