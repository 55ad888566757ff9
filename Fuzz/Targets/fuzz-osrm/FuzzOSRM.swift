import FoundationEssentials
import MapCore
import MapGeometry
import MapRouting

// An online routing service's answer (OSRM's JSON, or anything a server sends): whatever is
// read must be a route the window can draw and list, whatever is not a RouteError that says
// so. The same bytes are also a routing.json, and an index of extracts (Geofabrik's).
func fuzzOSRM(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let data = Data(bytes: start, count: count)
    let request = RouteRequest(waypoints: [Coordinate(latitude: 60.169, longitude: 24.946), Coordinate(latitude: 60.1735, longitude: 24.947)],
                               mode: .car)
    switch OSRMAnswer.read(data, request: request, engine: "OSRM", credit: "c") {
    case let .success(route): precondition(route.isWellFormed, "a route that is not one: \(route.geometry.count) points, \(route.steps.count) steps")
    case let .failure(e): precondition(!e.description.isEmpty)
    }
    if let config = try? RoutingConfig(reading: data) {
        precondition(config.minimumInterval.isFinite && config.minimumInterval >= 0 && config.minimumInterval <= 3600)
        precondition(config.url.lowercased().hasPrefix("http") && config.credit.count <= 200)
        precondition(config.profiles.values.allSatisfy { !$0.isEmpty && !$0.contains("/") })
    }
    if case let .success(index) = GeofabrikIndex.read(data) {
        precondition(!index.regions.isEmpty && index.regions.allSatisfy { $0.pbf.hasPrefix("http") && !$0.id.isEmpty })
        _ = index.smallestRegion(west: 24.9, south: 60.1, east: 25, north: 60.2)
    }
    return 0
}
