import FoundationEssentials
import MapCore
import MapGeometry
import Platform

/// One line of gpsd's JSON protocol. Only TPV ("time-position-velocity") reports matter here:
/// `mode` (0/1 no fix, 2 2D, 3 3D), `lat`, `lon`, `eph` or `epx`/`epy` (meters), `track`
/// (degrees), `speed` (m/s), `alt`, `time`. Anything else, or a TPV that makes no sense, is
/// nil (ignored); a line that is not JSON at all is an error, for a notice.
public enum GPSDMessage {
    public struct Malformed: Error, CustomStringConvertible {
        public let description: String
    }

    private struct TPV: Decodable {
        var `class`: String
        var mode: Int?
        var lat: Double?
        var lon: Double?
        var eph: Double?
        var epx: Double?
        var epy: Double?
        var track: Double?
        var speed: Double?
        var alt: Double?
        var altHAE: Double?
        var time: String?
    }

    private struct Envelope: Decodable { var `class`: String }

    /// The longest line taken (SKY reports with many satellites run to a few KiB).
    public static let maxLine = 16 << 10

    public static func parse(_ line: Data) throws -> PositionEvent? {
        guard line.count <= maxLine else { throw Malformed(description: tr("a line longer than %@ bytes", maxLine)) }
        let decoder = JSONDecoder()
        let kind: String
        do { kind = try decoder.decode(Envelope.self, from: line).class } catch {
            throw Malformed(description: tr("not a gpsd report"))
        }
        guard kind == "TPV", let tpv = try? decoder.decode(TPV.self, from: line) else { return nil }
        guard let mode = tpv.mode, mode >= 2 else { return .noFix }
        guard let lat = tpv.lat, let lon = tpv.lon, let c = Coordinate(parsing: "\(lat),\(lon)") else { return nil }
        func sane(_ v: Double?, _ range: ClosedRange<Double>) -> Double? { v.flatMap { $0.isFinite && range.contains($0) ? $0 : nil } }
        let accuracy = sane(tpv.eph, 0...1e7) ?? {
            guard let x = sane(tpv.epx, 0...1e7), let y = sane(tpv.epy, 0...1e7) else { return 0 }
            return (x * x + y * y).squareRoot()
        }()
        return .fix(PositionFix(coordinate: c, accuracy: accuracy, course: sane(tpv.track, 0...360), speed: sane(tpv.speed, 0...1e5),
                                time: tpv.time.flatMap(CalendarTime.iso8601), altitude: sane(tpv.altHAE ?? tpv.alt, -1e5...1e5)))
    }
}
