import MapCore
import MapPosition
import Testing
import TestSupport

/// The GeoClue2 client against GeoClue as python3-dbusmock plays it on a private bus: the
/// first location arrives with its accuracy, speed and heading, later ones follow, and a
/// refusal, a missing service, a location out of range and a crashed service are said.
@Suite(.serialized) struct GeoClueSourceTests {
    @Test func locationsArriveAndFollow() throws {
        let mock = try GeoClueMock(parameters: ["lat": 45.764, "lon": 4.8357, "accuracy": 30, "speed": 3.5, "heading": 270])
        let src = GeoClueSource(desktopID: "io.github.meridian.Meridian", busAddress: mock.address)
        #expect(src.staleAfter == nil, "GeoClue reports only when the device moves")
        let events = src.collect()
        defer { src.stop() }
        #expect(waitUntil { events.fixes.count >= 1 }, "\(events.snapshot)")
        let first = try #require(events.fixes.first)
        #expect(first.coordinate.latitude == 45.764 && first.coordinate.longitude == 4.8357)
        #expect(first.accuracy == 30 && first.speed == 3.5 && first.course == 270 && first.heading == 270)
        #expect(first.altitude == nil, "GeoClue's unknown altitude (-DBL_MAX) is left out")
        #expect(first.time == 1_700_000_001)
        try mock.move(latitude: 45.77, longitude: 4.85, accuracy: 12)
        #expect(waitUntil { events.fixes.count >= 2 }, "\(events.snapshot)")
        let second = events.fixes[1]
        #expect(second.coordinate.latitude == 45.77 && second.accuracy == 12)
        #expect(second.speed == nil && second.heading == nil, "speed and heading -1 mean unknown")
        #expect(events.reasons.isEmpty, "\(events.reasons)")
    }

    @Test func aRefusalIsSaidOnce() throws {
        let mock = try GeoClueMock(parameters: ["refuse": true])
        let src = GeoClueSource(desktopID: "io.github.meridian.Meridian", busAddress: mock.address)
        let events = src.collect()
        defer { src.stop() }
        #expect(waitUntil { !events.reasons.isEmpty })
        #expect(events.reasons.count == 1 && events.reasons[0].contains("refused") && events.reasons[0].contains("disabled"), "\(events.reasons)")
        #expect(events.fixes.isEmpty)
    }

    @Test func aBusWithoutGeoClueIsSaidAndStopIsQuick() throws {
        let mock = try GeoClueMock(start: false)
        let src = GeoClueSource(desktopID: "io.github.meridian.Meridian", busAddress: mock.address)
        let events = src.collect()
        #expect(waitUntil { !events.reasons.isEmpty })
        #expect(events.reasons.first?.contains("GeoClue") == true, "\(events.reasons)")
        #expect(returns { src.stop() }, "stop waited on a bus without GeoClue")
    }

    @Test func aLocationOutOfRangeIsSaidNotShown() throws {
        let mock = try GeoClueMock(parameters: ["lat": 95.0, "lon": 4.8])
        let src = GeoClueSource(desktopID: "io.github.meridian.Meridian", busAddress: mock.address)
        let events = src.collect()
        defer { src.stop() }
        #expect(waitUntil { !events.reasons.isEmpty }, "\(events.snapshot)")
        #expect(events.reasons.first?.contains("out of range") == true, "\(events.reasons)")
        #expect(events.fixes.isEmpty)
        try mock.move(latitude: 45, longitude: 5, accuracy: 100)
        #expect(waitUntil { events.fixes.count == 1 }, "a good location after a bad one is shown")
    }

    @Test func aServiceThatDiesLosesTheFixAndStoppingStillWorks() throws {
        let mock = try GeoClueMock()
        let src = GeoClueSource(desktopID: "io.github.meridian.Meridian", busAddress: mock.address)
        let events = src.collect()
        #expect(waitUntil { events.fixes.count >= 1 })
        mock.vanish()
        #expect(waitUntil { events.snapshot.contains(.noFix) }, "\(events.snapshot)")
        #expect(returns { src.stop() }, "stop waited on a service that is gone")
    }
}
