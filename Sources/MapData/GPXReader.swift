import FoundationEssentials
import Glibc
import MapCore
import MapGeometry
import Platform

/// What a file holds: its lines (GPX tracks and routes, GeoJSON and CSV lines), its areas,
/// its named points, and what was skipped.
public struct GeoDocument: Sendable {
    public var tracks: [Track] = []
    public var areas: [Area] = []
    public var waypoints: [Waypoint] = []
    /// Problems that did not stop the reading, each with its line: the rest was loaded.
    public var problems: [GeoFileError] = []
}

/// Reads GPX 1.0 and 1.1 straight from bytes.
///
/// libxml2 needs 1.1 s for the SAX parse alone of a 100 MB, million-point track here (and
/// its streaming reader with Swift on top 5 s); the issue allows one second from exec to the
/// track on screen. So this reader tokenizes the XML itself, knowing only what GPX needs:
/// elements, attributes, text, comments, CDATA and the predefined entities. A DTD is refused
/// (that is how external-entity and billion-laughs attacks arrive); nothing is fetched.
/// Bad points are skipped and reported with their line; a truncated file keeps what came
/// before the cut.
public struct GPXReader {
    let file: String
    let progress: Progress?

    public init(file: String, progress: Progress? = nil) {
        self.file = file
        self.progress = progress
    }

    public func read(_ data: Data) throws -> GeoDocument {
        try data.withUnsafeBytes { raw in
            try GPXParser.read(raw.bindMemory(to: UInt8.self), file: file, progress: progress)
        }
    }

    /// Reads in pieces that start at `starts` (offsets into `data`), each on its own thread:
    /// whatever the offsets, the document is the one a single pass reads. For tests and the
    /// fuzzer; `read` picks its own pieces.
    public func read(_ data: Data, piecesStartingAt starts: [Int]) throws -> GeoDocument {
        let valid = Set(starts.filter { $0 > 0 && $0 < data.count }).sorted()
        return try data.withUnsafeBytes { raw in
            try GPXParser.read(raw.bindMemory(to: UInt8.self), file: file, starts: valid, progress: progress)
        }
    }
}

/// The tokenizer and the GPX state it drives. A large file is read in pieces on all cores
/// (GPXParser+Pieces.swift); the pieces join into exactly what one pass would give.
struct GPXParser {
    let bytes: UnsafeBufferPointer<UInt8>
    let file: String
    var document = GeoDocument()
    var i = 0
    /// Lines counted up to `lineAt` (problems are rare; lines are found when one happens).
    var lineAt = 0, line = 1

    // Where we are.
    var stack: [Name] = []
    var sawGPX = false
    var track: Track?
    var segmentStart = 0
    var point: (lat: Double, lon: Double, ele: Float, time: Double, hr: UInt16, cad: UInt16)?
    var waypoint: Waypoint?
    /// Inside an element whose text matters; the text so far.
    var capturingText = false
    var textBuffer: [UInt8] = []
    /// Bytes before this offset have been released (`FileIO.releaseMapped`).
    var released = 0
    /// Bytes read are counted here, and reading stops when it is cancelled.
    var progress: Progress?
    /// A piece that starts inside a `<trk><trkseg>` opened before it (see `Continuation`).
    var continuation: Continuation?

    /// The elements GPX reading cares about, by local name (any namespace prefix).
    enum Name: Equatable { case gpx, trk, rte, trkseg, trkpt, rtept, wpt, name, ele, time, hr, cad, displayColor, other }

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

    /// Reads tags that start before `limit` (text and tags may run past it).
    mutating func run(until limit: Int) throws {
        let n = bytes.count
        // A UTF-8 byte order mark.
        if i == 0, n >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { i = 3 }
        guard let base = bytes.baseAddress else { throw fail(tr("is empty"), at: 0) }
        while i < limit {
            guard let lt = memchr(base + i, 0x3C, n - i) else { i = n; break }
            let at = UnsafePointer<UInt8>(lt.assumingMemoryBound(to: UInt8.self)) - base
            if capturingText { appendText(i..<at) }
            i = at
            if i >= limit { break }
            try tag()
            // What lies behind is done with: a mapped file's pages go back (a 100 MB file is
            // not resident all at once). The reading so far counts, and may be cancelled.
            if i - released >= 8 << 20 {
                FileIO.releaseMapped(base, released..<i)
                if let progress, !progress.advance(by: i - released) { throw CancelledError() }
                released = i
            }
        }
    }

