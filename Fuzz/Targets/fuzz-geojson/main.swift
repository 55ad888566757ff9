import FuzzSupport

// GEOJSON files as the desktop opens them, read as the window reads them (Fuzz/Support).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    checkTrackFile(UnsafeRawBufferPointer(start: start, count: count), ext: "geojson")
    return 0
}
