import Glibc
import Platform
import Testing

/// The one calendar, against the C library's gmtime_r and a few dates known by heart.
struct CivilCalendarTests {
    @Test func knownDates() {
        #expect(CivilCalendar.days(year: 1970, month: 1, day: 1) == 0)
        #expect(CivilCalendar.days(year: 2000, month: 3, day: 1) == 11_017)
        #expect(CivilCalendar.days(year: 1969, month: 12, day: 31) == -1)
        #expect(CivilCalendar.seconds(year: 1994, month: 11, day: 6, hour: 8, minute: 49, second: 37) == 784_111_777)
        #expect(CivilCalendar.date(days: 11_016) == (2000, 2, 29))
        #expect(CivilCalendar.date(days: -1) == (1969, 12, 31))
        #expect(CivilCalendar.moment(-1) == CivilCalendar.Moment(year: 1969, month: 12, day: 31, hour: 23, minute: 59, second: 59))
        #expect(CivilCalendar.moment(.nan) == nil)
        #expect(CivilCalendar.moment(1e300) == nil)
    }

    @Test func agreesWithGmtimeBothWays() throws {
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        for _ in 0..<20_000 {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            // From 1600 to 2400: leap centuries both ways and times before 1970.
            let seconds = Int(seed >> 11) % 25_246_000_000 - 11_676_000_000
            var t = time_t(seconds), parts = tm()
            #expect(gmtime_r(&t, &parts) != nil)
            let expected = CivilCalendar.Moment(year: Int(parts.tm_year) + 1900, month: Int(parts.tm_mon) + 1, day: Int(parts.tm_mday),
                                                hour: Int(parts.tm_hour), minute: Int(parts.tm_min), second: Int(parts.tm_sec))
            let m = try #require(CivilCalendar.moment(Double(seconds)), "no moment for \(seconds)")
            #expect(m == expected)
            let back: Double = CivilCalendar.seconds(year: m.year, month: m.month, day: m.day, hour: m.hour, minute: m.minute, second: Double(m.second))
            #expect(back == Double(seconds))
        }
    }
}
