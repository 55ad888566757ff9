import FoundationEssentials
import MapCore
import Platform

/// The FIT reading itself: headers, definitions compiled into `FITLayout`s, and data
/// messages read straight from the bytes: a record by offsets alone, the few other messages
/// Meridian uses field by field.
struct FITParser {
    let bytes: UnsafeRawBufferPointer
    let file: String
    var problems: [GeoFileError] = []
    var activity = FITReader.Activity()
    /// Every positioned record of the file in order; `finish` cuts them into tracks.
    var points = TrackPoints()
    /// Indexes of `points` where a segment starts after a pause (the first one aside).
    var segmentStarts: [Int] = []
    var waypoints: [Waypoint] = []
    /// The timer was stopped since the last point: the next one starts a segment.
    var paused = false
    var outOfRange = 0
    /// Where each FIT file of a chain starts among the points and sessions: a file's
    /// sessions cut its own points only (a chain may hold one activity twice).
    var chain: [(point: Int, session: Int)] = []
    /// The current file's data were found cut: one problem says so.
    var cut = false

    // The FIT file being read (local types belong to one file of a chain).
    var layouts = [FITLayout](repeating: FITLayout(), count: 16)
    var fields = [[FITField]](repeating: [], count: 16)
    /// The last full timestamp (FIT seconds), which compressed headers count from.
    var lastTimestamp: UInt32?
    /// The checksum so far, of the bytes from the file's start up to `checked`; the mapped
    /// pages behind `checked` go back to the system (a large file is not resident at once).
    var crc: UInt16 = 0
    var checked = 0

    init(bytes: UnsafeRawBufferPointer, file: String) {
        self.bytes = bytes
        self.file = file
    }

    /// An error for a file that cannot be read at all.
    func fail(_ reason: String) -> GeoFileError { GeoFileError(file: file, line: nil, reason: reason) }

    mutating func problem(_ reason: String) {
        guard problems.count < 1000 else { return }
        problems.append(GeoFileError(file: file, line: nil, reason: reason))
    }

    func u32le(_ k: Int) -> UInt32 {
        UInt32(bytes[k]) | UInt32(bytes[k + 1]) << 8 | UInt32(bytes[k + 2]) << 16 | UInt32(bytes[k + 3]) << 24
    }

    /// Every FIT file of the chain, one after another.
    mutating func run() throws {
        var start = 0
        repeat {
            guard let (data, end, hasChecksum) = try header(at: start) else { return }
            chain.append((points.count, activity.sessions.count))
            readMessages(from: data, to: end)
            if hasChecksum {
                checksum(upTo: end)
                let stored = UInt16(bytes[end]) | UInt16(bytes[end + 1]) << 8
                if stored != crc {
                    // TRANSLATORS: after a file's name.
                    problem(tr("its checksum does not match (damaged?); what could be read is shown"))
                }
            }
            start = end + 2
        } while start < bytes.count
    }

