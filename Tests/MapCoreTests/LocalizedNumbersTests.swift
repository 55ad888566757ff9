import MapGeometry
@testable import MapSearch
import Platform
import Testing
@testable import MapCore

/// Numbers for people in the reader's way (a comma for the point, a narrow no-break space
/// between thousands), and in English's way again once English is back.
@Suite(.serialized) struct LocalizedNumbersTests {
    /// What the texts with numbers say, in the numbers' conventions at the time.
    static func texts() -> [String] {
        let from = Coordinate(latitude: 60, longitude: 25), north = Coordinate(latitude: 60.0108, longitude: 25)
        return [
            TrackStatistics.distanceText(1500, imperial: false),
            TrackStatistics.distanceText(850, imperial: false),
            TrackStatistics.distanceText(1_234_567, imperial: false),
            TrackStatistics.distanceText(1_609.344, imperial: true),
            TrackStatistics.distanceText(10, imperial: true),
            TrackStatistics.heightText(2130.4, imperial: false),
            TrackStatistics.heightText(2130.4, imperial: false, unit: false),
            TrackStatistics.speedText(10, imperial: false),
            TrackStatistics.grouped(1230),
            TrackStatistics.durationText(3909),
            SearchRanking.distanceText(from: from, to: north, imperial: false),
            ScaleBar.format(0.5),
            ScaleBar.format(2000),
        ]
    }

    /// The conventions changed for this test's task only.
    @Test func numbersAreWrittenTheReadersWayAndEnglishIsUnchanged() {
        let english = Self.texts()
        // For this test's task alone: tests running alongside keep English's way.
        let local = Localization.$numbersHere.withValue(Localization.Numbers(decimalPoint: ",", groupSeparator: "\u{202F}")) { Self.texts() }
        let again = Self.texts()

        #expect(english == ["1.50 km", "850 m", "1,235 km", "1.00 mi", "33 ft", "2,130 m", "2,130", "36.0 km/h", "1,230", "1:05:09",
                            "1.20 km N", "0.5", "2000"])
        #expect(local == ["1,50 km", "850 m", "1\u{202F}235 km", "1,00 mi", "33 ft", "2\u{202F}130 m", "2\u{202F}130", "36,0 km/h",
                          "1\u{202F}230", "1:05:09", "1,20 km N", "0,5", "2000"])
        #expect(again == english)
        #expect(Localization.numbers == .english)
    }
}
