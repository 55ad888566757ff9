import Foundation
import MapGeometry
import Platform

/// One geometry from a Marble .pn2 file (Natural Earth in Marble's compact format).
struct PN2Geometry {
    enum Kind: UInt8 { case lineString = 0, closedRing = 1, outer = 2, inner = 3 }
    var kind: Kind
    var featureID: UInt32
    var colorIndex: UInt8?
    /// Coordinates in degrees.
    var points: [Coordinate]
}

struct PN2Error: Error, CustomStringConvertible {
    var description: String
}

/// Reads .pn2 version 2 as ../shared/DATA.md describes it (all integers big-endian, units of
/// 1/120 degree): a header, then polygons of absolute nodes each followed by byte deltas.
/// Multi-geometries are flattened into their parts. The whole file must be consumed.
struct PN2Reader {
    private let bytes: [UInt8]
    private var offset = 0
    let path: String

    init(path: String) throws {
        guard let d = FileManager.default.contents(atPath: path) else { throw PN2Error(description: "\(path): cannot read") }
        bytes = [UInt8](d)
        self.path = path
    }

    private mutating func u8() throws -> UInt8 {
        guard offset < bytes.count else { throw PN2Error(description: "\(path): truncated at byte \(offset)") }
        defer { offset += 1 }
        return bytes[offset]
    }
    private mutating func u16() throws -> UInt16 { UInt16(try u8()) << 8 | UInt16(try u8()) }
    private mutating func i16() throws -> Int16 { Int16(bitPattern: try u16()) }
    private mutating func u32() throws -> UInt32 {
        var v: UInt32 = 0
        for _ in 0..<4 { v = v << 8 | UInt32(try u8()) }
        return v
    }
    private mutating func i8() throws -> Int8 { Int8(bitPattern: try u8()) }

    mutating func read() throws -> [PN2Geometry] {
        let version = try u8()
        guard version == 2 else { throw PN2Error(description: "\(path): version \(version), expected 2") }
        let count = Int(try u32())
        let hasColor = try u8() == 1
        var out: [PN2Geometry] = []
        var read = 0
        while read < count {
            let flag = try u8()
            let id = try u32()
            let color: UInt8? = hasColor && flag != 3 ? try u8() : nil
            if flag == 4 {
                let parts = Int(try u8())
                for _ in 0..<parts {
                    let pflag = try u8()
                    let pid = try u32()
                    guard let kind = PN2Geometry.Kind(rawValue: pflag) else { throw PN2Error(description: "\(path): bad part flag \(pflag) at byte \(offset)") }
                    out.append(PN2Geometry(kind: kind, featureID: pid, colorIndex: color, points: try nodes()))
                }
                read += parts
            } else {
                guard let kind = PN2Geometry.Kind(rawValue: flag) else { throw PN2Error(description: "\(path): bad flag \(flag) at byte \(offset)") }
                out.append(PN2Geometry(kind: kind, featureID: id, colorIndex: color, points: try nodes()))
                read += 1
            }
        }
        guard offset == bytes.count else { throw PN2Error(description: "\(path): \(bytes.count - offset) bytes left over") }
        return out
    }

    private mutating func nodes() throws -> [Coordinate] {
        let absolute = Int(try u32())
        var pts: [Coordinate] = []
        pts.reserveCapacity(absolute * 4)
        for _ in 0..<absolute {
            let lat = try i16(), lon = try i16()
            let relative = Int(try i16())
            pts.append(Coordinate(latitude: Double(lat) / 120, longitude: Double(lon) / 120))
            for _ in 0..<max(relative, 0) {
                let dlat = try i8(), dlon = try i8()
                pts.append(Coordinate(latitude: Double(Int(lat) + Int(dlat)) / 120, longitude: Double(Int(lon) + Int(dlon)) / 120))
            }
        }
        return pts
    }
}
