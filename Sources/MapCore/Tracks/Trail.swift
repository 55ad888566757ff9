import FoundationEssentials
import MapGeometry
import Platform

/// Where the live position has been: fixes recorded as they come, shown by the tracks layer
/// as a file of its own ("Trail"). The line is kept in parts of at most `partSize` points;
/// a full part is sealed and never projected again, so a fix costs the same after ten hours
/// as after ten seconds, and only the tiles around the new stretch are drawn again.
public struct Trail: Sendable {
    public private(set) var points = TrackPoints()
    /// Connected runs of `points`: a lost fix or a long silence starts a new one.
    public private(set) var segments: [Range<Int>] = []
    public var style: TrackStyle
    /// Sealed parts, and where the open part starts.
    private var sealed: [TrackLine] = []
    private var openStart = 0
    /// Points recorded but not yet handed to the tracks layer, and the last point handed.
    public private(set) var pending = 0
    private var breakNext = false

    /// A fix nearer than this to the last point (metres) is not recorded, unless it is older
    /// than `keepEvery` seconds: a standing receiver's jitter would draw a scribble.
    public static let minimumStep = 2.0
    public static let keepEvery = 30.0
    /// No fix for this long (seconds) starts a new segment, so the line does not jump.
    public static let gapAfter = 60.0
    static let partSize = 512

    public init(style: TrackStyle = TrackStyle(color: Color(hex: 0x1F5FD6))) {
        self.style = style
    }

    /// A trail recorded before (a journal left by a run that was killed): drawn in full at the
    /// next hand-over, and the next point starts a new segment.
    public init(restoring track: Track, style: TrackStyle = TrackStyle(color: Color(hex: 0x1F5FD6))) {
        self.style = style
        points = track.points
        segments = track.segments.filter { !$0.isEmpty && $0.upperBound <= track.points.count }
        pending = points.count
        breakNext = true
    }

    public var isEmpty: Bool { points.count == 0 }
    public var count: Int { points.count }

    /// Records `fix` (received at `time`, seconds since 1970, when the fix has no time of
    /// its own); whether it became a point.
    @discardableResult
    public mutating func record(_ fix: PositionFix, time: Double) -> Bool {
        let c = fix.coordinate
        guard c.latitude.isFinite, c.longitude.isFinite, abs(c.latitude) <= 90, abs(c.longitude) <= 180 else { return false }
        let t = fix.time ?? time
        let n = points.count
        if n > 0 {
            let dt = t - points.time[n - 1]
            if dt.isFinite, dt > Self.gapAfter { breakNext = true }
            let moved = TrackStatistics.distance(points.latitude[n - 1], points.longitude[n - 1], c.latitude, c.longitude)
            if !breakNext, moved < Self.minimumStep, !(dt.isFinite && dt >= Self.keepEvery) { return false }
        }
        if n == 0 || breakNext {
            segments.append(n..<(n + 1))
            breakNext = false
        } else {
            segments[segments.count - 1] = segments[segments.count - 1].lowerBound..<(n + 1)
        }
        points.append(latitude: c.latitude, longitude: c.longitude,
                      elevation: fix.altitude.map(Float.init) ?? .nan, time: t)
        pending += 1
        return true
    }

    /// The receiver lost its fix: the next point starts a new segment.
    public mutating func breakSegment() { breakNext = true }

    /// The trail as a file of the tracks layer (the lines of its parts), and where it
    /// changed since the last call (world coordinates, nil when it is the first); seals a
    /// full open part.
    public mutating func takeChanges(file: inout TrackFile) -> MapRect? {
        let n = points.count
        guard n > 0 else { return nil }
        let changedFrom = max(0, n - pending - 1)
        pending = 0
        while n - openStart > Self.partSize {
            // A sealed part keeps its last point, which the next part starts from.
            let end = openStart + Self.partSize + 1
            sealed.append(line(openStart..<end))
            openStart = end - 1
        }
        let open = n - openStart >= 2 ? [line(openStart..<n)] : []
        let hadLines = !file.lines.isEmpty
        file.lines = sealed + open
        guard hadLines else { return nil }
        var changed: [MapPoint] = []
        for k in changedFrom..<n {
            changed.append(WebMercator.project(Coordinate(latitude: points.latitude[k], longitude: points.longitude[k])))
        }
        return MapRect.bounding(changed)
    }

    /// A line of the points in `range`, split where the trail's segments are.
    private func line(_ range: Range<Int>) -> TrackLine {
        var part = TrackPoints()
        for k in range {
            part.append(latitude: points.latitude[k], longitude: points.longitude[k], elevation: points.elevation[k], time: points.time[k])
        }
        let pieces = segments.compactMap { s -> Range<Int>? in
            let r = s.clamped(to: range)
            return r.count >= 1 ? (r.lowerBound - range.lowerBound)..<(r.upperBound - range.lowerBound) : nil
        }
        let track = Track(kind: .track, name: tr("Trail"), segments: pieces, points: part)
        return TrackLine(track: track, geometry: TrackGeometry(track, threads: 1), style: style).withDetails()
    }

    /// The whole trail as one track (for saving).
    public var track: Track { Track(kind: .track, name: tr("Trail"), segments: segments, points: points) }
}
