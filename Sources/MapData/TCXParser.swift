import FoundationEssentials
import Glibc
import MapCore
import MapGeometry
import Platform

/// The tokenizer of TCXReader and the state it drives, in GPXParser's manner: bytes scanned
/// with memchr for `<`, element names told apart by their local name, text kept only inside
/// the elements that matter. One pass: TCX files are the size of a day's activity, not of
/// the million-point logs GPXParser reads in pieces.
struct TCXParser {
    let bytes: UnsafeBufferPointer<UInt8>
    let file: String
    var document = GeoDocument()
    var i = 0
    /// Lines counted up to `lineAt` (problems are rare; lines are found when one happens).
    var lineAt = 0, line = 1

    // Where we are.
    var stack: [Name] = []
    var sawRoot = false
    var track: Track?
    var segmentStart = 0
    /// A <Track> ended in the lap still open: another one in it follows a pause (a new
    /// segment); the next lap's first one goes on from it (a lap is a split, not a gap).
    var trackEndedInLap = false
    /// The Trackpoint or CoursePoint being read (nil outside one), and what it holds so far.
    var pointKind: Name?
    var point = Point()
    /// Inside an element whose text matters; the text so far.
    var capturingText = false
    var textBuffer: [UInt8] = []
    /// Bytes before this offset have been released (`FileIO.releaseMapped`).
    var released = 0
    var reserved = false

    /// The elements TCX reading cares about, by local name (any namespace prefix).
    enum Name: Equatable {
        case root, activity, course, lap, track, trackpoint, coursePoint, name, time, position, latitude, longitude
        case altitude, heartRate, value, cadence, tpx, watts, runCadence, other
    }

    /// A trackpoint's or course point's values; NaN or nil where the file has none.
    struct Point {
        var latitude = Double.nan, longitude = Double.nan
        var sawLatitude = false, sawLongitude = false
        /// Where its Position starts (for the line of a problem with it).
        var positionAt: Int?
        var elevation = Float.nan, time = Double.nan
        var heartRate: UInt16 = 0, power: UInt16 = 0
        var cadence: UInt16?, runCadence: UInt16?
        var name: String?
    }

    init(bytes: UnsafeBufferPointer<UInt8>, file: String) {
        self.bytes = bytes
        self.file = file
    }

    mutating func lineNumber(at offset: Int) -> Int {
        if offset < lineAt { lineAt = 0; line = 1 }
        var k = lineAt
        while k < offset && k < bytes.count { if bytes[k] == 0x0A { line += 1 }; k += 1 }
        lineAt = k
        return line
    }

    mutating func problem(_ reason: String, at offset: Int) {
        guard document.problems.count < 1000 else { return }
        document.problems.append(GeoFileError(file: file, line: lineNumber(at: offset), reason: reason))
    }

    func fail(_ reason: String, at offset: Int) -> GeoFileError {
        var copy = self
        return GeoFileError(file: file, line: copy.lineNumber(at: offset), reason: reason)
    }

    mutating func run() throws {
        let n = bytes.count
        // A UTF-8 byte order mark.
        if n >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { i = 3 }
        guard let base = bytes.baseAddress else { throw fail(tr("is empty"), at: 0) }
        while i < n {
            guard let lt = memchr(base + i, 0x3C, n - i) else { i = n; break }
            let at = UnsafePointer<UInt8>(lt.assumingMemoryBound(to: UInt8.self)) - base
            if capturingText { appendText(i..<at) }
            i = at
            try tag()
            // What lies behind is done with: a mapped file's pages go back.
            if i - released >= 8 << 20 {
                FileIO.releaseMapped(base, released..<i)
                released = i
            }
        }
    }

    /// After the last tag: what was left open is closed, and a file that is not TCX refused.
    mutating func finish() throws {
        if !stack.isEmpty {
            problem(tr("the file ends before its elements close (cut short?); what came before is kept"), at: bytes.count)
        }
        // Also a track whose end tag went missing, popped with an outer element's.
        closeOpenTrack()
        guard sawRoot else { throw fail(tr("not a TCX document (no <TrainingCenterDatabase> element)"), at: 0) }
    }

