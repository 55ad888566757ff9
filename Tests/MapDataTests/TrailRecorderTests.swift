import Platform
import Foundation
import MapCore
import MapGeometry
@testable import MapData
import Testing

/// The trail on disk: the journal (appended point by point, read back past damage), the
/// GPX it is saved as (read back point for point by the GPX reader), and the recorder that
/// ties them to the tracks layer.
struct TrailRecorderTests {
    func temporary() -> URL {
        let u = FileManager.default.temporaryDirectory.appendingPathComponent("meridian-trail-\(UUID().uuidString.prefix(8))")
        try? FileManager.default.createDirectory(at: u, withIntermediateDirectories: true)
        return u
    }

    func fix(_ lat: Double, _ lon: Double, _ alt: Double? = nil) -> PositionFix {
        PositionFix(coordinate: Coordinate(latitude: lat, longitude: lon), accuracy: 5, altitude: alt)
    }

    @Test func theJournalIsReadBackAndDamageIsSkipped() throws {
        let table: [(String, [Double]?, [Range<Int>], Int)] = [
            ("meridian-trail 1\np 10.000 46.0000000 7.0000000 400.0\np 11.000 46.0010000 7.0000000 nan\n", [46, 46.001], [0..<2], 0),
            ("meridian-trail 1\np 10 46 7 1\nb\np 11 46.1 7 1\np 12 46.2 7 1\n", [46, 46.1, 46.2], [0..<1, 1..<3], 0),
            // A line torn by a kill, damage in the middle, values out of range.
            ("meridian-trail 1\np 10 46 7 1\nxx\np 11 95 7 1\np 12 46.2 inf 1\np 13 46.3 7 1\np 14 46.", [46, 46.3], [0..<2], 4),
            ("meridian-trail 1\n", [], [], 0),
            ("not a journal\np 10 46 7 1\n", nil, [], 0),
            ("", nil, [], 0),
        ]
        for (text, lats, segments, skipped) in table {
            let read = TrailJournal.read(Data(text.utf8))
            #expect(read?.track.points.latitude == lats, "\(text)")
            if let read {
                #expect(read.track.segments == segments && read.skipped == skipped, "\(text)")
            }
        }
    }

    @Test func theJournalGrowsPointByPoint() throws {
        let dir = temporary()
        defer { try? FileManager.default.removeItem(at: dir) }
        let journal = TrailJournal(url: dir.appendingPathComponent("state/trail.journal"))
        #expect(journal.append(latitude: 46, longitude: 7, elevation: 400, time: 10, breaking: false))
        // What was appended is on disk at once (nothing is held back in a buffer).
        var read = TrailJournal.read(try Data(contentsOf: journal.url))
        #expect(read?.track.points.count == 1)
        #expect(journal.append(latitude: 46.5, longitude: 7.5, elevation: .nan, time: 11, breaking: true))
        read = TrailJournal.read(try Data(contentsOf: journal.url))
        #expect(read?.track.segments == [0..<1, 1..<2] && read?.track.points.elevation[1].isNaN == true)
        journal.remove()
        #expect(!FileManager.default.fileExists(atPath: journal.url.path))
    }

    @Test func aJournalThatCannotBeWrittenSaysWhy() {
        let journal = TrailJournal(url: URL(fileURLWithPath: "/proc/meridian/trail.journal"))
        #expect(!journal.append(latitude: 46, longitude: 7, elevation: 0, time: 0, breaking: false))
        #expect(journal.failure?.contains("/proc/meridian") == true, "\(journal.failure ?? "")")
    }

    @Test func savedGPXReadsBackPointForPoint() throws {
        var points = TrackPoints()
        points.append(latitude: 46.1234567, longitude: 7.7654321, elevation: 401.5, time: 1_795_300_000)
        points.append(latitude: 46.2, longitude: 7.8, elevation: .nan, time: 1_795_300_001.25)
        points.append(latitude: -33.9, longitude: 151.2, elevation: 3, time: .nan)
        let track = Track(kind: .track, name: "Trail <&> \"x\"", segments: [0..<2, 2..<3], points: points)
        let doc = try GPXReader(file: "t.gpx").read(GPXWriter.data([track]))
        let back = try #require(doc.tracks.first)
        #expect(doc.problems.isEmpty && back.name == "Trail <&> \"x\"")
        #expect(back.segments == [0..<2, 2..<3])
        #expect(back.points.latitude == points.latitude && back.points.longitude == points.longitude)
        #expect(back.points.elevation[0] == 401.5 && back.points.elevation[1].isNaN)
        #expect(back.points.time[0] == 1_795_300_000 && back.points.time[1] == 1_795_300_001.25 && back.points.time[2].isNaN)
        #expect(GPXWriter.timestamp(1_795_300_000) == "2026-11-21T22:26:40Z")
    }

    @Test func theRecorderJournalsHandsOverSavesAndRecovers() throws {
        let dir = temporary()
        defer { try? FileManager.default.removeItem(at: dir) }
        let folder = dir.appendingPathComponent("tracks"), journal = dir.appendingPathComponent("trail.journal")
        let recorder = TrailRecorder(folder: folder, journal: journal)
        var tracks = TracksLayer()
        #expect(throws: FileWriteError.self) { try recorder.save() }
        let t0 = 1_795_300_000.0
        for k in 0..<5 { #expect(recorder.record(fix(46 + Double(k) * 0.001, 7, 400), now: t0 + Double(k) * 0.2, into: &tracks) == nil) }
        // The first line is shown at once; then at most once a second.
        #expect(tracks.files.first?.lines.first?.track.points.count == 2)
        recorder.record(fix(46.01, 7), now: t0 + 1.3, into: &tracks)
        #expect(tracks.files.first?.lines.first?.track.points.count == 6)
        #expect(TrailJournal.read(try Data(contentsOf: journal))?.track.points.count == 6)
        let url = try recorder.save()
        #expect(url.deletingLastPathComponent().path == folder.path && url.lastPathComponent == "trail-2026-11-21-2226.gpx")
        #expect(try GPXReader(file: "t").read(Data(contentsOf: url)).tracks.first?.points.count == 6)
        #expect(!recorder.hasUnsaved)
        recorder.record(fix(46.02, 7), now: t0 + 3, into: &tracks)
        #expect(recorder.hasUnsaved)

        // A run killed now: the next one takes the journal up, with every point.
        let next = TrailRecorder(folder: folder, journal: journal)
        let notice = next.recover()
        #expect(notice?.contains("7 points") == true, "\(notice ?? "")")
        #expect(next.trail.count == 7)
        // Its clean quit saves a new file (the first is not overwritten) and ends the journal.
        let saved = try next.finish()
        #expect(saved != nil && saved != url && saved?.lastPathComponent == "trail-2026-11-21-2226-2.gpx")
        #expect(!FileManager.default.fileExists(atPath: journal.path))
        #expect(try GPXReader(file: "t").read(Data(contentsOf: url)).tracks.first?.points.count == 6)
    }
}
