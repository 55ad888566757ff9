import FoundationEssentials
import MapCore
import MapData

// A trail journal left on disk (by a run that was killed, or damaged since): what is read
// back must be real places in well-formed segments, and drawing it must not trap.
func fuzzTrail(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    guard let contents = TrailJournal.read(Data(bytes: start, count: count)) else { return 0 }
    let track = contents.track, p = track.points
    var next = 0
    for s in track.segments {
        precondition(s.lowerBound == next && s.upperBound > s.lowerBound, "segments must tile the points")
        next = s.upperBound
    }
    precondition(next == p.count, "every point is in a segment")
    for k in 0..<p.count {
        precondition(abs(p.latitude[k]) <= 90 && abs(p.longitude[k]) <= 180 && p.time[k].isFinite, "an impossible point was read")
    }
    var trail = Trail(restoring: track)
    var layer = TracksLayer()
    layer.follow(&trail)
    _ = GPXWriter.data([trail.track])
    return 0
}
