import Foundation
@testable import MapData
import MapCore
import Testing
import TestSupport

/// Reading a GPX file in pieces on several cores gives exactly what one pass gives, wherever
/// the pieces start: in segments, comments, CDATA, routes, names, broken points, cut files.
struct GPXPiecesTests {
    /// Everything a reading produces, as text (NaN as "nan", so equal readings compare equal).
    func fingerprint(_ read: () throws -> GeoDocument) -> String {
        let doc: GeoDocument
        do { doc = try read() } catch { return "error \(error)" }
        func f<T: BinaryFloatingPoint>(_ v: T) -> String { v.isNaN ? "nan" : "\(v)" }
        var out = ""
        for t in doc.tracks {
            out += "track \(t.kind) \(t.name ?? "-") \(t.color.map { "\($0)" } ?? "-") \(t.segments)\n"
            let p = t.points
            for k in 0..<p.count { out += "  \(p.latitude[k]) \(p.longitude[k]) \(f(p.elevation[k])) \(f(p.time[k]))\n" }
            out += "  hr \(p.heartRate) cad \(p.cadence)\n"
        }
        for w in doc.waypoints { out += "wpt \(w.latitude) \(w.longitude) \(w.name ?? "-") \(f(w.elevation))\n" }
        for e in doc.problems { out += "problem \(e)\n" }
        return out
    }

    func read(_ bytes: [UInt8], starts: [Int]) throws -> GeoDocument {
        try bytes.withUnsafeBufferPointer { try GPXParser.read($0, file: "t.gpx", starts: starts) }
    }

    /// A GPX document made of the things that make splitting hard, at random.
    func randomDocument(_ g: inout SeededGenerator) -> String {
        var s = "<?xml version=\"1.0\"?>\n<gpx version=\"1.1\" xmlns:gpx=\"http://www.topografix.com/GPX/1/1\">\n"
        func point(_ tag: String) -> String {
            let lat = Bool.random(using: &g) || Int.random(in: 0..<8, using: &g) > 0 ? "\(Double(Int.random(in: -800...800, using: &g)) / 10)" : "95"
            var p = "<\(tag) lat=\"\(lat)\" lon=\"\(Int.random(in: -179...179, using: &g))\">"
            if Bool.random(using: &g) { p += "<ele>\(Int.random(in: 0...3000, using: &g))</ele>" }
            if Int.random(in: 0..<3, using: &g) == 0 { p += "<time>2026-05-01T08:00:\(10 + Int.random(in: 0...49, using: &g))Z</time>" }
            if Int.random(in: 0..<4, using: &g) == 0 { p += "<extensions><tp:hr>\(Int.random(in: 60...190, using: &g))</tp:hr></extensions>" }
            return p + "</\(tag)>\n"
        }
        for _ in 0..<Int.random(in: 1...4, using: &g) {
            switch Int.random(in: 0..<10, using: &g) {
            case 0: s += "<wpt lat=\"1\" lon=\"2\"><name>W&amp;\(Int.random(in: 0...9, using: &g))</name></wpt>\n"
            case 1: s += "<rte><name>R</name>" + (0..<Int.random(in: 0...5, using: &g)).map { _ in point("rtept") }.joined() + "</rte>\n"
            default:
                s += "<trk>"
                if Bool.random(using: &g) { s += "<name>T\(Int.random(in: 0...9, using: &g))</name>" }
                for _ in 0..<Int.random(in: 0...3, using: &g) {
                    s += "<trkseg>\n"
                    for _ in 0..<Int.random(in: 0...12, using: &g) {
                        switch Int.random(in: 0..<14, using: &g) {
                        case 0: s += "<!-- <trkpt lat=\"9\" lon=\"9\"></trkpt> -->\n"
                        case 1: s += "<gpx:trkpt lat=\"3\" lon=\"4\"/>\n"
                        case 2: s += "<trkpt lat=\"5\" lon=\"6\"/>\n"
                        case 3: s += "</trkseg><trkseg>\n"
                        case 4: s += "<extensions><gpxx:DisplayColor>Blue</gpxx:DisplayColor></extensions>\n"
                        default: s += point("trkpt")
                        }
                    }
                    s += "</trkseg>\n"
                    if Int.random(in: 0..<4, using: &g) == 0 { s += "<name>late</name><extensions><gpxx:DisplayColor>Cyan</gpxx:DisplayColor></extensions>" }
                }
                s += "</trk>\n"
            }
        }
        s += "</gpx>\n"
        // Some files are cut short, and a few carry what must be refused.
        switch Int.random(in: 0..<8, using: &g) {
        case 0: s = String(s.prefix(Int.random(in: 1...s.count, using: &g)))
        case 1:
            let at = s.index(s.startIndex, offsetBy: Int.random(in: 0...s.count, using: &g))
            s.insert(contentsOf: "<!DOCTYPE x>", at: at)
        default: break
        }
        return s
    }

    @Test(arguments: 0..<24)
    func piecesStartingAtAnyTagReadAsOnePass(seed: UInt64) throws {
        var g = SeededGenerator(seed: seed)
        let bytes = Array(randomDocument(&g).utf8)
        let whole = fingerprint { try read(bytes, starts: []) }
        let tags = bytes.indices.filter { $0 > 0 && bytes[$0] == UInt8(ascii: "<") }
        // One piece starting at each tag, and at a few places that are not tags.
        for start in tags + [1, bytes.count / 2, bytes.count - 1] where start > 0 && start < bytes.count {
            let pieces = fingerprint { try read(bytes, starts: [start]) }
            #expect(pieces == whole, "split at \(start)")
            if pieces != whole { return }
        }
        // Several pieces at once.
        for _ in 0..<20 where tags.count > 3 {
            let starts = Set((0..<Int.random(in: 2...6, using: &g)).map { _ in tags.randomElement(using: &g)! }).sorted()
            #expect(fingerprint { try read(bytes, starts: starts) } == whole, "split at \(starts)")
        }
    }

    /// The pieces a large track is cut into start at points, and read as one pass reads.
    @Test func aLongTrackInFourPieces() throws {
        var s = "<gpx><trk><name>Long</name><trkseg>\n"
        for k in 0..<20_000 {
            s += "<trkpt lat=\"\(46 + Double(k) * 1e-5)\" lon=\"7\"><ele>\(k % 700)</ele><time>2026-05-01T08:00:00Z</time></trkpt>\n"
            if k == 12_345 { s += "</trkseg><trkseg>\n" }
        }
        s += "</trkseg></trk></gpx>\n"
        let bytes = Array(s.utf8)
        let starts = bytes.withUnsafeBufferPointer { GPXParser.pieceStarts($0, pieces: 4, smallest: 1000) }
        #expect(starts.count == 3)
        for start in starts { #expect(String(decoding: bytes[start..<(start + 7)], as: UTF8.self) == "<trkpt ") }
        let doc = try read(bytes, starts: starts)
        #expect(doc.tracks.count == 1 && doc.tracks[0].points.count == 20_000 && doc.tracks[0].segments == [0..<12_346, 12_346..<20_000])
        #expect(fingerprint { doc } == fingerprint { try read(bytes, starts: []) })
    }
}
