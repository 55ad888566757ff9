import FoundationEssentials
import MapCore
import MapGeometry
import MapRouting

// What routino-router wrote (a damaged database, another version, a disk that lied): its text,
// all-nodes and HTML outputs, here one input cut in three at the first two 0x1E bytes. Whatever
// is read must be a route the window can draw and list, whatever is not a RouteError.
func fuzzRoutino(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let parts = Data(bytes: start, count: count).split(separator: 0x1E, maxSplits: 2, omittingEmptySubsequences: false).map { Data($0) }
    let text = parts[0], all = parts.count > 1 ? parts[1] : Data(), html = parts.count > 2 ? parts[2] : nil
    let request = RouteRequest(waypoints: [Coordinate(latitude: 60.169, longitude: 24.946), Coordinate(latitude: 60.1735, longitude: 24.947)],
                               mode: .foot)
    switch RoutinoOutput.read(text: text, all: all, html: html, request: request) {
    case let .success(route):
        precondition(route.isWellFormed, "a route that is not one: \(route.geometry.count) points, \(route.steps.count) steps")
    case let .failure(e):
        precondition(!e.description.isEmpty)
    }
    return 0
}
