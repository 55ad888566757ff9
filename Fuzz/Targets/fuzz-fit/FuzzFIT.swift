import FoundationEssentials
import FuzzSupport
import MapCore
import MapData

// FIT files as the desktop opens them, read as the window reads them (Fuzz/Support); and read
// with the reader directly, whose tracks must hold together: columns as long as the points,
// segments that tile each track, positions on the globe.
func fuzzFIT(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    checkTrackFile(UnsafeRawBufferPointer(start: start, count: count), ext: "fit")
    let data = Data(bytes: start, count: count)
    guard let (doc, activity) = try? FITReader(file: "fuzz.fit").readActivity(data) else { return 0 }
    var points = 0
    for t in doc.tracks {
        let p = t.points
        points += p.count
        precondition(p.count > 0, "an empty track")
        precondition(p.longitude.count == p.count && p.elevation.count == p.count && p.time.count == p.count, "columns of other lengths")
        for column in [p.heartRate.count, p.cadence.count, p.power.count, p.temperature.count] {
            precondition(column == 0 || column == p.count, "an extension column of another length")
        }
        precondition(t.segments.first?.lowerBound == 0 && t.segments.last?.upperBound == p.count, "segments that leave points out")
        precondition(zip(t.segments, t.segments.dropFirst()).allSatisfy { $0.upperBound == $1.lowerBound && !$0.isEmpty }, "segments that do not follow each other")
        precondition(zip(p.latitude, p.longitude).allSatisfy { abs($0) <= 90 && abs($1) <= 180 }, "a position off the globe")
    }
    precondition(points <= activity.records, "more points than records")
    precondition(doc.waypoints.allSatisfy { abs($0.latitude) <= 90 && abs($0.longitude) <= 180 }, "a waypoint off the globe")
    return 0
}
