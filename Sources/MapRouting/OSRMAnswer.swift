import FoundationEssentials
import MapCore
import MapGeometry
import Platform

/// Reads an OSRM route service answer (HTTP API v5, `geometries=geojson&steps=true`): the
/// first route's line, its steps as maneuvers, its distance and time. Hostile bytes get a
/// `RouteError`, never a trap: sizes are bounded, numbers checked, coordinates in range.
public enum OSRMAnswer {
    /// No answer worth reading is larger (a continent-wide route is a few MiB).
    public static let maxBytes = 16 << 20
    static let maxPoints = 1_000_000
    static let maxSteps = 100_000

    public static func read(_ data: Data, request: RouteRequest, engine: String, credit: String) -> Result<Route, RouteError> {
        // TRANSLATORS: why an answer is not a route; said in brackets after "the routing service's answer is not a route".
        guard data.count <= maxBytes else { return .failure(.unreadable(tr("larger than %@ MiB", maxBytes >> 20))) }
        guard let json = try? JSONValue.parse(data), let top = json.object else { return .failure(.unreadable(tr("not JSON"))) }
        if let failure = error(top, request: request) { return .failure(failure) }
        guard let route = top["routes"]?.array?.first?.object else { return .failure(.unreadable(tr("no routes"))) }
        guard let line = route["geometry"]?["coordinates"]?.array else {
            // TRANSLATORS: geometries=geojson is a parameter of the request: keep it as it is.
            return .failure(.unreadable(tr("the route has no GeoJSON line (geometries=geojson)")))
        }
        guard line.count >= 2, line.count <= maxPoints else { return .failure(.unreadable(tr("a line of %@ points", line.count))) }
        var geometry: [Coordinate] = []
        geometry.reserveCapacity(line.count)
        for p in line {
            // TRANSLATORS: [lon, lat] is the form a point takes: keep it as it is.
            guard let c = coordinate(p) else { return .failure(.unreadable(tr("a point of the line is not [lon, lat]"))) }
            geometry.append(c)
        }
        guard let distance = metres(route["distance"]), let duration = metres(route["duration"]) else {
            return .failure(.unreadable(tr("no distance or duration")))
        }
        let legs = route["legs"]?.array ?? []
        var steps: [RouteStep] = []
        var cursor = 0
        for (l, leg) in legs.enumerated() {
            let isLast = l == legs.count - 1
            for s in leg["steps"]?.array ?? [] {
                guard steps.count < maxSteps else { return .failure(.unreadable(tr("more than %@ steps", maxSteps))) }
                guard let m = s["maneuver"]?.object, let at = m["location"].flatMap(coordinate) else {
                    return .failure(.unreadable(tr("a step without a maneuver location")))
                }
                guard let maneuver = maneuver(m, lastLeg: isLast, firstLeg: l == 0) else { continue }
                let name = s["name"]?.string.map { String($0.trimmed.prefix(200)) }
                let ref = s["ref"]?.string.map { String($0.trimmed.prefix(40)) }
                let road = [name, ref].compactMap { $0 }.first { !$0.isEmpty }
                cursor = LineIndex.of(at, in: geometry, from: cursor)
                steps.append(RouteStep(maneuver: maneuver, road: road, distance: metres(s["distance"]) ?? 0,
                                       duration: metres(s["duration"]) ?? 0, at: at, index: cursor))
            }
        }
        return .success(Route(request: request, geometry: geometry, steps: steps, distance: distance, duration: duration,
                              engine: engine, credit: credit, online: true))
    }

    /// The failure an answer states (`code` other than "Ok"), or nil for a route.
    static func error(_ top: [String: JSONValue], request: RouteRequest) -> RouteError? {
        // TRANSLATORS: "code" is the name of an entry in the answer: keep it as it is.
        guard let code = top["code"]?.string else { return .unreadable(tr("no \"code\"")) }
        if code == "Ok" { return nil }
        let message = top["message"]?.string.map { String($0.prefix(200)) }
        switch code {
        case "NoRoute": return .noRoute
        case "NoSegment":
            // "Could not find a matching segment for coordinate 1": counted from 0.
            if let m = message, let n = m.split(separator: " ").last.flatMap({ Int($0) }), request.waypoints.indices.contains(n) {
                return .noRoadNear(request.waypoints[n], meters: 1000)
            }
            // TRANSLATORS: %@ is the routing service's own message (in English).
            guard let message else { return .failed(tr("no road near one of the points")) }
            return .failed(tr("no road near one of the points (%@)", message))
        default:
            // TRANSLATORS: %1$@ is the routing service's code for a failure (NoTable, TooBig), %2$@ its own message (in English).
            guard let message else { return .failed(tr("the routing service said %@", code.prefix(40))) }
            return .failed(tr("the routing service said %1$@: %2$@", code.prefix(40), message))
        }
    }

    /// What an OSRM maneuver means here; nil for one that is no decision (a roundabout's exit,
    /// a notification), whose way is folded into the step before.
    static func maneuver(_ m: [String: JSONValue], lastLeg: Bool, firstLeg: Bool) -> Maneuver? {
        let type = m["type"]?.string ?? ""
        let modifier = m["modifier"]?.string ?? "straight"
        switch type {
        case "depart": return firstLeg ? .depart : nil
        case "arrive": return lastLeg ? .arrive : .via
        case "roundabout", "rotary", "roundabout turn":
            let exit = m["exit"]?.number.map { Int(saturating: $0) } ?? 0
            return .roundabout(exit: (0...99).contains(exit) ? exit : 0)
        case "exit roundabout", "exit rotary": return nil
        case "notification", "use lane": return .straight
        default:
            switch modifier {
            case "uturn": return .uTurn
            case "sharp right": return .sharpRight
            case "right": return .right
            case "slight right": return .slightRight
            case "slight left": return .slightLeft
            case "left": return .left
            case "sharp left": return .sharpLeft
            default: return .straight
            }
        }
    }

    static func coordinate(_ v: JSONValue) -> Coordinate? {
        guard let a = v.array, a.count >= 2, let lon = a[0].number, let lat = a[1].number,
              lat.isFinite, lon.isFinite, abs(lat) <= 90, abs(lon) <= 180 else { return nil }
        return Coordinate(latitude: lat, longitude: lon)
    }

    /// A non-negative finite number (metres or seconds), or nil.
    static func metres(_ v: JSONValue?) -> Double? {
        guard let n = v?.number, n.isFinite, n >= 0, n < 1e9 else { return nil }
        return n
    }
}