    /// Reads the header at `start`: where its data start and end, and whether the file's
    /// checksum follows them. A bad first header throws; a bad one further on (after what
    /// was read) is a problem and ends the reading.
    mutating func header(at start: Int) throws -> (data: Int, end: Int, hasChecksum: Bool)? {
        let first = start == 0
        func refuse(_ reason: String) throws -> (data: Int, end: Int, hasChecksum: Bool)? {
            if first { throw fail(reason) }
            // TRANSLATORS: %1$d is a byte offset in the file; %2$@ says what is wrong there.
            problem(tr("at byte %1$d, after the FIT data: %2$@; the rest is ignored", start, reason))
            return nil
        }
        let left = bytes.count - start
        // Zeros after the last file are padding, not another file.
        if !first, bytes[start...].allSatisfy({ $0 == 0 }) { return nil }
        // TRANSLATORS: %d is the file's size in bytes.
        guard left >= 12 else { return try refuse(tr("too short to be a FIT file (%d bytes)", left)) }
        guard bytes[start + 8] == UInt8(ascii: "."), bytes[start + 9] == UInt8(ascii: "F"),
              bytes[start + 10] == UInt8(ascii: "I"), bytes[start + 11] == UInt8(ascii: "T") else {
            return try refuse(tr("not a FIT file (its header lacks the “.FIT” mark)"))
        }
        let size = Int(bytes[start])
        // TRANSLATORS: %d is a number of bytes.
        guard size >= 12 else { return try refuse(tr("the FIT header gives its own size as %d bytes, fewer than the 12 every header has", size)) }
        guard left >= size else { return try refuse(tr("too short to be a FIT file (%d bytes)", left)) }
        if size >= 14 {
            let stored = UInt16(bytes[start + 12]) | UInt16(bytes[start + 13]) << 8
            // Zero: the writer did not work it out.
            if stored != 0, stored != FITChecksum.update(0, UnsafeRawBufferPointer(rebasing: bytes[start..<(start + 12)])) {
                return try refuse(tr("the FIT header is damaged (its checksum does not match)"))
            }
        }
        crc = 0
        checked = start
        cut = false
        let data = start + size
        let dataSize = Int(u32le(start + 4))
        // (Zero with only a checksum after it is a file without data.)
        if dataSize == 0 && bytes.count - data > 2 {
            // TRANSLATORS: after a file's name.
            problem(tr("its header gives no size for its data (a recording not finished?); read to the end of the file"))
            return (data, bytes.count, false)
        }
        if dataSize > bytes.count - data {
            // TRANSLATORS: after a file's name.
            problem(tr("the file ends before its data do (cut short?); what came before is kept"))
            cut = true
            return (data, bytes.count, false)
        }
        if dataSize + 2 > bytes.count - data {
            // TRANSLATORS: after a file's name.
            problem(tr("the file ends before its checksum (cut short?); its data were read unchecked"))
            return (data, data + dataSize, false)
        }
        return (data, data + dataSize, true)
    }

    /// Brings the checksum up to `k` and lets the mapped pages before it go.
    mutating func checksum(upTo k: Int) {
        guard k > checked, let base = bytes.baseAddress else { return }
        crc = FITChecksum.update(crc, UnsafeRawBufferPointer(rebasing: bytes[checked..<k]))
        FileIO.releaseMapped(base, checked..<k)
        checked = k
    }

    /// The data messages from `start` to `end`: stops (with a problem) at the first damage
    /// it cannot get past, since without a message's definition its end is unknown.
    mutating func readMessages(from start: Int, to end: Int) {
        guard let base = bytes.baseAddress else { return }
        for k in 0..<16 { layouts[k] = FITLayout(); fields[k] = [] }
        lastTimestamp = nil
        var i = start
        while i < end {
            if i - checked >= 1 << 22 { checksum(upTo: i) }
            let h = base.load(fromByteOffset: i, as: UInt8.self)
            if h & 0xC0 == 0x40 {
                guard let next = define(at: i, end: end) else { return }
                i = next
                continue
            }
            let compressed = h & 0x80 != 0
            let local = compressed ? Int((h >> 5) & 3) : Int(h & 0x0F)
            let layout = layouts[local]
            guard layout.defined else {
                // TRANSLATORS: %1$d is a byte offset in the file, %2$d a number 0 to 15.
                problem(tr("at byte %1$d: a message of local type %2$d, which nothing defined before it (damaged?); the rest of the data is skipped", i, local))
                return
            }
            guard layout.size < end - i else {
                cutInside(at: i)
                return
            }
            let p = UnsafeRawPointer(base + i + 1)
            i += 1 + layout.size
            var time = Double.nan
            let stamp = layout.timestamp
            if stamp.base == 6, stamp.offset >= 0 {
                // A uint32 as FIT has it: read without going through a double.
                let t = FITSlot.u32(p + Int(stamp.offset), layout.bigEndian)
                if t != .max {
                    lastTimestamp = t
                    time = Double(t) + FITMessage.epoch
                }
            } else if let v = stamp.number(in: p, bigEndian: layout.bigEndian) {
                time = v + FITMessage.epoch
                if v >= 0 && v <= Double(UInt32.max) { lastTimestamp = UInt32(saturating: v) }
            } else if compressed, let last = lastTimestamp {
                // Five bits of seconds after the last full timestamp, rolling over every 32.
                let offset = UInt32(h & 0x1F)
                var t = (last & ~0x1F) &+ offset
                if offset < last & 0x1F { t &+= 0x20 }
                lastTimestamp = t
                time = Double(t) + FITMessage.epoch
            }
            guard layout.global == FITMessage.record else {
                if FITMessage.isRead(layout.global) { message(layout, fields[local], at: p, time: time) }
                continue
            }
            // A record: the hot path, a million times for a long file.
            activity.records += 1
            if time.isFinite {
                if activity.firstRecordTime == nil { activity.firstRecordTime = time }
                activity.lastRecordTime = time
            }
            let big = layout.bigEndian
            guard let la = layout.latitude.number(in: p, bigEndian: big), let lo = layout.longitude.number(in: p, bigEndian: big) else { continue }
            let lat = la * FITMessage.degreesPerSemicircle, lon = lo * FITMessage.degreesPerSemicircle
            guard abs(lat) <= 90, abs(lon) <= 180 else { outOfRange += 1; continue }
            var elevation = Float.nan
            if let v = layout.enhancedAltitude.number(in: p, bigEndian: big) ?? layout.altitude.number(in: p, bigEndian: big) {
                elevation = Float(v / 5 - 500)
            }
            var heartRate: UInt16 = 0, cadence: UInt16 = 0, power: UInt16 = 0, temperature = Float.nan
            if let v = layout.heartRate.integer(in: p, bigEndian: big) { heartRate = UInt16(clamping: v) }
            if let v = layout.cadence.integer(in: p, bigEndian: big) { cadence = UInt16(clamping: v) }
            if let v = layout.power.integer(in: p, bigEndian: big) { power = UInt16(clamping: v) }
            if let v = layout.temperature.number(in: p, bigEndian: big) { temperature = Float(v) }
            if paused {
                paused = false
                if points.count > (segmentStarts.last ?? 0) { segmentStarts.append(points.count) }
            }
            points.append(latitude: lat, longitude: lon, elevation: elevation, time: time,
                          heartRate: heartRate, cadence: cadence, power: power, temperature: temperature)
        }
    }

