import FuzzSupport

// GEOJSON files as the desktop opens them, read as the window reads them (Fuzz/Support).
func fuzzGeoJSON(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    checkTrackFile(UnsafeRawBufferPointer(start: start, count: count), ext: "geojson")
    return 0
}
