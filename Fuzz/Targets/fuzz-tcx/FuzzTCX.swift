import FoundationEssentials
import FuzzSupport
import MapCore
import MapData
import MapGeometry

// TCX files as the desktop opens them, read as the window reads them (Fuzz/Support); and read
// directly: what is read must hold together (segments within the points, a column per point,
// positions in range), and the file cut short at an offset the input picks (its first byte)
// must keep what came before the cut: its points and course points begin those of the whole.
func fuzzTCX(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    checkTrackFile(UnsafeRawBufferPointer(start: start, count: count), ext: "tcx")
    guard count > 0 else { return 0 }
    let data = Data(bytes: start, count: count)
    let reader = TCXReader(file: "fuzz.tcx")
    guard let whole = try? reader.read(data) else { return 0 }
    check(whole)
    let cut = count * Int(start.load(as: UInt8.self)) / 256
    guard let part = try? reader.read(data.prefix(cut)) else { return 0 }
    check(part)
    let (wp, pp) = (positions(whole), positions(part))
    precondition(pp.count <= wp.count && zip(pp, wp).allSatisfy(==), "a file cut at \(cut) reads points the whole does not")
    precondition(part.waypoints.count <= whole.waypoints.count && zip(part.waypoints, whole.waypoints).allSatisfy(==),
                 "a file cut at \(cut) reads course points the whole does not")
    return 0
}

private func check(_ doc: GeoDocument) {
    precondition(doc.problems.count <= 1000, "problems without bound")
    for t in doc.tracks {
        let p = t.points, n = p.count
        precondition(n > 0 && p.longitude.count == n && p.elevation.count == n && p.time.count == n, "columns of different lengths")
        for column in [p.heartRate, p.cadence, p.power] { precondition(column.isEmpty || column.count == n, "an extension column not one per point") }
        var end = 0
        for s in t.segments {
            precondition(s.lowerBound >= end && s.upperBound <= n && !s.isEmpty, "segments out of order or off the points")
            end = s.upperBound
        }
        for k in 0..<n { precondition(Coordinate(latitude: p.latitude[k], longitude: p.longitude[k]).isValid, "a position out of range") }
    }
    for w in doc.waypoints { precondition(Coordinate(latitude: w.latitude, longitude: w.longitude).isValid, "a course point out of range") }
}

/// Every point of every track, in order, as exact bits.
private func positions(_ doc: GeoDocument) -> [UInt64] {
    doc.tracks.flatMap { t in zip(t.points.latitude, t.points.longitude).flatMap { [$0.0.bitPattern, $0.1.bitPattern] } }
}