    /// The data end inside the message at `i`: said unless the file was already found cut.
    mutating func cutInside(at i: Int) {
        guard !cut else { return }
        // TRANSLATORS: %d is a byte offset in the file.
        problem(tr("at byte %d: the data end inside a message (cut short?); what came before is kept", i))
    }

    /// Compiles the definition message at `i` into local type's layout; the offset after it,
    /// or nil (with a problem) when it is cut or damaged.
    mutating func define(at i: Int, end: Int) -> Int? {
        func cut() -> Int? {
            cutInside(at: i)
            return nil
        }
        let h = bytes[i], local = Int(h & 0x0F)
        guard end - i >= 6 else { return cut() }
        let architecture = bytes[i + 2]
        guard architecture <= 1 else {
            // TRANSLATORS: %1$d is a byte offset in the file; %2$d the number found where 0 or 1 belongs.
            problem(tr("at byte %1$d: a definition names an unknown byte order (%2$d; damaged?); the rest of the data is skipped", i, Int(architecture)))
            return nil
        }
        var layout = FITLayout()
        layout.defined = true
        layout.bigEndian = architecture == 1
        let g0 = UInt16(bytes[i + 3]), g1 = UInt16(bytes[i + 4])
        layout.global = layout.bigEndian ? g0 << 8 | g1 : g1 << 8 | g0
        let count = Int(bytes[i + 5])
        var k = i + 6
        guard end - k >= 3 * count else { return cut() }
        let isRecord = layout.global == FITMessage.record, keepsFields = FITMessage.isRead(layout.global)
        var list: [FITField] = []
        var offset = 0
        for _ in 0..<count {
            let number = bytes[k], size = Int(bytes[k + 1]), type = bytes[k + 2]
            k += 3
            if keepsFields { list.append(FITField(number: number, offset: offset, size: size, baseType: type)) }
            let slot = FITSlot(offset: offset, size: size, baseType: type)
            offset += size
            // The first of a field given twice counts.
            if number == FITMessage.timestampField {
                if layout.timestamp.offset < 0 { layout.timestamp = slot }
                continue
            }
            guard isRecord else { continue }
            switch number {
            case 0: if layout.latitude.offset < 0 { layout.latitude = slot }
            case 1: if layout.longitude.offset < 0 { layout.longitude = slot }
            case 2: if layout.altitude.offset < 0 { layout.altitude = slot }
            case 3: if layout.heartRate.offset < 0 { layout.heartRate = slot }
            case 4: if layout.cadence.offset < 0 { layout.cadence = slot }
            case 7: if layout.power.offset < 0 { layout.power = slot }
            case 13: if layout.temperature.offset < 0 { layout.temperature = slot }
            case 78: if layout.enhancedAltitude.offset < 0 { layout.enhancedAltitude = slot }
            default: break
            }
        }
        // Developer fields: only their sizes matter, to step over them.
        if h & 0x20 != 0 {
            guard end - k >= 1 else { return cut() }
            let developer = Int(bytes[k])
            k += 1
            guard end - k >= 3 * developer else { return cut() }
            for j in 0..<developer { offset += Int(bytes[k + 3 * j + 1]) }
            k += 3 * developer
        }
        layout.size = offset
        layouts[local] = layout
        fields[local] = list
        if isRecord { reserve(for: layout, bytes: end - k) }
        return k
    }

