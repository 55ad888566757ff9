import Foundation
import MapCore
@testable import MapData
import Testing

/// FIT files: real ones from several devices compared with what fitdecode reads of them
/// (Tests/Fixtures/fit/expected.json, made by scripts/fit-expected.py), and small ones made
/// here for what no real file shows well (byte orders, damage, pauses, courses).
struct FITReaderTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/fit")

    func read(_ bytes: [UInt8], file: String = "t.fit") throws -> (document: GeoDocument, activity: FITReader.Activity) {
        try FITReader(file: file).readActivity(Data(bytes))
    }

    func fixture(_ name: String) throws -> (document: GeoDocument, activity: FITReader.Activity) {
        try FITReader(file: name).readActivity(Data(contentsOf: Self.fixtures.appendingPathComponent(name)))
    }

    // MARK: Real files

    @Test func realFilesReadAsFitdecodeReadsThem() throws {
        let json = try Data(contentsOf: Self.fixtures.appendingPathComponent("expected.json"))
        let expected = try #require(JSONSerialization.jsonObject(with: json) as? [String: [String: Any]])
        #expect(expected.count >= 10)
        for (name, e) in expected.sorted(by: { $0.key < $1.key }) {
            let (doc, activity) = try fixture(name)
            // The tracks' points in file order, as one line.
            var lat: [Double] = [], lon: [Double] = [], time: [Double] = []
            var heartRate = 0, cadence = 0, power = 0
            for t in doc.tracks {
                lat += t.points.latitude
                lon += t.points.longitude
                time += t.points.time
                heartRate += t.points.heartRate.filter { $0 != 0 }.count
                cadence += t.points.cadence.filter { $0 != 0 }.count
                power += t.points.power.filter { $0 != 0 }.count
                #expect(t.kind == .track)
                #expect(t.segments.first?.lowerBound == 0 && t.segments.last?.upperBound == t.points.count, "\(name)")
                #expect(zip(t.segments, t.segments.dropFirst()).allSatisfy { $0.upperBound == $1.lowerBound && !$0.isEmpty }, "\(name)")
            }
            var distance = 0.0
            for i in lat.indices.dropFirst() { distance += TrackStatistics.distance(lat[i - 1], lon[i - 1], lat[i], lon[i]) }
            #expect(lat.count == e["points"] as? Int, "\(name): points")
            let want = try #require(e["distance"] as? Double)
            #expect(abs(distance - want) <= max(want * 0.001, 0.01), "\(name): \(distance) m, fitdecode \(want) m")
            #expect(time.first(where: \.isFinite).map { Int($0) } == e["first_time"] as? Int, "\(name): first time")
            #expect(time.last(where: \.isFinite).map { Int($0) } == e["last_time"] as? Int, "\(name): last time")
            #expect(heartRate == e["heart_rate"] as? Int, "\(name): heart rate")
            #expect(cadence == e["cadence"] as? Int, "\(name): cadence")
            #expect(power == e["power"] as? Int, "\(name): power")
            #expect(activity.records == e["records"] as? Int, "\(name): records")
            #expect(activity.firstRecordTime.map { Int($0) } == e["first_record_time"] as? Int, "\(name): first record")
            #expect(activity.lastRecordTime.map { Int($0) } == e["last_record_time"] as? Int, "\(name): last record")
            #expect(activity.sessions.map(\.sport) == (e["sessions"] as? [Int?] ?? []), "\(name): sessions")
            // Where fitdecode stopped at damage, Meridian says what it was.
            if e["fitdecode_stopped"] != nil { #expect(!doc.problems.isEmpty, "\(name): no problem said") }
        }
    }

    @Test func devicesTracksAndTheirNames() throws {
        let run = try fixture("garmin-fenix-5-run.fit")
        #expect(run.document.tracks.map(\.name) == ["Running"] && run.document.problems.isEmpty)
        #expect(run.activity.manufacturer == 1 && run.activity.fileType == 4)
        let session = try #require(run.activity.sessions.first)
        #expect(session.sportName == "Running" && session.start != nil && (session.distance ?? 0) > 100)

        // Wahoo ELEMNT: big-endian definitions, two developer data ids, auto-pauses.
        let elemnt = try fixture("2019-02-17-062644-ELEMNT-297E-195-0.fit")
        #expect(elemnt.document.tracks.map(\.name) == ["Cycling"] && elemnt.document.problems.isEmpty)
        #expect(elemnt.document.tracks[0].segments.count > 1)
        #expect(elemnt.document.tracks[0].points.temperature.contains { !$0.isNaN })

        // Four FIT files chained: a triathlon's five sessions, cut by their start times.
        let tri = try fixture("sample_mulitple_header.fit")
        #expect(tri.activity.sessions.map(\.sportName) == ["Swimming", "Transition", "Cycling", "Transition", "Running"])
        #expect(tri.document.tracks.map(\.name).contains("Cycling") && tri.document.tracks.map(\.name).contains("Running"))
        #expect(tri.document.problems.isEmpty)

        // Coros: fields sized against their type (a 1-byte uint32) are stepped over.
        let coros = try fixture("coros-pace-2-cycling-misaligned-fields.fit")
        #expect(coros.document.problems.isEmpty && coros.document.tracks.count == 1)
    }

    @Test func aDamagedRealFileKeepsWhatCameBefore() throws {
        // Strava's app: a message of a local type nothing defined, and a header promising
        // more data than there are.
        let strava = try fixture("strava-android-app-201.10-b1218918.fit")
        #expect(strava.document.tracks.map(\.points.count) == [237])
        #expect(strava.document.problems.map(\.reason) == [
            "the file ends before its data do (cut short?); what came before is kept",
            "at byte 7471: a message of local type 11, which nothing defined before it (damaged?); the rest of the data is skipped",
        ])
    }

    @Test func theWindowOpensAFITFileByExtensionAndByItsHeader() throws {
        let d = FileManager.default.temporaryDirectory.appendingPathComponent("fit-\(UUID())")
        try FileManager.default.createDirectory(at: d, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: d) }
        let bytes = try Data(contentsOf: Self.fixtures.appendingPathComponent("garmin-edge-820-bike.fit"))
        for name in ["ride.fit", "ride.FIT", "ride.bin"] {
            let u = d.appendingPathComponent(name)
            try bytes.write(to: u)
            let (file, problems) = try TrackFile.read(u, color: TrackStyle.palette[0])
            #expect(file.lines.map(\.track.points.count) == [15] && problems.isEmpty, "\(name)")
        }
    }

    // MARK: Made here

    static let t0 = 1_777_622_400.0 // 2026-05-01T08:00:00Z

    /// A record definition: timestamp, position, altitude, heart rate, cadence, power, temperature.
    static let recordFields: [FITBuilder.Field] = [
        .init(253, FITBuilder.uint32), .init(0, FITBuilder.sint32), .init(1, FITBuilder.sint32), .init(2, FITBuilder.uint16),
        .init(3, FITBuilder.uint8), .init(4, FITBuilder.uint8), .init(7, FITBuilder.uint16), .init(13, FITBuilder.sint8),
    ]

    func record(_ seconds: Double, _ lat: Double, _ lon: Double, ele: Double = 100, hr: Int64 = 120) -> [FITBuilder.Value] {
        [.int(FITBuilder.time(Self.t0 + seconds)), .int(FITBuilder.semicircles(lat)), .int(FITBuilder.semicircles(lon)),
         .int(Int64(((ele + 500) * 5).rounded())), .int(hr), 80, 200, 21]
    }

    /// A short ride in either byte order.
    func ride(bigEndian: Bool) -> FITBuilder {
        var b = FITBuilder()
        b.define(local: 0, global: 0, bigEndian: bigEndian, fields: [.init(0, FITBuilder.enumType), .init(1, FITBuilder.uint16), .init(4, FITBuilder.uint32)])
        b.message(local: 0, [4, 1, .int(FITBuilder.time(Self.t0))])
        b.define(local: 1, global: 20, bigEndian: bigEndian, fields: Self.recordFields)
        for k in 0..<5 { b.message(local: 1, record(Double(k), 46 + Double(k) * 0.001, 7.5, ele: 1000 + Double(k))) }
        return b
    }

    @Test func bothByteOrdersReadTheSame() throws {
        for big in [false, true] {
            let (doc, activity) = try read(ride(bigEndian: big).file())
            #expect(doc.problems.isEmpty)
            let p = try #require(doc.tracks.first?.points)
            #expect(p.count == 5 && p.time == (0..<5).map { Self.t0 + Double($0) })
            #expect(p.latitude.enumerated().allSatisfy { abs($1 - (46 + Double($0) * 0.001)) < 1e-7 })
            #expect(p.longitude.allSatisfy { abs($0 - 7.5) < 1e-7 })
            #expect(p.elevation == [1000, 1001, 1002, 1003, 1004])
            #expect(p.heartRate == [120, 120, 120, 120, 120] && p.cadence == [80, 80, 80, 80, 80] && p.power == [200, 200, 200, 200, 200])
            #expect(p.temperature == [21, 21, 21, 21, 21])
            #expect(activity.fileType == 4 && activity.manufacturer == 1 && activity.created == Self.t0)
        }
    }

    @Test func headersOfTwelveBytesAndWithoutChecksum() throws {
        for (size, sum) in [(12, false), (14, false), (14, true)] {
            let (doc, _) = try read(ride(bigEndian: false).file(headerSize: size, headerChecksum: sum))
            #expect(doc.tracks.first?.points.count == 5 && doc.problems.isEmpty)
        }
    }

    @Test func aBadHeaderThrowsSayingWhatIsWrong() throws {
        var bytes = ride(bigEndian: false).file()
        bytes[9] = UInt8(ascii: "G")
        #expect { try read(bytes) } throws: { ($0 as? GeoFileError)?.description == "t.fit: not a FIT file (its header lacks the “.FIT” mark)" }
        bytes = ride(bigEndian: false).file()
        bytes[12] ^= 0x55
        #expect { try read(bytes) } throws: { ($0 as? GeoFileError)?.reason == "the FIT header is damaged (its checksum does not match)" }
        bytes = ride(bigEndian: false).file()
        bytes[0] = 8
        #expect { try read(bytes) } throws: { ($0 as? GeoFileError)?.reason.contains("fewer than the 12") == true }
        #expect { try read(Array(bytes.prefix(7))) } throws: { ($0 as? GeoFileError)?.reason == "too short to be a FIT file (7 bytes)" }
        #expect { try read([]) } throws: { $0 is GeoFileError }
        #expect(FITReader.looksLikeFIT(Data(ride(bigEndian: false).file())) && !FITReader.looksLikeFIT(Data("<gpx>".utf8)))
    }

    @Test func aWrongFileChecksumReadsWithAProblem() throws {
        var bytes = ride(bigEndian: false).file()
        bytes[bytes.count - 1] ^= 0xFF
        let (doc, _) = try read(bytes)
        #expect(doc.tracks.first?.points.count == 5)
        #expect(doc.problems.map(\.description) == ["t.fit: its checksum does not match (damaged?); what could be read is shown"])
    }

    @Test func aCutFileKeepsWhatCameBeforeTheCut() throws {
        let whole = ride(bigEndian: false).file()
        // Every cut after the header: what was whole before it is kept, and the cut is said.
        var last = 0
        for n in 14..<(whole.count - 2) {
            let (doc, _) = try read(Array(whole.prefix(n)))
            let count = doc.tracks.first?.points.count ?? 0
            #expect(count >= last && count <= 5)
            last = count
            #expect(doc.problems.first?.reason == "the file ends before its data do (cut short?); what came before is kept", "cut at \(n)")
        }
        #expect(last == 4)
        // Only the checksum missing: everything read.
        let (doc, _) = try read(Array(whole.prefix(whole.count - 2)))
        #expect(doc.tracks.first?.points.count == 5)
        #expect(doc.problems.map(\.reason) == ["the file ends before its checksum (cut short?); its data were read unchecked"])
    }

    @Test func aLocalTypeRedefinedMidFile() throws {
        var b = FITBuilder()
        b.define(local: 0, global: 20, fields: Self.recordFields)
        b.message(local: 0, record(0, 46, 7))
        // Local type 0 becomes an event, then a record of other fields, little then big endian.
        b.define(local: 0, global: 21, fields: [.init(253, FITBuilder.uint32), .init(0, FITBuilder.enumType), .init(1, FITBuilder.enumType)])
        b.message(local: 0, [.int(FITBuilder.time(Self.t0 + 1)), 3, 3])
        b.define(local: 0, global: 20, bigEndian: true, fields: [.init(1, FITBuilder.sint32), .init(0, FITBuilder.sint32), .init(253, FITBuilder.uint32)])
        b.message(local: 0, [.int(FITBuilder.semicircles(7.001)), .int(FITBuilder.semicircles(46.001)), .int(FITBuilder.time(Self.t0 + 2))])
        let (doc, activity) = try read(b.file())
        let p = try #require(doc.tracks.first?.points)
        #expect(p.count == 2 && abs(p.latitude[1] - 46.001) < 1e-7 && abs(p.longitude[1] - 7.001) < 1e-7 && p.time[1] == Self.t0 + 2)
        #expect(p.elevation[1].isNaN && p.heartRate == [120, 0] && activity.records == 2)
    }

    @Test func compressedTimestampsRollOverEvery32Seconds() throws {
        var b = FITBuilder()
        b.define(local: 0, global: 20, fields: Self.recordFields)
        b.message(local: 0, record(30, 46, 7)) // t0 + 30: its low five bits are 30 (t0 is a multiple of 32)
        #expect(FITBuilder.time(Self.t0 + 30) & 0x1F == 30)
        b.define(local: 1, global: 20, fields: [.init(0, FITBuilder.sint32), .init(1, FITBuilder.sint32)])
        for s in [31, 33, 40, 70] {
            b.compressed(local: 1, time: UInt32(FITBuilder.time(Self.t0 + Double(s))), [.int(FITBuilder.semicircles(46)), .int(FITBuilder.semicircles(7))])
        }
        let (doc, _) = try read(b.file())
        #expect(doc.tracks.first?.points.time == [30, 31, 33, 40, 70].map { Self.t0 + Double($0) })
    }

    @Test func developerFieldsAreSteppedOver() throws {
        var b = FITBuilder()
        // Two developer data ids (messages 207) and their fields in records.
        b.define(local: 2, global: 207, fields: [.init(3, FITBuilder.uint8)])
        b.message(local: 2, [0])
        b.message(local: 2, [1])
        b.define(local: 0, global: 20, fields: Self.recordFields, developer: [(0, 4, 0), (1, 2, 1), (7, 9, 1)])
        for k in 0..<3 { b.message(local: 0, record(Double(k), 46, 7 + Double(k) * 0.01)) }
        let (doc, _) = try read(b.file())
        #expect(doc.problems.isEmpty && doc.tracks.first?.points.count == 3)
        #expect(doc.tracks.first?.points.longitude.map { ($0 * 100).rounded() } == [700, 701, 702])
    }

    @Test func sizesAgainstTheirTypeAndNoValues() throws {
        var b = FITBuilder()
        // Heart rate a uint16 in one byte (unreadable), power a uint16 in four (its first two
        // read), cadence "no value", altitude given in enhanced altitude too (which wins).
        b.define(local: 0, global: 20, fields: [.init(253, FITBuilder.uint32), .init(0, FITBuilder.sint32), .init(1, FITBuilder.sint32),
                                                .init(3, size: 1, FITBuilder.uint16), .init(7, size: 4, FITBuilder.uint16), .init(4, FITBuilder.uint8),
                                                .init(2, FITBuilder.uint16), .init(78, FITBuilder.uint32)])
        b.message(local: 0, [.int(FITBuilder.time(Self.t0)), .int(FITBuilder.semicircles(46)), .int(FITBuilder.semicircles(7)), 150, 250, nil, 3000, 3100])
        // Position "no value": a record, not a point.
        b.message(local: 0, [.int(FITBuilder.time(Self.t0 + 1)), nil, nil, 150, 250, 90, 3000, 3100])
        let (doc, activity) = try read(b.file())
        let p = try #require(doc.tracks.first?.points)
        #expect(p.count == 1 && activity.records == 2 && activity.lastRecordTime == Self.t0 + 1)
        #expect(p.heartRate.isEmpty && p.cadence.isEmpty && p.power == [250] && p.elevation == [120])
    }

    @Test func pausesSplitSegmentsAndSessionsSplitTracks() throws {
        var b = FITBuilder()
        b.define(local: 0, global: 20, fields: Self.recordFields)
        b.define(local: 1, global: 21, fields: [.init(253, FITBuilder.uint32), .init(0, FITBuilder.enumType), .init(1, FITBuilder.enumType)])
        b.define(local: 2, global: 18, fields: [.init(253, FITBuilder.uint32), .init(2, FITBuilder.uint32), .init(5, FITBuilder.enumType),
                                                .init(7, FITBuilder.uint32), .init(9, FITBuilder.uint32)])
        b.message(local: 1, [.int(FITBuilder.time(Self.t0)), 0, 0]) // timer start
        for k in 0..<3 { b.message(local: 0, record(Double(k), 46 + Double(k) * 0.001, 7)) }
        b.message(local: 1, [.int(FITBuilder.time(Self.t0 + 3)), 0, 1]) // timer stop: a pause
        b.message(local: 1, [.int(FITBuilder.time(Self.t0 + 60)), 0, 0])
        for k in 60..<62 { b.message(local: 0, record(Double(k), 46.01, 7 + Double(k) * 0.0001)) }
        b.message(local: 1, [.int(FITBuilder.time(Self.t0 + 62)), 0, 4]) // stop all: the run ends
        for k in 100..<104 { b.message(local: 0, record(Double(k), 46.02, 7 + Double(k) * 0.0001)) }
        // The sessions come last, as devices write them.
        b.message(local: 2, [.int(FITBuilder.time(Self.t0 + 62)), .int(FITBuilder.time(Self.t0)), 1, 62_000, 123_456])
        b.message(local: 2, [.int(FITBuilder.time(Self.t0 + 104)), .int(FITBuilder.time(Self.t0 + 100)), 2, 4000, nil])
        let (doc, activity) = try read(b.file())
        #expect(doc.tracks.map(\.name) == ["Running", "Cycling"])
        #expect(doc.tracks.map(\.segments) == [[0..<3, 3..<5], [0..<4]])
        #expect(doc.tracks.map(\.points.count) == [5, 4])
        #expect(activity.sessions.map(\.elapsed) == [62, 4] && activity.sessions.map(\.distance) == [1234.56, nil])
        #expect(activity.sessions[1].start == Self.t0 + 100 && activity.sessions[1].end == Self.t0 + 104)
    }

    @Test func aCourseGivesItsPointsAsWaypoints() throws {
        var b = FITBuilder()
        b.define(local: 0, global: 0, fields: [.init(0, FITBuilder.enumType)])
        b.message(local: 0, [6])
        b.define(local: 1, global: 31, fields: [.init(5, size: 16, FITBuilder.string), .init(4, FITBuilder.enumType)])
        b.message(local: 1, ["Col du Lautaret", 2])
        b.define(local: 2, global: 20, fields: Self.recordFields)
        for k in 0..<3 { b.message(local: 2, record(Double(k), 45 + Double(k) * 0.01, 6.4)) }
        b.define(local: 3, global: 32, fields: [.init(1, FITBuilder.uint32), .init(2, FITBuilder.sint32), .init(3, FITBuilder.sint32),
                                                .init(5, FITBuilder.enumType), .init(6, size: 12, FITBuilder.string)])
        b.message(local: 3, [.int(FITBuilder.time(Self.t0)), .int(FITBuilder.semicircles(45)), .int(FITBuilder.semicircles(6.4)), 0, "Départ"])
        b.message(local: 3, [.int(FITBuilder.time(Self.t0)), .int(FITBuilder.semicircles(45.02)), .int(FITBuilder.semicircles(6.4)), 0, "Sommet du col"])
        b.message(local: 3, [.int(FITBuilder.time(Self.t0)), nil, nil, 0, "nowhere"])
        let (doc, activity) = try read(b.file())
        #expect(activity.fileType == 6 && activity.courseName == "Col du Lautaret")
        #expect(doc.tracks.map(\.name) == ["Col du Lautaret"] && doc.tracks.first?.points.count == 3)
        // A name that fills its field has no terminating zero: cut at the field's end.
        #expect(doc.waypoints.map(\.name) == ["Départ", "Sommet du co"])
        #expect(doc.waypoints.allSatisfy { abs($0.longitude - 6.4) < 1e-7 })
    }

    @Test func damageInsideTheData() throws {
        // A data message of a local type never defined: what came before is kept.
        var b = ride(bigEndian: false)
        b.records.append(0x05)
        b.records += [UInt8](repeating: 0, count: 30)
        var (doc, _) = try read(b.file())
        #expect(doc.tracks.first?.points.count == 5)
        #expect(doc.problems.first?.reason.hasPrefix("at byte ") == true && doc.problems.first?.reason.contains("local type 5") == true)

        // A header that gives no data size (a recording not finished): read to the end.
        var bytes = ride(bigEndian: false).file(headerSize: 12)
        for k in 4..<8 { bytes[k] = 0 }
        (doc, _) = try read(bytes)
        #expect(doc.tracks.first?.points.count == 5 && doc.problems.count >= 1)

        // An unknown byte order.
        bytes = ride(bigEndian: false).file(headerSize: 12)
        bytes[12 + 2] = 7
        (doc, _) = try read(bytes)
        #expect(doc.tracks.isEmpty && doc.problems.first?.reason.contains("byte order") == true)

        // Positions beyond the poles are skipped and counted.
        b = FITBuilder()
        b.define(local: 0, global: 20, fields: Self.recordFields)
        b.message(local: 0, record(0, 46, 7))
        b.message(local: 0, [.int(FITBuilder.time(Self.t0 + 1)), .int(FITBuilder.semicircles(120)), .int(FITBuilder.semicircles(7))])
        (doc, _) = try read(b.file())
        #expect(doc.tracks.first?.points.count == 1 && doc.problems.map(\.reason) == ["1 record has a position out of range; skipped"])
    }

    @Test func chainedFilesAndPaddingAfterThem() throws {
        let one = ride(bigEndian: false).file(), two = ride(bigEndian: true).file(headerSize: 12)
        // Each file of a chain is a recording of its own: a track each.
        var (doc, _) = try read(one + two + [0, 0, 0, 0])
        #expect(doc.problems.isEmpty && doc.tracks.map(\.points.count) == [5, 5])
        (doc, _) = try read(one + [1, 2, 3])
        #expect(doc.tracks.first?.points.count == 5 && doc.problems.count == 1)
        // The second file's checksum wrong: both read, one problem.
        var damaged = two
        damaged[damaged.count - 2] ^= 0x01
        (doc, _) = try read(one + damaged)
        #expect(doc.tracks.map(\.points.count) == [5, 5])
        #expect(doc.problems.map(\.reason) == ["its checksum does not match (damaged?); what could be read is shown"])
        // The second header's mark is ".GIT": the first file is kept.
        damaged = two
        damaged[9] = UInt8(ascii: "G")
        (doc, _) = try read(one + damaged)
        #expect(doc.tracks.map(\.points.count) == [5])
        #expect(doc.problems.map(\.reason) == ["at byte \(one.count), after the FIT data: not a FIT file (its header lacks the “.FIT” mark); the rest is ignored"])
    }
}
