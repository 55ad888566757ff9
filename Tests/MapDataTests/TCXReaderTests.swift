import Foundation
@testable import MapData
import MapCore
import Testing

/// TCX files: real exports (Tests/Fixtures/tcx, whose README says where each came from and
/// what gpsbabel reads in it) and small documents made here for each rule.
struct TCXReaderTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/tcx")

    func fixture(_ name: String) throws -> GeoDocument { try GeoDocument.read(Self.fixtures.appendingPathComponent(name)) }
    func read(_ text: String) throws -> GeoDocument { try TCXReader(file: "t.tcx").read(Data(text.utf8)) }

    /// Within 0.1 % of gpsbabel's figure.
    func close(_ metres: Double, _ expected: Double) -> Bool { abs(metres - expected) <= expected * 0.001 }

    /// Metres along the points as one run, measured as TrackStatistics measures: how gpsbabel
    /// reads an activity (one segment, its laps joined).
    func joinedDistance(_ t: Track) -> Double {
        TrackStatistics(Track(kind: t.kind, segments: [0..<t.points.count], points: t.points)).distance
    }

    @Test func aGarminConnectRideWithHeartRateCadenceAndPower() throws {
        let doc = try fixture("ride-garmin-connect-power.tcx")
        #expect(doc.problems.isEmpty && doc.waypoints.isEmpty && doc.tracks.count == 1)
        let t = try #require(doc.tracks.first)
        #expect(t.kind == .track && t.name == "Biking")
        // Five laps, each with its <Track>: one segment (a lap is a split, not a pause);
        // gpsbabel reads the same 100 points.
        #expect(t.segments == [0..<100])
        let p = t.points
        #expect(p.count == 100)
        #expect(p.latitude[0] == 52.15776275843382 && p.longitude[0] == 4.491067975759506)
        #expect(p.elevation[0] == Float(-20.200000762939453) && p.time[0] == 1_591_023_160 && p.time[99] == 1_591_023_286)
        #expect(p.heartRate[0] == 154 && p.cadence[0] == 90 && p.power[0] == 162)
        #expect(p.heartRate.map { Int($0) }.reduce(0, +) == 14_998 && p.cadence.map { Int($0) }.reduce(0, +) == 8_034)
        // ns3:Watts, two points without: 0 there.
        #expect(p.power.count == 100 && p.power.map { Int($0) }.reduce(0, +) == 14_751 && p.power.max() == 434)
        #expect(p.temperature.isEmpty)
        // The lap gaps are nil here (a lap starts where the last ended): both readings agree.
        #expect(close(TrackStatistics(t).distance, 899.259) && close(joinedDistance(t), 899.259))
    }

    @Test func aForerunnerRunWhoseLastTrackpointHasNoPosition() throws {
        let doc = try fixture("run-forerunner410.tcx")
        #expect(doc.problems.isEmpty && doc.tracks.count == 1)
        let t = try #require(doc.tracks.first)
        #expect(t.kind == .track && t.name == "Running")
        // 384 trackpoints, the last without a position (the watch stopped): 383, as gpsbabel.
        #expect(t.points.count == 383 && t.segments == [0..<383])
        let p = t.points
        #expect(p.time[0] == 1_356_557_393 && p.time[382] == 1_356_559_384 && p.elevation[0] == Float(178.942626953))
        #expect(p.heartRate.map { Int($0) }.reduce(0, +) == 59_998 && p.heartRate.max() == 189)
        #expect(p.cadence.isEmpty && p.power.isEmpty)
        // The laps joined, as gpsbabel joins them: 4,688.007 m over these points (the 4 s
        // between two laps are run too).
        #expect(close(TrackStatistics(t).distance, 4_688.007))
    }

    @Test func aStravaRouteIsARouteNamedAfterTheCourse() throws {
        let doc = try fixture("route-strava.tcx")
        #expect(doc.problems.isEmpty && doc.waypoints.isEmpty)
        let t = try #require(doc.tracks.first)
        #expect(doc.tracks.count == 1 && t.kind == .route && t.name == "Test TCX Route")
        #expect(t.points.count == 30 && t.segments == [0..<30])
        // Strava writes "+00:00" where Garmin writes "Z".
        #expect(t.points.time[0] == 1_627_928_911 && t.points.time[29] == 1_627_929_141)
        #expect(t.points.elevation[0] == Float(22.820000000000004) && t.points.heartRate.isEmpty)
        #expect(close(TrackStatistics(t).distance, 1_664.462))
    }

    @Test func aCoursesPointsAreNamedWaypoints() throws {
        let doc = try fixture("course-points.tcx")
        #expect(doc.problems.isEmpty)
        #expect(doc.tracks.first?.name == "Test TCX Route with course points" && doc.tracks.first?.points.count == 30)
        #expect(doc.waypoints == [
            Waypoint(latitude: 37.76683, longitude: -122.50564, name: "Start", elevation: Float(22.820000000000004)),
            Waypoint(latitude: 37.76937, longitude: -122.49556, name: "Fork & lake", elevation: 34.82),
            Waypoint(latitude: 37.77083, longitude: -122.48774, name: "Finish", elevation: 42.63),
        ])
    }

    @Test func anActivityWithoutPositionsHoldsNoPoints() throws {
        // A yoga session: 1,170 trackpoints of time and heart rate, none with a position.
        let url = Self.fixtures.appendingPathComponent("yoga-no-positions.tcx")
        let doc = try GeoDocument.read(url)
        #expect(doc.tracks.isEmpty && doc.problems.isEmpty)
        #expect { try TrackFile.read(url, color: TrackStyle.palette[0]) } throws: {
            ($0 as? GeoFileError)?.reason == "holds no points" && ($0 as? GeoFileError)?.file == url.path
        }
    }

    @Test func aTCXFileIsKnownByItsRootWhateverItsExtension() throws {
        let d = FileManager.default.temporaryDirectory.appendingPathComponent("tcx-\(UUID())")
        try FileManager.default.createDirectory(at: d, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: d) }
        let u = d.appendingPathComponent("export.xml")
        try FileManager.default.copyItem(at: Self.fixtures.appendingPathComponent("ride-garmin-connect-power.tcx"), to: u)
        let (file, problems) = try TrackFile.read(u, color: TrackStyle.palette[0])
        #expect(problems.isEmpty && file.lines.count == 1 && file.lines.first?.track.points.count == 100)
    }

    /// One point with heart rate 150 and cadence 88 and the power of `tpx` in an Activity.
    static func activity(_ p: String, _ tpx: String, root: String = "") -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <\(p)TrainingCenterDatabase \(root)><\(p)Activities><\(p)Activity Sport="Biking"><\(p)Id>2026-05-01T08:00:00Z</\(p)Id>
        <\(p)Lap StartTime="2026-05-01T08:00:00Z"><\(p)Cadence>70</\(p)Cadence><\(p)Track><\(p)Trackpoint>
        <\(p)Time>2026-05-01T08:00:00Z</\(p)Time><\(p)Position><\(p)LatitudeDegrees>46.5</\(p)LatitudeDegrees>
        <\(p)LongitudeDegrees>7.25</\(p)LongitudeDegrees></\(p)Position><\(p)AltitudeMeters>1200</\(p)AltitudeMeters>
        <\(p)HeartRateBpm><\(p)Value>150</\(p)Value></\(p)HeartRateBpm><\(p)Cadence>88</\(p)Cadence>
        <\(p)Extensions>\(tpx)</\(p)Extensions></\(p)Trackpoint></\(p)Track></\(p)Lap></\(p)Activity></\(p)Activities></\(p)TrainingCenterDatabase>
        """
    }

    @Test("Namespace prefixes however the file spells them", arguments: [
        // Garmin Connect: a default namespace, ns3 for the extension.
        TCXReaderTests.activity("", "<ns3:TPX><ns3:Speed>8.5</ns3:Speed><ns3:Watts>210</ns3:Watts></ns3:TPX>",
                 root: "xmlns=\"http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2\" xmlns:ns3=\"http://www.garmin.com/xmlschemas/ActivityExtension/v2\""),
        // Strava: the extension's namespace as the default one of TPX.
        TCXReaderTests.activity("", "<TPX xmlns=\"http://www.garmin.com/xmlschemas/ActivityExtension/v2\"><Speed>8.5</Speed><Watts>210</Watts></TPX>"),
        // Every element prefixed, the extension by another prefix.
        TCXReaderTests.activity("tcd:", "<ax:TPX xmlns:ax=\"http://www.garmin.com/xmlschemas/ActivityExtension/v2\"><ax:Watts>210</ax:Watts></ax:TPX>",
                 root: "xmlns:tcd=\"http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2\""),
    ])
    func namespaces(text: String) throws {
        let doc = try read(text)
        let t = try #require(doc.tracks.first)
        #expect(doc.problems.isEmpty && doc.tracks.count == 1 && t.name == "Biking" && t.segments == [0..<1])
        let p = t.points
        #expect(p.latitude == [46.5] && p.longitude == [7.25] && p.elevation == [1200] && p.time == [1_777_622_400])
        // The Lap's <Cadence> (its average) is not the point's.
        #expect(p.heartRate == [150] && p.cadence == [88] && p.power == [210])
    }

    @Test func runningCadenceStandsInForAMissingCadence() throws {
        let doc = try read("""
        <TrainingCenterDatabase><Activities><Activity Sport="Running"><Lap>
        <AverageHeartRateBpm><Value>140</Value></AverageHeartRateBpm><Track>
        <Trackpoint><Position><LatitudeDegrees>1</LatitudeDegrees><LongitudeDegrees>2</LongitudeDegrees></Position>
          <Extensions><TPX><Speed>3</Speed><RunCadence>84</RunCadence></TPX></Extensions></Trackpoint>
        <Trackpoint><Position><LatitudeDegrees>1.001</LatitudeDegrees><LongitudeDegrees>2</LongitudeDegrees></Position>
          <Cadence>90</Cadence><Extensions><TPX><RunCadence>84</RunCadence></TPX></Extensions></Trackpoint>
        <Trackpoint><Position><LatitudeDegrees>1.002</LatitudeDegrees><LongitudeDegrees>2</LongitudeDegrees></Position></Trackpoint>
        </Track><Extensions><LX><AvgRunCadence>80</AvgRunCadence><AvgWatts>200</AvgWatts></LX></Extensions></Lap></Activity></Activities></TrainingCenterDatabase>
        """)
        let p = try #require(doc.tracks.first?.points)
        #expect(p.cadence == [84, 90, 0] && p.heartRate.isEmpty && p.power.isEmpty)
    }

    /// A new lap's <Track> goes on from the last lap's (a split); a second <Track> in one lap
    /// follows a pause (a new segment).
    @Test func lapsAreSplitsAndTracksInALapArePauses() throws {
        func point(_ lat: String) -> String {
            "<Trackpoint><Position><LatitudeDegrees>\(lat)</LatitudeDegrees><LongitudeDegrees>2</LongitudeDegrees></Position></Trackpoint>"
        }
        let doc = try read("""
        <TrainingCenterDatabase><Activities><Activity Sport="Running">
        <Lap><Track>\(point("1"))\(point("1.001"))</Track></Lap>
        <Lap><Track>\(point("1.002"))</Track><Track>\(point("1.003"))</Track></Lap>
        </Activity></Activities></TrainingCenterDatabase>
        """)
        #expect(doc.tracks.first?.segments == [0..<3, 3..<4])
    }

    @Test func pausesSegmentsActivitiesAndTheirSports() throws {
        func point(_ lat: String) -> String {
            "<Trackpoint><Time>2026-05-01T08:00:00Z</Time><Position><LatitudeDegrees>\(lat)</LatitudeDegrees><LongitudeDegrees>2</LongitudeDegrees></Position></Trackpoint>"
        }
        let pause = "<Trackpoint><Time>2026-05-01T08:00:05Z</Time><HeartRateBpm><Value>99</Value></HeartRateBpm></Trackpoint>"
        let doc = try read("""
        <TrainingCenterDatabase><Activities>
        <Activity Sport="Running"><Lap><Track>\(point("1"))\(pause)\(point("1.001"))</Track>
        <Track><Trackpoint><Position/></Trackpoint>\(point("1.002"))</Track><Track></Track></Lap></Activity>
        <Activity Sport="Walking"><Lap><Track>\(point("3"))</Track></Lap></Activity>
        <Activity><Lap><Track>\(point("4"))</Track></Lap></Activity>
        <Activity Sport="Other"><Lap><Track>\(pause)\(pause)</Track></Lap></Activity>
        </Activities></TrainingCenterDatabase>
        """)
        #expect(doc.problems.isEmpty)
        #expect(doc.tracks.map(\.name) == ["Running", "Walking", nil])
        let t = try #require(doc.tracks.first)
        // A pause is not a point and does not cut the segment; a new <Track> does.
        #expect(t.points.latitude == [1, 1.001, 1.002] && t.segments == [0..<2, 2..<3])
        #expect(t.points.heartRate.isEmpty)
    }

    @Test func badValuesAreSkippedWithTheirLinesAndTheRestLoads() throws {
        let doc = try read("""
        <TrainingCenterDatabase><Activities><Activity Sport="Biking"><Lap><Track>\r
        <Trackpoint><Time>2026-05-01T08:00:00Z</Time><Position><LatitudeDegrees>1</LatitudeDegrees><LongitudeDegrees>2</LongitudeDegrees></Position></Trackpoint>\r
        <Trackpoint><Position><LatitudeDegrees>x</LatitudeDegrees><LongitudeDegrees>2</LongitudeDegrees></Position></Trackpoint>\r
        <Trackpoint><Position><LatitudeDegrees>95</LatitudeDegrees><LongitudeDegrees>2</LongitudeDegrees></Position></Trackpoint>\r
        <Trackpoint><Position><LatitudeDegrees>3</LatitudeDegrees></Position></Trackpoint>\r
        <Trackpoint><Time>yesterday</Time><Position><LatitudeDegrees>3</LatitudeDegrees><LongitudeDegrees>4</LongitudeDegrees></Position><AltitudeMeters>high</AltitudeMeters><HeartRateBpm><Value>fast</Value></HeartRateBpm></Trackpoint>\r
        <Trackpoint><Time>2026-05-01T10:00:01.250+02:00</Time><Position><LatitudeDegrees>5</LatitudeDegrees><LongitudeDegrees>6</LongitudeDegrees></Position><AltitudeMeters>12.5</AltitudeMeters></Trackpoint>\r
        </Track></Lap></Activity></Activities>\r
        <Courses><Course><Name>Plan &amp; go</Name><CoursePoint><Name>Nowhere</Name><PointType>Generic</PointType></CoursePoint>\r
        <CoursePoint><Name>Hut</Name><Position><LatitudeDegrees>46</LatitudeDegrees><LongitudeDegrees>y</LongitudeDegrees></Position></CoursePoint></Course></Courses>\r
        </TrainingCenterDatabase>
        """)
        let p = try #require(doc.tracks.first?.points)
        #expect(p.latitude == [1, 3, 5] && p.longitude == [2, 4, 6])
        #expect(p.time[0] == 1_777_622_400 && p.time[1].isNaN && p.time[2] == 1_777_622_401.25)
        #expect(p.elevation[0].isNaN && p.elevation[1].isNaN && p.elevation[2] == 12.5 && p.heartRate.isEmpty)
        // A course point without a position is not a waypoint, and says nothing (a course may
        // name a turn only by its time); one whose position is not numbers is reported.
        #expect(doc.waypoints.isEmpty && doc.tracks.count == 1)
        #expect(doc.problems.map(\.line) == [3, 4, 5, 6, 6, 6, 10], "\(doc.problems)")
        let reasons = doc.problems.map(\.reason)
        #expect(reasons[0].contains("<Trackpoint>") && reasons[0].contains("not a number"))
        #expect(reasons[1].contains("out of range (lat 95.0, lon 2.0)"))
        #expect(reasons[2].contains("missing"))
        #expect(reasons[3].contains("<Time>") && reasons[3].contains("ISO 8601"))
        #expect(reasons[4].contains("<AltitudeMeters>") && reasons[5].contains("<HeartRateBpm>"))
        #expect(reasons[6].contains("<CoursePoint>"))
        #expect(doc.problems.allSatisfy { $0.file == "t.tcx" })
    }

    @Test func aTruncatedFileKeepsWhatCameBeforeTheCut() throws {
        let doc = try read("""
        <TrainingCenterDatabase><Courses><Course><Name>Cut</Name><Track>
        <Trackpoint><Position><LatitudeDegrees>1</LatitudeDegrees><LongitudeDegrees>2</LongitudeDegrees></Position></Trackpoint>
        <Trackpoint><Position><LatitudeDegrees>3</LatitudeDegrees><LongitudeDegrees>4</LongitudeDegrees></Position></Trackpoint>
        <Trackpoint><Position><LatitudeDegrees>5</LatitudeDegrees><LongitudeDeg
        """)
        let t = try #require(doc.tracks.first)
        #expect(t.kind == .route && t.name == "Cut" && t.points.latitude == [1, 3])
        #expect(doc.problems.count == 1 && doc.problems[0].reason.contains("cut short") && doc.problems[0].line == 4)
    }

    @Test func aMisspelledEndTagLosesOnlyItsPoint() throws {
        // Found by fuzz-tcx: an unknown end tag once closed the Courses element around the
        // course, and the course was never kept.
        let doc = try read("""
        <TrainingCenterDatabase><Courses><Course><Name>Typo</Name><Track>
        <Trackpoint><Position><LatitudeDegrees>1</LatitudeDegrees><LongitudeDegrees>2</LongitudeDegrees></Position></Trackpoint>
        <Trackpoint><Position><LatitudeDegrees>3</LatitudeDegrees><LongitudeDegrees>4</LongitudeDegrEes></Position></Trackpoint>
        <Trackpoint><Position><LatitudeDegrees>5</LatitudeDegrees><LongitudeDegrees>6</LongitudeDegrees></Position></Trackpoint>
        </Track></Course></Courses></TrainingCenterDatabase>
        """)
        #expect(doc.tracks.map(\.name) == ["Typo"] && doc.tracks.first?.points.latitude == [1, 5] && doc.tracks.first?.segments == [0..<2])
        #expect(doc.problems.map(\.line) == [3] && doc.problems.first?.reason.contains("missing or not a number") == true)
    }

    @Test func aRealFileCutAnywhereKeepsThePointsBeforeTheCut() throws {
        let data = try Data(contentsOf: Self.fixtures.appendingPathComponent("ride-garmin-connect-power.tcx"))
        let reader = TCXReader(file: "ride.tcx")
        let whole = try #require(try reader.read(data).tracks.first?.points.latitude)
        // From just past the root element to the end, at a stride that lands anywhere in a tag.
        for cut in stride(from: 1_000, to: data.count, by: 1_997) {
            let doc = try reader.read(data.prefix(cut))
            let part = doc.tracks.first?.points.latitude ?? []
            #expect(part == Array(whole.prefix(part.count)) && part.count <= whole.count, "cut at \(cut)")
            #expect(doc.problems.map(\.reason).contains { $0.contains("cut short") }, "cut at \(cut)")
        }
    }

    @Test("Hostile or foreign documents are refused", arguments: [
        ("<?xml version=\"1.0\"?>\n<!DOCTYPE TrainingCenterDatabase [<!ENTITY x SYSTEM \"file:///etc/passwd\">]><TrainingCenterDatabase>&x;</TrainingCenterDatabase>", "DTD"),
        ("<?xml version=\"1.0\"?>\n<!DOCTYPE t [<!ENTITY a \"1\"><!ENTITY b \"&a;&a;&a;&a;&a;&a;\">]>\n<TrainingCenterDatabase/>", "DTD"),
        ("<gpx><trk><trkseg><trkpt lat=\"1\" lon=\"2\"/></trkseg></trk></gpx>", "not a TCX document"),
        ("", "not a TCX document"),
        ("<TrainingCenterDatabase><Activities><Activity Sport=Biking></Activity></Activities></TrainingCenterDatabase>", "without quotes"),
    ])
    func refused(text: String, reason: String) {
        #expect { try read(text) } throws: { ($0 as? GeoFileError)?.reason.contains(reason) == true }
    }
}
