import FoundationEssentials
import MapGeometry
import Platform

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
    /// The fewest points worth a thread.
    static let stretch = 200_000

    /// `threads`: how many to work on; by default all cores for a long track.
    public init(_ track: Track, threads: Int? = nil) {
        let count = track.points.count
        // A long track is projected and simplified on all cores, in stretches of at least
        // `stretch` points (the split between two is kept at every zoom, which never strays
        // further from the line than the tolerance).
        let workers = max(1, threads ?? min(processorCount, 8, count / Self.stretch))
        let pts = [MapPoint](unsafeUninitializedCapacity: count) { buffer, initialized in
            let out = UncheckedSendable(buffer), lat = track.points.latitude, lon = track.points.longitude
            inParallel(workers, name: "project") { w in
                for k in (count * w / workers)..<(count * (w + 1) / workers) {
                    (out.value.baseAddress! + k).initialize(to: WebMercator.project(Coordinate(latitude: lat[k], longitude: lon[k])))
                }
            }
            initialized = count
        }
        var imp = [Double](repeating: 0, count: count)
        var stretches: [Range<Int>] = []
        for s in track.segments where !s.isEmpty {
            imp[s.lowerBound] = .infinity
            imp[s.upperBound - 1] = .infinity
            // Stretches share their end points: [a, b] then [b, c].
            let parts = max(1, (s.count * workers + count - 1) / max(count, 1))
            for p in 0..<parts {
                let a = s.lowerBound + (s.count - 1) * p / parts, b = s.lowerBound + (s.count - 1) * (p + 1) / parts
                if p > 0 { imp[a] = .infinity }
                stretches.append(a..<(b + 1))
            }
        }
        pts.withUnsafeBufferPointer { p in
            imp.withUnsafeMutableBufferPointer { out in
                let shared = UncheckedSendable((p, out, stretches))
                inParallel(workers, name: "simplify") { w in
                    let (p, out, stretches) = shared.value
                    for r in stretches.indices where r % workers == w {
                        let s = stretches[r]
                        Simplify.importance(UnsafeBufferPointer(rebasing: p[s]), floor: Self.finestTolerance,
                                            into: UnsafeMutableBufferPointer(rebasing: out[s]))
                    }
                }
            }
        }
        var boxes: [MapRect] = [], peaks: [Double] = []
        boxes.reserveCapacity(count / Self.chunk + 1)
        peaks.reserveCapacity(count / Self.chunk + 1)
        var all: MapRect?
        for start in stride(from: 0, to: count, by: Self.chunk) {
            let end = min(start + Self.chunk, count)
            // The box takes in the next chunk's first point too, so the edge between two
            // chunks lies inside a box.
            let box = MapRect.bounding(pts[start..<min(end + 1, count)])!
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
        runs(in: rect, tolerance: tolerance).map { $0.map { points[$0] } }
    }

    /// The same lines as indices of `points` (for what is known of each point: its speed,
    /// its elevation).
    public func runs(in rect: MapRect, tolerance: Double) -> [[Int]] {
        var out: [[Int]] = []
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
                var line: [Int] = []
                if let before = keptIndex(before: from, in: segment, tolerance: tolerance) { line.append(before) }
                for i in from..<to where importance[i] > tolerance { line.append(i) }
                if let after = keptIndex(atOrAfter: to, in: segment, tolerance: tolerance) { line.append(after) }
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
