import FoundationEssentials
import Glibc
import MapCore
import MapPosition
import Platform

// What position sources read from a receiver or gpsd: the bytes split into bounded lines,
// each read as NMEA and as a gpsd report, and the whole as a GeoClue location. Every fix taken must be a real place.
func fuzzPosition(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: start, count: count)
    var lines = LineSplitter(maxLine: 4096)
    // Fed in two pieces, as a socket hands them over.
    let cut = count / 3
    let all = lines.feed(UnsafeRawBufferPointer(rebasing: bytes[0..<cut])) + lines.feed(UnsafeRawBufferPointer(rebasing: bytes[cut...]))
    var nmea = NMEAReader()
    for line in all {
        precondition(line.count <= 4096, "a line longer than the limit was kept")
        for event in [nmea.read(Substring(String(decoding: line, as: UTF8.self))), try? GPSDMessage.parse(line)].compactMap({ $0 }) {
            if case let .fix(f) = event {
                precondition(f.coordinate.isValid && f.accuracy.isFinite && f.accuracy >= 0, "an impossible fix was accepted")
                if let s = f.speed { precondition(s.isFinite && s >= 0) }
            }
        }
    }
    _ = NMEAReplaySource.events(in: Data(bytes))
    // The same bytes as a GeoClue Location's properties, as the system bus would carry them.
    if let f = GeoClueSource.fix(serialized: bytes) {
        precondition(f.coordinate.isValid && f.accuracy.isFinite && f.accuracy >= 0, "an impossible GeoClue fix was accepted")
    }
    return 0
}