    /// Room for as many points as records of `layout` fit in `count` bytes, made once: the
    /// columns then never grow by copying (nor double the memory they need on the way).
    /// Room never written is never resident.
    mutating func reserve(for layout: FITLayout, bytes count: Int) {
        guard points.latitude.capacity == 0, layout.latitude.offset >= 0, layout.longitude.offset >= 0 else { return }
        // A record with a position takes at least 9 bytes (header, latitude, longitude).
        let n = min(count / max(layout.size + 1, 9), 1 << 26)
        points.latitude.reserveCapacity(n)
        points.longitude.reserveCapacity(n)
        points.elevation.reserveCapacity(n)
        points.time.reserveCapacity(n)
        if layout.heartRate.offset >= 0 { points.heartRate.reserveCapacity(n) }
        if layout.cadence.offset >= 0 { points.cadence.reserveCapacity(n) }
        if layout.power.offset >= 0 { points.power.reserveCapacity(n) }
        if layout.temperature.offset >= 0 { points.temperature.reserveCapacity(n) }
    }

    /// A message other than a record that Meridian reads: file_id, session, lap, event,
    /// course, course_point.
    mutating func message(_ layout: FITLayout, _ fields: [FITField], at p: UnsafeRawPointer, time: Double) {
        let big = layout.bigEndian
        func number(_ n: UInt8) -> Double? {
            fields.first { $0.number == n }?.slot.number(in: p, bigEndian: big)
        }
        func int(_ n: UInt8) -> Int? { number(n).map { Int(saturating: $0) } }
        func date(_ n: UInt8) -> Double? { number(n).map { $0 + FITMessage.epoch } }
        func text(_ n: UInt8) -> String? {
            // Strings are UTF-8, ended by a zero byte or by the field.
            guard let f = fields.first(where: { $0.number == n }), f.baseType & 0x1F == 7, f.size > 0 else { return nil }
            let all = UnsafeRawBufferPointer(start: p + f.offset, count: f.size)
            let s = String(decoding: all.prefix { $0 != 0 }, as: UTF8.self)
            return s.isEmpty ? nil : s
        }
        func position(_ latField: UInt8, _ lonField: UInt8) -> (Double, Double)? {
            guard let la = number(latField), let lo = number(lonField) else { return nil }
            let lat = la * FITMessage.degreesPerSemicircle, lon = lo * FITMessage.degreesPerSemicircle
            return abs(lat) <= 90 && abs(lon) <= 180 ? (lat, lon) : nil
        }
        switch layout.global {
        case FITMessage.fileID:
            // The first file of a chain speaks for the whole.
            guard activity.fileType == nil else { return }
            activity.fileType = int(0)
            activity.manufacturer = int(1)
            activity.product = int(2)
            activity.created = date(4)
        case FITMessage.session, FITMessage.lap:
            let isSession = layout.global == FITMessage.session
            // Lap and session number a few totals differently (the lap's have no gap at 13).
            let f: (sport: UInt8, avgHR: UInt8, maxHR: UInt8, avgPower: UInt8, maxPower: UInt8, ascent: UInt8, descent: UInt8) =
                isSession ? (5, 16, 17, 20, 21, 22, 23) : (25, 15, 16, 19, 20, 21, 22)
            var s = FITReader.Summary()
            s.start = date(2)
            s.end = time.isFinite ? time : nil
            s.sport = int(f.sport)
            s.elapsed = number(7).map { $0 / 1000 }
            s.timerTime = number(8).map { $0 / 1000 }
            s.distance = number(9).map { $0 / 100 }
            s.calories = int(11)
            s.averageHeartRate = int(f.avgHR)
            s.maxHeartRate = int(f.maxHR)
            s.averagePower = int(f.avgPower)
            s.maxPower = int(f.maxPower)
            s.ascent = number(f.ascent)
            s.descent = number(f.descent)
            if isSession { activity.sessions.append(s) } else { activity.laps.append(s) }
        case FITMessage.event:
            // The timer (event 0) stopped: stop, stop all, stop and disable (types 1, 4, 8, 9).
            if int(0) == 0, let type = int(1), [1, 4, 8, 9].contains(type) { paused = true }
        case FITMessage.course:
            if activity.courseName == nil { activity.courseName = text(5) }
        case FITMessage.coursePoint:
            guard let (lat, lon) = position(2, 3) else { return }
            waypoints.append(Waypoint(latitude: lat, longitude: lon, name: text(6)))
        default:
            break
        }
    }

