import FoundationEssentials
import Glibc
import MapCore
import Platform

/// A large GPX file is read in pieces on all cores. Each piece after the first starts at a
/// `<trkpt` and is read as if inside a `<trk><trkseg>` (how nearly every large GPX file goes
/// on for megabytes). The pieces are then joined in order: where the reading before a piece
/// ends exactly at its start in that state, the piece's points and what followed are
/// adopted; anywhere else (a comment, a route, a namespace prefix) the piece is dropped and
/// that stretch read again in one pass. Either way the result is what one pass gives.
extension GPXParser {
    /// The smallest piece worth a thread of its own.
    static let pieceBytes = 4 << 20

    /// What a piece knows about the track it began inside, for the join.
    struct Continuation {
        /// The track is still open where the piece ends.
        var isOpen = true
        /// Points of it this piece had read when the segment open at its start closed.
        var firstSegmentEnd: Int?
        /// The track, once closed: its points and segments after the piece's start.
        var closed: Track?
        /// The piece set the track's name or colour (a later value wins, as in one pass).
        var named = false, colored = false
    }

    static func read(_ bytes: UnsafeBufferPointer<UInt8>, file: String, progress: Progress? = nil) throws -> GeoDocument {
        // Twice as many pieces as cores: one slowed by other work (the window starting) holds
        // the others up less.
        try read(bytes, file: file, starts: pieceStarts(bytes, pieces: min(2 * processorCount, 8)), progress: progress)
    }

    /// Reads with pieces after the first starting at `starts` (ascending offsets; any offsets
    /// give the same document, only `<trkpt` ones inside a segment save time).
    static func read(_ bytes: UnsafeBufferPointer<UInt8>, file: String, starts: [Int], progress: Progress? = nil) throws -> GeoDocument {
        var main = GPXParser(bytes: bytes, file: file)
        main.progress = progress
        guard !starts.isEmpty else {
            try main.run(until: bytes.count)
            try main.finish()
            return main.document
        }
        let ends = Array(starts.dropFirst()) + [bytes.count]
        let shared = UncheckedSendable(bytes)
        let workers = starts.indices.map { j in
            Joinable(name: "gpx-\(j + 1)") { [start = starts[j], end = ends[j]] in
                var piece = GPXParser(bytes: shared.value, file: file)
                piece.i = start
                piece.released = start
                piece.stack = [.gpx, .trk, .trkseg]
                piece.sawGPX = true
                piece.track = Track(kind: .track)
                piece.continuation = Continuation()
                piece.reserveEnd = end
                piece.progress = progress
                // A piece that fails is read again in one pass, which reports the failure (a
                // cancelled one stops there too).
                return UncheckedSendable((try? piece.run(until: end)) != nil ? piece : nil)
            }
        }
        main.reserveEnd = bytes.count
        let first = Result { try main.run(until: starts[0]) }
        // Every worker is joined before `bytes` can go away, even when the first piece failed.
        let pieces = workers.map { $0.join().value }
        try first.get()
        for (j, piece) in pieces.enumerated() {
            if let piece, main.canAdopt(at: starts[j]) { main.adopt(piece) } else { try main.run(until: ends[j]) }
        }
        try main.finish()
        return main.document
    }

    /// Where pieces after the first start: the first `<trkpt` past each equal share.
    static func pieceStarts(_ bytes: UnsafeBufferPointer<UInt8>, pieces: Int, smallest: Int = pieceBytes) -> [Int] {
        let count = min(pieces, bytes.count / max(smallest, 1))
        guard count > 1 else { return [] }
        let probe = GPXParser(bytes: bytes, file: "")
        var starts: [Int] = []
        for j in 1..<count {
            var k = bytes.count / count * j
            while let at = probe.find("<trkpt", from: k) {
                let next = at + 6 < bytes.count ? bytes[at + 6] : 0
                if next == UInt8(ascii: ">") || TextNumbers.isBlank(next) {
                    if at > (starts.last ?? 0) { starts.append(at) }
                    break
                }
                k = at + 1
            }
        }
        return starts
    }

    /// Reading stands exactly at `offset` inside a track's segment and nothing else.
    func canAdopt(at offset: Int) -> Bool {
        i == offset && stack == [.gpx, .trk, .trkseg] && track?.kind == .track && continuation == nil
            && !capturingText && point == nil && waypoint == nil
    }

    /// Takes over a piece that began where this reading stands (`canAdopt`): its points join
    /// the open track, and its state becomes this one's.
    mutating func adopt(_ piece: GPXParser) {
        guard let c = piece.continuation, var t = track, let tail = c.isOpen ? piece.track : c.closed else { return }
        // Held only by `t` while it grows: appending to points still held by `track` copied
        // every point read so far, once per piece.
        track = nil
        let base = t.points.count
        t.points.append(contentsOf: tail.points)
        if c.named { t.name = tail.name }
        if c.colored { t.color = tail.color }
        var start = segmentStart
        if let end = c.firstSegmentEnd {
            // The segment open at the piece's start closed inside it; the piece's own list
            // holds it (from its first point) only when it had points there.
            if base + end > segmentStart { t.segments.append(segmentStart..<(base + end)) }
            t.segments += tail.segments.dropFirst(end > 0 ? 1 : 0).map { ($0.lowerBound + base)..<($0.upperBound + base) }
            start = base + (c.isOpen ? piece.segmentStart : tail.points.count)
        }
        if c.isOpen {
            track = t
            segmentStart = start
        } else {
            t.points.finish()
            if t.points.count > 0 { document.tracks.append(t) }
            track = piece.track
            segmentStart = piece.segmentStart
        }
        document.tracks += piece.document.tracks
        document.waypoints += piece.document.waypoints
        document.problems += piece.document.problems.prefix(max(0, 1000 - document.problems.count))
        i = piece.i
        released = max(released, piece.released)
        stack = piece.stack
        point = piece.point
        waypoint = piece.waypoint
        capturingText = piece.capturingText
        textBuffer = piece.textBuffer
        lineAt = piece.lineAt
        line = piece.line
        reserved = true
    }
}