    mutating func appendText(_ r: Range<Int>) {
        guard !r.isEmpty else { return }
        textBuffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[r]))
    }

    // Inlined for the reason GPXParser gives: an outlined call from a mutating method copies
    // the whole parser first.
    @inline(__always)
    func starts(_ s: StaticString, at k: Int) -> Bool {
        let len = s.utf8CodeUnitCount
        guard k + len <= bytes.count else { return false }
        let p = s.utf8Start
        var j = 0
        while j < len { if bytes[k + j] != p[j] { return false }; j += 1 }
        return true
    }

    /// The offset of `s` from `k` on, or nil.
    @inline(__always)
    func find(_ s: StaticString, from k: Int) -> Int? {
        let first = Int32(s.utf8Start.pointee), len = s.utf8CodeUnitCount
        var k = k
        while k + len <= bytes.count {
            guard let p = memchr(bytes.baseAddress! + k, first, bytes.count - k) else { return nil }
            k = UnsafePointer<UInt8>(p.assumingMemoryBound(to: UInt8.self)) - bytes.baseAddress!
            if starts(s, at: k) { return k }
            k += 1
        }
        return nil
    }

    mutating func tag() throws {
        let start = i
        let second = i + 1 < bytes.count ? bytes[i + 1] : 0
        if second == UInt8(ascii: "?") {
            guard let e = find("?>", from: i + 2) else { i = bytes.count; return }
            i = e + 2
        } else if second == UInt8(ascii: "!") {
            if starts("<!--", at: i) {
                guard let e = find("-->", from: i + 4) else { i = bytes.count; return }
                i = e + 3
            } else if starts("<![CDATA[", at: i) {
                guard let e = find("]]>", from: i + 9) else { i = bytes.count; return }
                if capturingText { appendText((i + 9)..<e) }
                i = e + 3
            } else {
                throw fail(tr("a document type declaration (DTD) is not accepted"), at: start)
            }
        } else if second == UInt8(ascii: "/") {
            var k = i + 2
            let nameStart = k
            while k < bytes.count, bytes[k] != UInt8(ascii: ">") { k += 1 }
            // An end tag the file stops inside is cut short, not an end: what it would close
            // is closed by `finish` as the rest is.
            guard k < bytes.count else { i = bytes.count; return }
            let name = classify(nameStart..<k)
            i = k + 1
            end(name, at: start)
        } else {
            try startTag()
        }
    }

    /// The element's local name (after any prefix), trimmed.
    @inline(__always)
    func classify(_ r: Range<Int>) -> Name {
        var lo = r.lowerBound, hi = r.upperBound
        while hi > lo, TextNumbers.isBlank(bytes[hi - 1]) { hi -= 1 }
        var k = lo
        while k < hi { if bytes[k] == UInt8(ascii: ":") { lo = k + 1 }; k += 1 }
        func is_(_ s: StaticString) -> Bool {
            guard hi - lo == s.utf8CodeUnitCount else { return false }
            let p = s.utf8Start
            var j = 0
            while j < hi - lo { if bytes[lo + j] != p[j] { return false }; j += 1 }
            return true
        }
        switch hi - lo {
        case 3: return is_("TPX") ? .tpx : is_("Lap") ? .lap : .other
        case 4: return is_("Time") ? .time : is_("Name") ? .name : .other
        case 5: return is_("Value") ? .value : is_("Track") ? .track : is_("Watts") ? .watts : .other
        case 6: return is_("Course") ? .course : .other
        case 7: return is_("Cadence") ? .cadence : .other
        case 8: return is_("Position") ? .position : is_("Activity") ? .activity : .other
        case 10: return is_("Trackpoint") ? .trackpoint : is_("RunCadence") ? .runCadence : .other
        case 11: return is_("CoursePoint") ? .coursePoint : .other
        case 12: return is_("HeartRateBpm") ? .heartRate : .other
        case 14: return is_("AltitudeMeters") ? .altitude : .other
        case 15: return is_("LatitudeDegrees") ? .latitude : .other
        case 16: return is_("LongitudeDegrees") ? .longitude : .other
        case 22: return is_("TrainingCenterDatabase") ? .root : .other
        default: return .other
        }
    }

    mutating func startTag() throws {
        let start = i
        var k = i + 1
        let n = bytes.count
        while k < n, !TextNumbers.isBlank(bytes[k]), bytes[k] != UInt8(ascii: ">"), bytes[k] != UInt8(ascii: "/") { k += 1 }
        let name = classify((i + 1)..<k)
        var sport: Range<Int>?
        // Attributes: name="value" or name='value'; only an Activity's Sport matters.
        while true {
            while k < n, TextNumbers.isBlank(bytes[k]) { k += 1 }
            guard k < n else { i = n; return }
            if bytes[k] == UInt8(ascii: ">") { k += 1; break }
            if bytes[k] == UInt8(ascii: "/") { // self-closing
                i = min(k + 2, n)
                open(name, sport: sport, at: start)
                end(name, at: start)
                return
            }
            let attrStart = k
            while k < n, bytes[k] != UInt8(ascii: "="), bytes[k] != UInt8(ascii: ">"), !TextNumbers.isBlank(bytes[k]) { k += 1 }
            let attrEnd = k
            while k < n, TextNumbers.isBlank(bytes[k]) { k += 1 }
            // The end of the file inside a tag: a truncated file, kept up to here.
            guard k < n else { i = n; return }
            guard bytes[k] == UInt8(ascii: "=") else { throw fail(tr("not well-formed XML (an attribute without a value)"), at: start) }
            k += 1
            while k < n, TextNumbers.isBlank(bytes[k]) { k += 1 }
            guard k < n else { i = n; return }
            guard bytes[k] == UInt8(ascii: "\"") || bytes[k] == UInt8(ascii: "'") else {
                throw fail(tr("not well-formed XML (an attribute value without quotes)"), at: start)
            }
            let valueStart = k + 1
            guard let q = memchr(bytes.baseAddress! + valueStart, Int32(bytes[k]), n - valueStart) else { i = n; return }
            let valueEnd = UnsafePointer<UInt8>(q.assumingMemoryBound(to: UInt8.self)) - bytes.baseAddress!
            k = valueEnd + 1
            if name == .activity, attrEnd - attrStart == 5, starts("Sport", at: attrStart) { sport = valueStart..<valueEnd }
        }
        i = k
        open(name, sport: sport, at: start)
    }

    mutating func open(_ name: Name, sport: Range<Int>?, at offset: Int) {
        let parent = stack.last
        let grandparent = stack.count >= 2 ? stack[stack.count - 2] : nil
        stack.append(name)
        switch name {
        case .root: sawRoot = true
        case .activity, .course:
            closeOpenTrack()
            pointKind = nil
            track = Track(kind: name == .activity ? .track : .route, name: name == .activity ? sportName(sport) : nil)
            segmentStart = 0
        case .track:
            if trackEndedInLap || parent != .lap { closeSegment() }
            trackEndedInLap = false
        case .lap:
            trackEndedInLap = false
        case .trackpoint, .coursePoint:
            if name == .trackpoint, track == nil { track = Track(kind: .track); segmentStart = 0 }
            if name == .trackpoint, !reserved { reserve() }
            pointKind = name
            point = Point()
        case .position:
            if pointKind != nil, parent == pointKind { point.positionAt = offset }
        case .name, .time, .altitude, .latitude, .longitude, .value, .cadence, .watts, .runCadence:
            // Text that matters: a course's or course point's name, a point's values.
            let inPoint = pointKind != nil && parent == pointKind
            let wanted: Bool
            switch name {
            case .name: wanted = parent == .course || (inPoint && pointKind == .coursePoint)
            case .time, .altitude: wanted = inPoint
            case .latitude, .longitude: wanted = pointKind != nil && parent == .position && grandparent == pointKind
            case .value: wanted = pointKind == .trackpoint && parent == .heartRate && grandparent == .trackpoint
            case .cadence: wanted = inPoint && pointKind == .trackpoint
            default: wanted = pointKind == .trackpoint && parent == .tpx
            }
            if wanted { capturingText = true; textBuffer.removeAll(keepingCapacity: true) }
        case .heartRate, .tpx, .other: break
        }
    }

    mutating func end(_ name: Name, at offset: Int) {
        // Tolerate a missing end tag: pop to the matching open element, if any. Elements of no
        // interest all look alike, so an unknown end tag closes only an unknown element.
        if stack.last == name { stack.removeLast() } else {
            guard name != .other, let idx = stack.lastIndex(of: name) else { return }
            stack.removeSubrange(idx...)
        }
        switch name {
        case .activity, .course:
            capturingText = false
            pointKind = nil
            closeOpenTrack()
        case .track:
            capturingText = false
            // Within a lap, the segment ends with its <Track> (see `trackEndedInLap`).
            if stack.last == .lap { trackEndedInLap = true } else { closeSegment() }
        case .lap:
            trackEndedInLap = false
        case .trackpoint, .coursePoint:
            capturingText = false
            if pointKind == name { finishPoint(at: offset) }
            pointKind = nil
        case .name, .time, .altitude, .latitude, .longitude, .value, .cadence, .watts, .runCadence:
            guard capturingText else { return }
            capturingText = false
            finishText(name, at: offset)
        default: break
        }
    }

    /// A point read whole: onto the track, or (a course point) into the waypoints. One
    /// without any position is a pause and passes silently.
    mutating func finishPoint(at offset: Int) {
        let p = point
        guard p.sawLatitude || p.sawLongitude else { return }
        let element = pointKind == .coursePoint ? "CoursePoint" : "Trackpoint"
        guard p.sawLatitude, p.sawLongitude, p.latitude.isFinite, p.longitude.isFinite else {
            // TRANSLATORS: %@ is a TCX element's name (Trackpoint, CoursePoint); LatitudeDegrees and LongitudeDegrees are the elements of its position.
            problem(tr("<%@> with a LatitudeDegrees or LongitudeDegrees that is missing or not a number skipped", element), at: p.positionAt ?? offset)
            return
        }
        guard Coordinate(latitude: p.latitude, longitude: p.longitude).isValid else {
            // TRANSLATORS: %1$@ is a TCX element's name (Trackpoint, CoursePoint), %2$@ and %3$@ the numbers in the file.
            problem(tr("<%1$@> with coordinates out of range (lat %2$@, lon %3$@) skipped", element, p.latitude, p.longitude), at: p.positionAt ?? offset)
            return
        }
        if pointKind == .coursePoint {
            document.waypoints.append(Waypoint(latitude: p.latitude, longitude: p.longitude, name: p.name, elevation: p.elevation))
        } else if track != nil {
            track!.points.append(latitude: p.latitude, longitude: p.longitude, elevation: p.elevation, time: p.time,
                                 heartRate: p.heartRate, cadence: p.cadence ?? p.runCadence ?? 0, power: p.power)
        }
    }

    /// Room for the points the rest of the file holds if they are written as Garmin writes
    /// them (400 to 750 bytes a point), made once for the first track: appends then seldom
    /// copy the arrays, and a file of terser points only grows them.
    mutating func reserve() {
        reserved = true
        let n = min(max(bytes.count - i, 0) / 400 + 16, 5_000_000)
        track!.points.latitude.reserveCapacity(n)
        track!.points.longitude.reserveCapacity(n)
        track!.points.elevation.reserveCapacity(n)
        track!.points.time.reserveCapacity(n)
    }

    mutating func closeSegment() {
        guard let t = track else { return }
        if t.points.count > segmentStart { track!.segments.append(segmentStart..<t.points.count) }
        segmentStart = t.points.count
    }

    mutating func closeOpenTrack() {
        closeSegment()
        if var t = track, t.points.count > 0 {
            t.points.finish()
            document.tracks.append(t)
        }
        track = nil
    }
}
