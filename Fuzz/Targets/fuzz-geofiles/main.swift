import FoundationEssentials
import Glibc
import MapCore
import MapData
import Platform

// GPX (Meridian's own tokenizer), GeoJSON, CSV and KML (libxml2) files as the desktop opens them; the first
// byte chooses which reader gets the rest. Each is read as the window reads it (lines projected
// with their importance, shapes projected) and for its extent.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGeoFiles(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    guard count > 0 else { return 0 }
    let ext = ["gpx", "geojson", "csv", "kml"][Int(start.load(as: UInt8.self) % 4)]
    let path = "/tmp/meridian-fuzz-\(getpid()).\(ext)"
    guard FileIO.writeBytes(UnsafeRawBufferPointer(start: start + 1, count: count - 1), to: path) else { return 0 }
    defer { unlink(path) }
    if let e = try? GeoFileExtent.read(URL(fileURLWithPath: path)) {
        precondition(e.south <= e.north && e.west <= e.east && e.pointCount > 0, "an extent that is not a box")
    }
    if let (file, _) = try? TrackFile.read(URL(fileURLWithPath: path), color: TrackStyle.palette[0]) {
        let b = file.bounds!
        precondition(b.minX.isFinite && b.minY.isFinite && b.maxX.isFinite && b.maxY.isFinite, "bounds that are not finite")
        for line in file.lines { _ = line.geometry.lines(in: b, tolerance: 0.5 / 4096) }
    }
    return 0
}
