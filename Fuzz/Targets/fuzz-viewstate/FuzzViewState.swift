import FoundationEssentials
import Glibc
import MapData
import MapGeometry
import Platform

// view.json as the app restores it at start.
func fuzzViewState(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let path = "/tmp/meridian-fuzz-\(getpid())-view.json"
    guard FileIO.writeBytes(UnsafeRawBufferPointer(start: start, count: count), to: path) else { return 0 }
    defer { unlink(path) }
    if let v = try? ViewState.load(from: URL(fileURLWithPath: path)) {
        precondition(v.coordinate.isValid && v.zoom.isFinite, "an invalid view was accepted")
    }
    return 0
}
