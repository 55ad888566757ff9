import FoundationEssentials
import Glibc
import Platform
import MapCore
import MapData
import MapGeometry

/// Reads `bytes` as a file with extension `ext`, as the window does (projection, importance,
/// speeds), works out what the window works out after (statistics, profile, colour ramps),
/// and traps on what must never be: bounds that are not finite, a profile whose columns do
/// not follow the track, a ramp with its ends the wrong way round.
public func checkTrackFile(_ bytes: UnsafeRawBufferPointer, ext: String) {
    let path = "/tmp/meridian-fuzz-\(getpid()).\(ext)"
    guard FileIO.writeBytes(bytes, to: path) else { return }
    defer { unlink(path) }
    guard let (file, _) = try? TrackFile.read(URL(fileURLWithPath: path), color: TrackStyle.palette[0]) else { return }
    let b = file.bounds!
    precondition(b.minX.isFinite && b.minY.isFinite && b.maxX.isFinite && b.maxY.isFinite, "bounds that are not finite")
    for line in file.lines {
        _ = line.geometry.runs(in: b, tolerance: 0.5 / 4096)
        precondition(line.speed.isEmpty || line.speed.count == line.track.points.count, "a speed per point")
        let details = TrackDetails(line)
        precondition(details.statistics.distance >= 0 && details.statistics.distance.isFinite, "a distance that is not one")
        if let p = details.profile {
            precondition(zip(p.point, p.point.dropFirst()).allSatisfy { $0 <= $1 }, "profile columns out of order")
            precondition(p.point.allSatisfy { line.track.points.latitude.indices.contains($0) }, "a profile column off the track")
            for k in [0, line.track.points.count / 2, line.track.points.count - 1] { _ = p.column(ofPoint: k) }
        }
    }
    for mode in TrackColorMode.allCases {
        if let ramp = TrackColorRamp.fitting(mode, lines: file.lines) {
            precondition(ramp.low <= ramp.high && ramp.low.isFinite && ramp.high.isFinite, "a ramp that is not one")
        }
    }
}
