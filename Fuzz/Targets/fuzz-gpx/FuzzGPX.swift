import FoundationEssentials
import FuzzSupport
import MapCore
import MapData

// GPX files as the desktop opens them, read as the window reads them (Fuzz/Support); and read
// in pieces from offsets the input picks (its first byte), which must give exactly what one
// pass gives.
func fuzzGPX(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    checkTrackFile(UnsafeRawBufferPointer(start: start, count: count), ext: "gpx")
    guard count > 1 else { return 0 }
    let data = Data(bytes: start + 1, count: count - 1)
    let seed = Int(start.load(as: UInt8.self))
    let starts = (1...(seed % 4 + 1)).map { ($0 * 7919 * (seed + 1)) % max(data.count, 1) }
    let reader = GPXReader(file: "fuzz.gpx")
    let whole = Result { try reader.read(data) }, pieces = Result { try reader.read(data, piecesStartingAt: starts) }
    precondition(describe(whole) == describe(pieces), "pieces read differently from one pass at \(starts)")
    return 0
}

/// Everything a reading gives, as text (NaN as "nan").
private func describe(_ r: Result<GeoDocument, Error>) -> String {
    guard case let .success(doc) = r else { if case let .failure(e) = r { return "error \(e)" }; return "" }
    var out = ""
    for t in doc.tracks {
        out += "\(t.kind) \(t.name ?? "-") \(String(describing: t.color)) \(t.segments)|"
        let p = t.points
        for k in 0..<p.count { out += "\(p.latitude[k]),\(p.longitude[k]),\(p.elevation[k].bitPattern),\(p.time[k].bitPattern);" }
        out += "\(p.heartRate)\(p.cadence)|"
    }
    for w in doc.waypoints { out += "w \(w.latitude) \(w.longitude) \(w.name ?? "-") \(w.elevation.bitPattern)|" }
    for e in doc.problems { out += "p \(e)|" }
    return out
}
