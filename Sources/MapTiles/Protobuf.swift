import FoundationEssentials
import Glibc
import Platform

public struct ProtobufError: Error, CustomStringConvertible, Equatable {
    public let description: String
    public init(_ d: String) { description = d }
}

/// Reads the protobuf wire format from bytes, bounds-checked: malformed input is an error.
public struct ProtobufReader {
    private let bytes: [UInt8]
    public private(set) var offset: Int
    private let end: Int

    public init(_ bytes: [UInt8], range: Range<Int>? = nil) {
        self.bytes = bytes
        offset = range?.lowerBound ?? 0
        end = range?.upperBound ?? bytes.count
    }

    public var isAtEnd: Bool { offset >= end }

    public mutating func varint() throws -> UInt64 {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            // TRANSLATORS: %@ is a byte offset; a varint is protobuf's variable-length number.
            guard offset < end else { throw ProtobufError(tr("truncated varint at byte %@", offset)) }
            let b = bytes[offset]
            offset += 1
            guard shift < 64 else { throw ProtobufError(tr("varint longer than 10 bytes at byte %@", offset)) }
            result |= UInt64(b & 0x7f) << shift
            if b & 0x80 == 0 { return result }
            shift += 7
        }
    }

    /// A field key: (field number, wire type).
    public mutating func key() throws -> (field: Int, wire: Int) {
        let k = try varint()
        return (Int(truncatingIfNeeded: k >> 3), Int(k & 7))
    }

    /// The byte range of a length-delimited field.
    public mutating func lengthDelimited() throws -> Range<Int> {
        let n = try varint()
        guard n <= UInt64(end - offset), let count = Int(exactly: n) else {
            // TRANSLATORS: %1$@ is a number of bytes, %2$@ a byte offset.
            throw ProtobufError(tr("field of %1$@ bytes overruns the message at byte %2$@", n, offset))
        }
        let r = offset..<(offset + count)
        offset += count
        return r
    }

    public mutating func string() throws -> String {
        let r = try lengthDelimited()
        guard let s = String(bytes: bytes[r], encoding: .utf8) else { throw ProtobufError(tr("invalid UTF-8 at byte %@", r.lowerBound)) }
        return s
    }

    public mutating func fixed64() throws -> UInt64 {
        // TRANSLATORS: fixed64 is the name of a protobuf field type.
        guard end - offset >= 8 else { throw ProtobufError(tr("truncated fixed64")) }
        var v: UInt64 = 0
        for i in 0..<8 { v |= UInt64(bytes[offset + i]) << (8 * UInt64(i)) }
        offset += 8
        return v
    }

    public mutating func fixed32() throws -> UInt32 {
        // TRANSLATORS: fixed32 is the name of a protobuf field type.
        guard end - offset >= 4 else { throw ProtobufError(tr("truncated fixed32")) }
        var v: UInt32 = 0
        for i in 0..<4 { v |= UInt32(bytes[offset + i]) << (8 * UInt32(i)) }
        offset += 4
        return v
    }

    /// Packed repeated varints (as MVT stores tags and geometry).
    public mutating func packedVarints() throws -> [UInt32] {
        let r = try lengthDelimited()
        var sub = ProtobufReader(bytes, range: r)
        var out: [UInt32] = []
        out.reserveCapacity(r.count)
        while !sub.isAtEnd {
            let v = try sub.varint()
            guard v <= UInt64(UInt32.max) else { throw ProtobufError(tr("packed value %@ exceeds 32 bits", v)) }
            out.append(UInt32(v))
        }
        return out
    }

    public mutating func skip(wire: Int) throws {
        switch wire {
        case 0: _ = try varint()
        case 1: _ = try fixed64()
        case 2: _ = try lengthDelimited()
        case 5: _ = try fixed32()
        // TRANSLATORS: %1$@ is a protobuf wire type's number, %2$@ a byte offset.
        default: throw ProtobufError(tr("unsupported wire type %1$@ at byte %2$@", wire, offset))
        }
    }

    public func subReader(_ r: Range<Int>) -> ProtobufReader { ProtobufReader(bytes, range: r) }
}

/// Writes the protobuf wire format.
public struct ProtobufWriter {
    public private(set) var bytes: [UInt8] = []
    public init() {}

    public mutating func varint(_ v: UInt64) {
        var v = v
        while v >= 0x80 { bytes.append(UInt8(v & 0x7f) | 0x80); v >>= 7 }
        bytes.append(UInt8(v))
    }

    public mutating func key(_ field: Int, _ wire: Int) { varint(UInt64(field << 3 | wire)) }

    public mutating func varintField(_ field: Int, _ v: UInt64) { key(field, 0); varint(v) }

    public mutating func bytesField(_ field: Int, _ b: [UInt8]) { key(field, 2); varint(UInt64(b.count)); bytes += b }

    public mutating func stringField(_ field: Int, _ s: String) { bytesField(field, Array(s.utf8)) }

    public mutating func doubleField(_ field: Int, _ d: Double) {
        key(field, 1)
        let v = d.bitPattern
        for i in 0..<8 { bytes.append(UInt8((v >> (8 * UInt64(i))) & 0xff)) }
    }

    public mutating func packedField(_ field: Int, _ values: [UInt32]) {
        var w = ProtobufWriter()
        for v in values { w.varint(UInt64(v)) }
        bytesField(field, w.bytes)
    }

    public static func zigzag(_ n: Int32) -> UInt32 { UInt32(bitPattern: (n << 1) ^ (n >> 31)) }
    public static func unzigzag(_ n: UInt32) -> Int32 { Int32(bitPattern: n >> 1) ^ -Int32(bitPattern: n & 1) }
}
