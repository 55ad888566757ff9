import FoundationEssentials
import Platform

/// Writes small FIT files field by field, for the tests, the fuzzer's seeds and the bench
/// (Meridian saves no FIT): definitions in either byte order, data messages with normal or
/// compressed-timestamp headers, developer fields, the header and file checksums.
public struct FITBuilder {
    /// A field of a definition: its number, size in bytes and base type byte.
    public struct Field: Sendable {
        public var number: UInt8
        public var size: UInt8
        public var baseType: UInt8

        public init(_ number: UInt8, size: UInt8, _ baseType: UInt8) {
            self.number = number
            self.size = size
            self.baseType = baseType
        }

        /// A field of `baseType` sized for one value (strings: give the size).
        public init(_ number: UInt8, _ baseType: UInt8) {
            self.init(number, size: UInt8(max(FITSlot.valueSize(baseType & 0x1F), 1)), baseType)
        }
    }

    /// Base type bytes.
    public static let enumType: UInt8 = 0x00, sint8: UInt8 = 0x01, uint8: UInt8 = 0x02, sint16: UInt8 = 0x83
    public static let uint16: UInt8 = 0x84, sint32: UInt8 = 0x85, uint32: UInt8 = 0x86, string: UInt8 = 0x07
    public static let float32: UInt8 = 0x88, float64: UInt8 = 0x89, uint8z: UInt8 = 0x0A, uint16z: UInt8 = 0x8B
    public static let uint32z: UInt8 = 0x8C, byte: UInt8 = 0x0D

    /// A value to write: a number (integers as they are stored, before any scale), a
    /// string, or nil for the type's "no value".
    public enum Value: Sendable, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByNilLiteral {
        case int(Int64)
        case float(Double)
        case text(String)
        case none

        public init(integerLiteral v: Int64) { self = .int(v) }
        public init(floatLiteral v: Double) { self = .float(v) }
        public init(stringLiteral v: String) { self = .text(v) }
        public init(nilLiteral: ()) { self = .none }
    }

    /// The data records so far (definitions and messages, after the header).
    public var records: [UInt8] = []
    var definitions: [UInt8: (bigEndian: Bool, fields: [Field], developer: Int)] = [:]

    public init() {}

    /// Defines local type `local` (0…15) as message `global` with `fields`, and
    /// `developer` developer fields of (number, size, developer data index).
    public mutating func define(local: UInt8, global: UInt16, bigEndian: Bool = false, fields: [Field],
                                developer: [(number: UInt8, size: UInt8, index: UInt8)] = []) {
        records.append(0x40 | (developer.isEmpty ? 0 : 0x20) | (local & 0x0F))
        records.append(0)
        records.append(bigEndian ? 1 : 0)
        records += bigEndian ? [UInt8(global >> 8), UInt8(global & 0xFF)] : [UInt8(global & 0xFF), UInt8(global >> 8)]
        records.append(UInt8(fields.count))
        for f in fields { records += [f.number, f.size, f.baseType] }
        if !developer.isEmpty {
            records.append(UInt8(developer.count))
            for d in developer { records += [d.number, d.size, d.index] }
        }
        definitions[local & 0x0F] = (bigEndian, fields, developer.reduce(0) { $0 + Int($1.size) })
    }

    /// A data message of local type `local`, one value per field of its definition (missing
    /// ones are "no value"); developer fields are written as zeros.
    public mutating func message(local: UInt8, _ values: [Value]) {
        records.append(local & 0x0F)
        body(local: local & 0x0F, values)
    }

    /// A data message with a compressed-timestamp header: local type 0…3 and the time's
    /// last five bits.
    public mutating func compressed(local: UInt8, time: UInt32, _ values: [Value]) {
        records.append(0x80 | (local & 3) << 5 | UInt8(time & 0x1F))
        body(local: local & 3, values)
    }

    mutating func body(local: UInt8, _ values: [Value]) {
        guard let d = definitions[local] else { return }
        for (k, f) in d.fields.enumerated() {
            Self.encode(k < values.count ? values[k] : .none, f, bigEndian: d.bigEndian, into: &records)
        }
        records.append(contentsOf: repeatElement(0, count: d.developer))
    }

    static func encode(_ v: Value, _ f: Field, bigEndian: Bool, into out: inout [UInt8]) {
        let size = Int(f.size), b = f.baseType & 0x1F
        if b == 7 || b == 13 {
            let text: [UInt8] = if case let .text(s) = v { Array(s.utf8) } else { [] }
            out += Array((text + [UInt8](repeating: b == 13 ? 0xFF : 0, count: size)).prefix(size))
            return
        }
        let one = FITSlot.valueSize(b)
        guard one > 0 else { out.append(contentsOf: repeatElement(0xFF, count: size)); return }
        var bits: UInt64
        switch v {
        case let .int(n): bits = UInt64(bitPattern: n)
        case let .float(x):
            if b == 8 { bits = UInt64(Float(x).bitPattern) } else if b == 9 { bits = x.bitPattern } else { bits = UInt64(bitPattern: Int64(saturating: x.rounded())) }
        case .text, .none:
            // The type's "no value".
            switch b {
            case 10, 11, 12, 16: bits = 0
            case 1, 3, 5, 14: bits = (UInt64(1) << (8 * UInt64(one) - 1)) - 1
            default: bits = .max
            }
        }
        // A field smaller than one value gets its first bytes; a larger one 0xFF after it.
        for k in 0..<min(one, size) {
            let shift = bigEndian ? 8 * UInt64(one - 1 - k) : 8 * UInt64(k)
            out.append(UInt8(truncatingIfNeeded: bits >> shift))
        }
        if size > one { out.append(contentsOf: repeatElement(0xFF, count: size - one)) }
    }

    /// The whole file: a header of `headerSize` (12 or 14) bytes, with its checksum when 14
    /// and `headerChecksum`, the records, and the file's checksum.
    public func file(headerSize: Int = 14, headerChecksum: Bool = true) -> [UInt8] {
        let n = UInt32(truncatingIfNeeded: records.count)
        var out: [UInt8] = [UInt8(headerSize), 0x20, 0x84, 0x08] + (0..<4).map { UInt8(truncatingIfNeeded: n >> (8 * $0)) } + Array(".FIT".utf8)
        if headerSize >= 14 {
            let c = headerChecksum ? FITChecksum.of(out) : 0
            out += [UInt8(c & 0xFF), UInt8(c >> 8)]
            out += [UInt8](repeating: 0, count: headerSize - 14)
        }
        out += records
        let c = FITChecksum.of(out)
        return out + [UInt8(c & 0xFF), UInt8(c >> 8)]
    }

    /// FIT's time (seconds since 1989-12-31 UTC) for seconds since 1970.
    public static func time(_ unix: Double) -> Int64 { Int64(saturating: unix - FITMessage.epoch) }

    /// Semicircles for degrees.
    public static func semicircles(_ degrees: Double) -> Int64 { Int64(saturating: (degrees / FITMessage.degreesPerSemicircle).rounded()) }
}