    /// After the last tag: what was left open is closed, and a file without `<gpx>` refused.
    mutating func finish() throws {
        if !stack.isEmpty {
            problem(tr("the file ends before its elements close (cut short?); what came before is kept"), at: bytes.count)
            closeOpenTrack()
        }
        guard sawGPX else { throw fail(tr("not a GPX document (no <gpx> element)"), at: 0) }
    }

    mutating func appendText(_ r: Range<Int>) {
        guard !r.isEmpty else { return }
        textBuffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[r]))
    }

    // The helpers the tokenizer calls for every tag (starts, find, classify) are always inlined:
    // a call left outlined from a mutating method first copies the whole parser (self), and the
    // release build (-Osize throughout) leaves them outlined: a 1M-point GPX read twice as slow.
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
        // Nearly every tag is `<name` or `</name`: the byte after `<` tells them from the rare
        // `<?` and `<!` kinds without comparing strings.
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
            let name = classify(nameStart..<k)
            i = min(k + 1, bytes.count)
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
        // Byte by byte, not memcmp: names differ in their first bytes, and -Osize leaves a
        // constant-length memcmp a call into libc.
        func is_(_ s: StaticString) -> Bool {
            guard hi - lo == s.utf8CodeUnitCount else { return false }
            let p = s.utf8Start
            var j = 0
            while j < hi - lo { if bytes[lo + j] != p[j] { return false }; j += 1 }
            return true
        }
        switch hi - lo {
        case 3: return is_("gpx") ? .gpx : is_("trk") ? .trk : is_("rte") ? .rte : is_("wpt") ? .wpt : is_("ele") ? .ele : is_("cad") ? .cad : .other
        case 2: return is_("hr") ? .hr : .other
        case 4: return is_("name") ? .name : is_("time") ? .time : .other
        case 5: return is_("trkpt") ? .trkpt : is_("rtept") ? .rtept : .other
        case 6: return is_("trkseg") ? .trkseg : .other
        case 7: return is_("cadence") ? .cad : .other
        case 12: return is_("DisplayColor") ? .displayColor : .other
        default: return .other
        }
    }

    mutating func startTag() throws {
        let start = i
        var k = i + 1
        let n = bytes.count
        while k < n, !TextNumbers.isBlank(bytes[k]), bytes[k] != UInt8(ascii: ">"), bytes[k] != UInt8(ascii: "/") { k += 1 }
        let name = classify((i + 1)..<k)
        var lat: Double?, lon: Double?, sawLat = false, sawLon = false
        // Attributes: name="value" or name='value'.
        while true {
            while k < n, TextNumbers.isBlank(bytes[k]) { k += 1 }
            guard k < n else { i = n; return }
            if bytes[k] == UInt8(ascii: ">") { k += 1; break }
            if bytes[k] == UInt8(ascii: "/") { // self-closing
                i = min(k + 2, n)
                open(name, lat: lat, lon: lon, sawLat: sawLat, sawLon: sawLon, at: start)
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
            let quote = bytes[k]
            let valueStart = k + 1
            guard let q = memchr(bytes.baseAddress! + valueStart, Int32(quote), n - valueStart) else { i = n; return }
            let valueEnd = UnsafePointer<UInt8>(q.assumingMemoryBound(to: UInt8.self)) - bytes.baseAddress!
            k = valueEnd + 1
            if name == .trkpt || name == .rtept || name == .wpt {
                let attr = UnsafeBufferPointer(rebasing: bytes[attrStart..<attrEnd])
                let value = UnsafeBufferPointer(rebasing: bytes[valueStart..<valueEnd])
                if attr.count == 3, attr[0] == UInt8(ascii: "l"), attr[1] == UInt8(ascii: "a"), attr[2] == UInt8(ascii: "t") {
                    sawLat = true; lat = TextNumbers.double(value)
                } else if attr.count == 3, attr[0] == UInt8(ascii: "l"), attr[1] == UInt8(ascii: "o"), attr[2] == UInt8(ascii: "n") {
                    sawLon = true; lon = TextNumbers.double(value)
                }
            }
        }
        i = k
        open(name, lat: lat, lon: lon, sawLat: sawLat, sawLon: sawLon, at: start)
    }

    mutating func open(_ name: Name, lat: Double?, lon: Double?, sawLat: Bool, sawLon: Bool, at offset: Int) {
        let parent = stack.last
        stack.append(name)
        switch name {
        case .gpx: sawGPX = true
        case .trk, .rte:
            closeOpenTrack()
            track = Track(kind: name == .trk ? .track : .route)
            segmentStart = 0
        case .trkseg:
            closeSegment()
        case .trkpt, .rtept:
            if track == nil { track = Track(kind: name == .trkpt ? .track : .route); segmentStart = 0 }
            if track!.points.count == 0, !reserved { reserve() }
            point = nil
            if let lat, let lon, Coordinate(latitude: lat, longitude: lon).isValid {
                point = (lat, lon, .nan, .nan, 0, 0)
            } else {
                problem(Self.whatIsWrong(name == .trkpt ? "trkpt" : "rtept", lat, lon, sawLat, sawLon), at: offset)
            }
        case .wpt:
            if let lat, let lon, Coordinate(latitude: lat, longitude: lon).isValid {
                waypoint = Waypoint(latitude: lat, longitude: lon)
            } else {
                problem(Self.whatIsWrong("wpt", lat, lon, sawLat, sawLon), at: offset)
            }
        case .name, .ele, .time, .hr, .cad, .displayColor:
            // Text that matters: a track's or waypoint's name, a point's values, a colour.
            let wanted = (name == .name && (parent == .trk || parent == .rte || parent == .wpt))
                || ((name == .ele || name == .time) && (parent == .trkpt || parent == .rtept || parent == .wpt))
                || ((name == .hr || name == .cad) && point != nil)
                || (name == .displayColor && track != nil && point == nil)
            if wanted { capturingText = true; textBuffer.removeAll(keepingCapacity: true) }
        case .other: break
        }
    }

    mutating func end(_ name: Name, at offset: Int) {
        // Tolerate a missing end tag: pop to the matching open element, if any.
        if stack.last == name { stack.removeLast() } else {
            guard let idx = stack.lastIndex(of: name) else { return }
            stack.removeSubrange(idx...)
        }
        switch name {
        case .trk, .rte: closeOpenTrack()
        case .trkseg: closeSegment()
        case .trkpt, .rtept:
            if let p = point, track != nil {
                track!.points.append(latitude: p.lat, longitude: p.lon, elevation: p.ele, time: p.time, heartRate: p.hr, cadence: p.cad)
            }
            point = nil
        case .wpt:
            if let w = waypoint { document.waypoints.append(w) }
            waypoint = nil
        case .name, .ele, .time, .hr, .cad, .displayColor:
            guard capturingText else { return }
            capturingText = false
            finishText(name, at: offset)
        default: break
        }
    }

    /// Room for as many points as the file (or this piece of it, up to `reserveEnd`) could
    /// hold (a point takes ~60 bytes or more), made once for the first track: a million
    /// appends then never copy the arrays.
    var reserved = false
    var reserveEnd: Int?
    mutating func reserve() {
        reserved = true
        let n = min(max((reserveEnd ?? bytes.count) - i, 0) / 60 + 16, 20_000_000)
        track!.points.latitude.reserveCapacity(n)
        track!.points.longitude.reserveCapacity(n)
        track!.points.elevation.reserveCapacity(n)
        track!.points.time.reserveCapacity(n)
    }

    mutating func closeSegment() {
        guard let t = track else { return }
        if continuation?.isOpen == true, continuation!.firstSegmentEnd == nil { continuation!.firstSegmentEnd = t.points.count }
        if t.points.count > segmentStart { track!.segments.append(segmentStart..<t.points.count) }
        segmentStart = t.points.count
    }

    mutating func closeOpenTrack() {
        closeSegment()
        if continuation?.isOpen == true, let t = track {
            // The track a piece began inside: it joins the one opened before the piece.
            continuation!.isOpen = false
            continuation!.closed = t
            track = nil
            return
        }
        if var t = track, t.points.count > 0 {
            t.points.finish()
            document.tracks.append(t)
        }
        track = nil
    }

    /// Why the point `element` (trkpt, rtept, wpt) was skipped.
    static func whatIsWrong(_ element: String, _ lat: Double?, _ lon: Double?, _ sawLat: Bool, _ sawLon: Bool) -> String {
        // TRANSLATORS: %@ is a GPX element's name (trkpt, rtept, wpt); lat and lon are its attributes.
        if !sawLat || !sawLon { return tr("<%@> without lat and lon skipped", element) }
        // TRANSLATORS: %@ is a GPX element's name (trkpt, rtept, wpt); lat and lon are its attributes.
        guard let lat, let lon, lat.isFinite, lon.isFinite else { return tr("<%@> with a lat or lon that is not a number skipped", element) }
        // TRANSLATORS: %1$@ is a GPX element's name (trkpt, rtept, wpt), %2$@ and %3$@ the numbers in the file.
        return tr("<%1$@> with coordinates out of range (lat %2$@, lon %3$@) skipped", element, lat, lon)
    }
}
