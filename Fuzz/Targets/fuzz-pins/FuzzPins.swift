import FoundationEssentials
import Glibc
import MapData
import Platform

// The pins file as the app reads it at start (read-only here, so nothing is moved aside).
func fuzzPins(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let path = "/tmp/meridian-fuzz-\(getpid()).geojson"
    guard FileIO.writeBytes(UnsafeRawBufferPointer(start: start, count: count), to: path) else { return 0 }
    defer { unlink(path) }
    let loaded = PinFile(url: URL(fileURLWithPath: path)).load(readOnly: true)
    // What loads must save and load again as the same pins.
    if !loaded.pins.isEmpty {
        let copy = PinFile(url: URL(fileURLWithPath: path + ".out"))
        defer { unlink(path + ".out") }
        if (try? copy.save(loaded.pins)) != nil {
            let again = copy.load(readOnly: true)
            precondition(again.pins == loaded.pins, "pins changed through a save and load")
        }
    }
    return 0
}
