import FuzzSupport

// CSV files as the desktop opens them, read as the window reads them (Fuzz/Support).
func fuzzCSV(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    checkTrackFile(UnsafeRawBufferPointer(start: start, count: count), ext: "csv")
    return 0
}
