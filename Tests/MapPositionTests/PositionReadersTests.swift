import Foundation
import MapCore
import MapGeometry
import MapPosition
import Testing

/// NMEA sentences and gpsd reports, read into fixes: known values, and broken input skipped.
struct PositionReadersTests {
    static let rmc = "$GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W*6A"
    static let gga = "$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*47"

    @Test func anRMCSentenceIsAFixWithTheGGAsAccuracyAndAltitude() throws {
        var r = NMEAReader()
        #expect(r.read(Self.gga[...]) == nil)
        guard case let .fix(f)? = r.read(Self.rmc[...]) else { Issue.record("no fix"); return }
        #expect(abs(f.coordinate.latitude - (48 + 7.038 / 60)) < 1e-9)
        #expect(abs(f.coordinate.longitude - (11 + 31.0 / 60)) < 1e-9)
        #expect(abs(f.speed! - 22.4 * 1852 / 3600) < 1e-9)
        #expect(f.course == 84.4 && f.heading == 84.4)
        #expect(abs(f.accuracy - 4.5) < 1e-9) // HDOP 0.9 × 5 m
        #expect(f.altitude == 545.4)
        // 23 March 1994, 12:35:19 UTC.
        #expect(f.time == 764_426_119)
    }

    @Test(arguments: [
        "$GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W*6B", // wrong checksum
        "$GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W", // none
        "GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W*6A", // no $
        "$GPRMC,123519,A,9907.038,N,01131.000,E,022.4,084.4,230394,003.1,W*6B",
        "$GPRMC,A*00", "$*00", "$", "", "*", "$GPRMC,123519,A,4807.038,X,01131.000,E,022.4,084.4,230394,003.1,W*66",
    ])
    func brokenSentencesAreSkipped(_ line: String) {
        var r = NMEAReader()
        #expect(r.read(line[...]) == nil)
    }

    @Test func aVoidRMCMeansNoFix() {
        var r = NMEAReader()
        #expect(r.read("$GPRMC,123520,V,,,,,,,230394,,*39"[...]) == .noFix)
    }

    @Test func aStandingReceiverHasNoHeading() {
        let f = PositionFix(coordinate: Coordinate(latitude: 1, longitude: 2), course: 90, speed: 0.2)
        #expect(f.heading == nil)
    }

    @Test func gpsdTPVReportsAreFixes() throws {
        let tpv = #"{"class":"TPV","device":"/dev/ttyUSB0","mode":3,"time":"2026-11-21T10:00:01.500Z","lat":46.5,"lon":6.6,"altHAE":400.5,"eph":8.5,"track":270.0,"speed":3.5}"#
        guard case let .fix(f)? = try GPSDMessage.parse(Data(tpv.utf8)) else { Issue.record("no fix"); return }
        #expect(f.coordinate == Coordinate(latitude: 46.5, longitude: 6.6))
        #expect(f.accuracy == 8.5 && f.heading == 270 && f.speed == 3.5 && f.altitude == 400.5)
        #expect(f.time == 1_795_255_201.5)
        // Without eph, epx and epy make the radius.
        let xy = #"{"class":"TPV","mode":2,"lat":1,"lon":2,"epx":3,"epy":4}"#
        guard case let .fix(g)? = try GPSDMessage.parse(Data(xy.utf8)) else { Issue.record("no fix"); return }
        #expect(g.accuracy == 5)
        #expect(try GPSDMessage.parse(Data(#"{"class":"TPV","mode":1}"#.utf8)) == .noFix)
        #expect(try GPSDMessage.parse(Data(#"{"class":"SKY","satellites":[]}"#.utf8)) == nil)
        #expect(try GPSDMessage.parse(Data(#"{"class":"VERSION","release":"3.22"}"#.utf8)) == nil)
        // A fix out of the world is no fix at all.
        #expect(try GPSDMessage.parse(Data(#"{"class":"TPV","mode":3,"lat":91,"lon":0}"#.utf8)) == nil)
        #expect(throws: GPSDMessage.Malformed.self) { try GPSDMessage.parse(Data("garbage\u{1}".utf8)) }
        #expect(throws: GPSDMessage.Malformed.self) { try GPSDMessage.parse(Data(repeating: 0x20, count: GPSDMessage.maxLine + 1)) }
    }

    @Test func linesAreSplitAndOverlongOnesDroppedWhole() {
        var s = LineSplitter(maxLine: 10)
        func feed(_ text: String) -> [String] {
            Array(text.utf8).withUnsafeBytes { s.feed($0) }.map { String(decoding: $0, as: UTF8.self) }
        }
        #expect(feed("ab\ncd") == ["ab"])
        #expect(feed("e\r\n\n") == ["cde"])
        #expect(feed("0123456789ABC") == [])
        #expect(feed("DEF\nok\n") == ["ok"])
        #expect(s.dropped == 1)
    }

    @Test func aLogReplaysItsFixesInOrder() {
        let log = [Self.gga, Self.rmc, "$GPRMC,123520,V,,,,,,,230394,,*39", "junk"].joined(separator: "\r\n")
        let (events, rejected) = NMEAReplaySource.events(in: Data(log.utf8))
        #expect(events.count == 2)
        if case .fix = events.first {} else { Issue.record("first is not a fix") }
        #expect(events.last == .noFix)
        #expect(rejected == 1)
    }
}