    /// The tracks: the points cut where each session starts (by time; the sessions are
    /// usually written at the end), each session's named after its sport.
    mutating func finish() -> (document: GeoDocument, activity: FITReader.Activity) {
        if outOfRange > 0 {
            problem(trn("%d record has a position out of range; skipped", "%d records have positions out of range; skipped", outOfRange))
        }
        points.finish()
        var doc = GeoDocument()
        doc.waypoints = waypoints
        doc.problems = problems
        let n = points.count
        // (first point, name) of each track: each file's points cut where its sessions start.
        var pieces: [(start: Int, name: String?)] = []
        for (f, link) in chain.enumerated() {
            let end = f + 1 < chain.count ? chain[f + 1].point : n
            guard link.point < end else { continue }
            let own = activity.sessions[link.session..<(f + 1 < chain.count ? chain[f + 1].session : activity.sessions.count)]
            let timed = own.filter { $0.start != nil }.sorted { $0.start! < $1.start! }
            guard let first = timed.first else {
                pieces.append((link.point, own.first?.sportName ?? activity.courseName))
                continue
            }
            pieces.append((link.point, first.sportName))
            var k = 0
            for i in link.point..<end {
                let t = points.time[i]
                guard t.isFinite else { continue }
                while k + 1 < timed.count, let s = timed[k + 1].start, s <= t {
                    k += 1
                    // A session that starts after another without points of its own is no track.
                    if pieces[pieces.count - 1].start == i { pieces.removeLast() }
                    pieces.append((i, timed[k].sportName))
                }
            }
        }
        for (j, piece) in pieces.enumerated() {
            let range = piece.start..<(j + 1 < pieces.count ? pieces[j + 1].start : n)
            guard !range.isEmpty else { continue }
            let starts = [range.lowerBound] + segmentStarts.filter { $0 > range.lowerBound && $0 < range.upperBound } + [range.upperBound]
            let segments = zip(starts, starts.dropFirst()).map { ($0 - range.lowerBound)..<($1 - range.lowerBound) }
            let part = range.count == n ? points : Self.slice(points, range)
            doc.tracks.append(Track(kind: .track, name: piece.name, segments: segments, points: part))
        }
        points = TrackPoints()
        return (doc, activity)
    }

    static func slice(_ p: TrackPoints, _ r: Range<Int>) -> TrackPoints {
        var q = TrackPoints()
        q.latitude = Array(p.latitude[r])
        q.longitude = Array(p.longitude[r])
        q.elevation = Array(p.elevation[r])
        q.time = Array(p.time[r])
        // A column with nothing in this part stays empty, as a file without it would have it.
        if !p.heartRate.isEmpty, p.heartRate[r].contains(where: { $0 != 0 }) { q.heartRate = Array(p.heartRate[r]) }
        if !p.cadence.isEmpty, p.cadence[r].contains(where: { $0 != 0 }) { q.cadence = Array(p.cadence[r]) }
        if !p.power.isEmpty, p.power[r].contains(where: { $0 != 0 }) { q.power = Array(p.power[r]) }
        if !p.temperature.isEmpty, p.temperature[r].contains(where: { !$0.isNaN }) { q.temperature = Array(p.temperature[r]) }
        return q
    }
}
