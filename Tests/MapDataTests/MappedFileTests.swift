import Foundation
import Glibc
@testable import MapData
import MapCore
import Platform
import Testing

/// Large files are mapped, not copied. A file cut short while mapped (another program
/// truncating it) reads as zeros past the cut and is reported, instead of a SIGBUS.
struct MappedFileTests {
    func writeTrack(points: Int, to path: String) throws {
        var s = "<gpx><trk><trkseg>\n"
        for k in 0..<points { s += "<trkpt lat=\"46.\(k)\" lon=\"7\"><ele>\(k % 900)</ele></trkpt>\n" }
        s += "</trkseg></trk></gpx>\n"
        try Data(s.utf8).write(to: URL(fileURLWithPath: path))
    }

    @Test func aLargeFileIsMappedAndReadsAsTheFile() throws {
        let path = NSTemporaryDirectory() + "mapped-\(getpid()).gpx"
        defer { unlink(path) }
        try writeTrack(points: 60_000, to: path)
        let mapped = try FileIO.readOrMap(path, mapFrom: 1 << 20)
        let copied = try FileIO.read(path)
        #expect(mapped.count > 1 << 20 && mapped == copied)
        #expect(!FileIO.changedWhileMapped(mapped))
        // Pages let go of after reading come back from the file when touched again.
        mapped.withUnsafeBytes { FileIO.releaseMapped($0.baseAddress!, 0..<mapped.count) }
        #expect(mapped == copied)
        let doc = try GeoDocument.read(URL(fileURLWithPath: path))
        #expect(doc.tracks.first?.points.count == 60_000 && doc.problems.isEmpty)
    }

    @Test func aFileCutShortWhileMappedReadsZerosAndSaysSo() throws {
        let path = NSTemporaryDirectory() + "cut-\(getpid()).gpx"
        defer { unlink(path) }
        try writeTrack(points: 60_000, to: path)
        let mapped = try FileIO.readOrMap(path, mapFrom: 1 << 20)
        let size = mapped.count
        #expect(truncate(path, 100_000) == 0)
        // Reading past the cut: zeros, not a crash.
        let tail = mapped.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in (size - 4096..<size).reduce(0) { $0 + Int(raw[$1]) } }
        #expect(tail == 0)
        #expect(mapped.prefix(5) == Data("<gpx>".utf8))
        #expect(FileIO.changedWhileMapped(mapped))
    }

    /// A file that shrinks while the reader parses it keeps what came before the cut and
    /// says that the file changed.
    @Test func aFileCutWhileParsedKeepsWhatWasReadAndSaysSo() throws {
        let path = NSTemporaryDirectory() + "cut-parse-\(getpid()).gpx"
        defer { unlink(path) }
        try writeTrack(points: 60_000, to: path)
        let data = try FileIO.readOrMap(path, mapFrom: 1 << 20)
        #expect(truncate(path, 200_000) == 0)
        let doc = try GPXReader(file: path).read(data)
        let points = doc.tracks.first?.points.count ?? 0
        #expect(points > 1000 && points < 60_000)
        #expect(FileIO.changedWhileMapped(data))
    }
}
