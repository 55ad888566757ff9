import FoundationEssentials
import MapGeometry

/// A track ready to draw at any zoom: its points projected once, each with its
/// Douglas–Peucker importance, and the bounds of every run of `chunk` points, so that a
/// tile finds the few runs that cross it and the points that matter at its zoom without
/// looking at the rest. Immutable: tile workers share it.
public final class TrackGeometry: Sendable {
    /// World coordinates (256 across at zoom 0), segment after segment.
    public let points: [MapPoint]
    public let importance: [Double]
    public let segments: [Range<Int>]
    public let bounds: MapRect
    /// Bounds and the largest importance (ends excluded) of each run of `chunk` points.
    private let chunkBounds: [MapRect]
    private let chunkImportance: [Double]
    static let chunk = 256

    /// Half a pixel at zoom 22: no zoom needs finer, so splits below it are not made.
    public static let finestTolerance = 0.5 / Double(1 << 22)

    public init(_ track: Track) {
        var pts: [MapPoint] = []
        pts.reserveCapacity(track.points.count)
        for k in 0..<track.points.count {
            pts.append(WebMercator.project(Coordinate(latitude: track.points.latitude[k], longitude: track.points.longitude[k])))
        }
        var imp = [Double](repeating: 0, count: pts.count)
        for s in track.segments where !s.isEmpty {
            let part = Simplify.importance(Array(pts[s]), floor: Self.finestTolerance)
            for (k, v) in part.enumerated() { imp[s.lowerBound + k] = v }
        }
        var boxes: [MapRect] = [], peaks: [Double] = []
        var all: MapRect?
        for start in stride(from: 0, to: pts.count, by: Self.chunk) {
            let end = min(start + Self.chunk, pts.count)
            // The box takes in the next chunk's first point too, so the edge between two
            // chunks lies inside a box.
            let box = MapRect.bounding(pts[start..<min(end + 1, pts.count)])!
            var peak = 0.0
            for k in start..<end { peak = max(peak, imp[k]) }
            boxes.append(box)
            peaks.append(peak)
            all = all.map { $0.union(box) } ?? box
        }
        points = pts
        importance = imp
        segments = track.segments
        bounds = all ?? MapRect(x: 0, y: 0, width: 0, height: 0)
        chunkBounds = boxes
        chunkImportance = peaks
    }

    /// The lines to draw inside `rect` (world coordinates) when points within `tolerance` of
    /// the line may be dropped: for each stretch of the track that comes near `rect`, the
    /// points kept at that tolerance, with the kept point before and after it, so the line
    /// runs on across the edge. Consecutive kept points of the whole simplified track that
    /// could cross `rect` are always consecutive in one returned line.
    public func lines(in rect: MapRect, tolerance: Double) -> [[MapPoint]] {
        var out: [[MapPoint]] = []
        // A simplified edge strays up to `tolerance` from the points it replaces.
        let area = rect.outset(by: tolerance)
        for segment in segments where !segment.isEmpty {
            var k = segment.lowerBound / Self.chunk
            let lastChunk = (segment.upperBound - 1) / Self.chunk
            while k <= lastChunk {
                guard chunkBounds[k].intersects(area) else { k += 1; continue }
                // A run of chunks near the rect.
                var end = k
                while end + 1 <= lastChunk, chunkBounds[end + 1].intersects(area) { end += 1 }
                let from = max(segment.lowerBound, k * Self.chunk)
                let to = min(segment.upperBound, (end + 1) * Self.chunk)
                var line: [MapPoint] = []
                if let before = keptIndex(before: from, in: segment, tolerance: tolerance) { line.append(points[before]) }
                for i in from..<to where importance[i] > tolerance { line.append(points[i]) }
                if let after = keptIndex(atOrAfter: to, in: segment, tolerance: tolerance) { line.append(points[after]) }
                if line.count >= 2 { out.append(line) }
                k = end + 1
            }
        }
        return out
    }

    /// The last point kept at `tolerance` before index `i` in the segment.
    private func keptIndex(before i: Int, in segment: Range<Int>, tolerance: Double) -> Int? {
        var j = i - 1
        while j >= segment.lowerBound {
            // Whole chunks with nothing kept are skipped at once.
            let c = j / Self.chunk
            if chunkImportance[c] <= tolerance { j = c * Self.chunk - 1; continue }
            if importance[j] > tolerance { return j }
            j -= 1
        }
        return nil
    }

    /// The first point kept at `tolerance` at or after index `i` in the segment.
    private func keptIndex(atOrAfter i: Int, in segment: Range<Int>, tolerance: Double) -> Int? {
        var j = i
        while j < segment.upperBound {
            let c = j / Self.chunk
            if chunkImportance[c] <= tolerance { j = (c + 1) * Self.chunk; continue }
            if importance[j] > tolerance { return j }
            j += 1
        }
        return nil
    }
}
