import FoundationEssentials
import MapCore
import MapGeometry
import MapRouting

// What routino-router wrote (a damaged database, another version, a disk that lied): its text,
// all-nodes and HTML outputs, here one input cut in three at the first two 0x1E bytes. Whatever
// is read must be a route the window can draw and list, whatever is not a RouteError.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRoutino(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let parts = Data(bytes: start, count: count).split(separator: 0x1E, maxSplits: 2, omittingEmptySubsequences: false).map { Data($0) }
    let text = parts[0], all = parts.count > 1 ? parts[1] : Data(), html = parts.count > 2 ? parts[2] : nil
    let request = RouteRequest(waypoints: [Coordinate(latitude: 60.169, longitude: 24.946), Coordinate(latitude: 60.1735, longitude: 24.947)],
                               mode: .foot)
    switch RoutinoOutput.read(text: text, all: all, html: html, request: request) {
    case let .success(route):
        precondition(route.geometry.count >= 2 && route.geometry.allSatisfy(\.isValid))
        precondition(route.distance.isFinite && route.distance >= 0 && route.duration.isFinite && route.duration >= 0)
        var last = 0
        for s in route.steps {
            precondition(route.geometry.indices.contains(s.index) && s.index >= last, "step at \(s.index) of \(route.geometry.count)")
            last = s.index
            precondition(s.distance.isFinite && s.distance >= 0 && s.duration.isFinite && (s.road?.count ?? 0) <= 200)
        }
        _ = route.readableSteps.map(\.instruction)
    case let .failure(e):
        precondition(!e.description.isEmpty)
    }
    return 0
}
