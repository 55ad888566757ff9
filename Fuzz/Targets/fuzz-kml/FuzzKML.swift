import FuzzSupport

// KML files as the desktop opens them, read as the window reads them (Fuzz/Support).
func fuzzKML(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    checkTrackFile(UnsafeRawBufferPointer(start: start, count: count), ext: "kml")
    return 0
}
