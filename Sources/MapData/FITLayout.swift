import FoundationEssentials
import Platform

/// Where one field lies in a data message and how its first value reads. Plain values only,
/// so that a record reads without reference counting.
struct FITSlot {
    /// Bytes after the record header; -1 when the message has no such field, or one too
    /// small for a value of its type (read what fits: a larger one gives its first value).
    var offset: Int32 = -1
    /// The base type's number (the low five bits of its byte).
    var base: UInt8 = 0

    init() {}

    init(offset: Int, size: Int, baseType: UInt8) {
        let b = baseType & 0x1F
        let one = Self.valueSize(b)
        guard one > 0, size >= one, let o = Int32(exactly: offset) else { return }
        self.offset = o
        self.base = b
    }

    /// Bytes of one value of base type `b`; 0 for strings, bytes and unknown types, which
    /// are not read as numbers.
    static func valueSize(_ b: UInt8) -> Int {
        switch b {
        case 0, 1, 2, 10: return 1
        case 3, 4, 11: return 2
        case 5, 6, 8, 12: return 4
        case 9, 14, 15, 16: return 8
        default: return 0
        }
    }

    /// The first value of the field in the message at `p`, or nil when the message lacks the
    /// field or holds its type's "no value" (all ones, the largest signed value, or zero for
    /// the z types).
    @inline(__always)
    func number(in p: UnsafeRawPointer, bigEndian big: Bool) -> Double? {
        guard offset >= 0 else { return nil }
        let q = p + Int(offset)
        switch base {
        case 0, 2:
            let v = q.load(as: UInt8.self)
            return v == 0xFF ? nil : Double(v)
        case 1:
            let v = Int8(bitPattern: q.load(as: UInt8.self))
            return v == .max ? nil : Double(v)
        case 10:
            let v = q.load(as: UInt8.self)
            return v == 0 ? nil : Double(v)
        case 3:
            let v = Int16(bitPattern: Self.u16(q, big))
            return v == .max ? nil : Double(v)
        case 4:
            let v = Self.u16(q, big)
            return v == .max ? nil : Double(v)
        case 11:
            let v = Self.u16(q, big)
            return v == 0 ? nil : Double(v)
        case 5:
            let v = Int32(bitPattern: Self.u32(q, big))
            return v == .max ? nil : Double(v)
        case 6:
            let v = Self.u32(q, big)
            return v == .max ? nil : Double(v)
        case 12:
            let v = Self.u32(q, big)
            return v == 0 ? nil : Double(v)
        case 8:
            let v = Self.u32(q, big), f = Float(bitPattern: v)
            return v == .max || !f.isFinite ? nil : Double(f)
        case 9:
            let v = Self.u64(q, big), d = Double(bitPattern: v)
            return v == .max || !d.isFinite ? nil : d
        case 14:
            let v = Int64(bitPattern: Self.u64(q, big))
            return v == .max ? nil : Double(v)
        case 15:
            let v = Self.u64(q, big)
            return v == .max ? nil : Double(v)
        case 16:
            let v = Self.u64(q, big)
            return v == 0 ? nil : Double(v)
        default:
            return nil
        }
    }

    /// `number` as an integer, for counts such as heart rate: without the round trip through
    /// a double (whose conversion back is slow); a float is rounded toward zero.
    @inline(__always)
    func integer(in p: UnsafeRawPointer, bigEndian big: Bool) -> Int64? {
        guard offset >= 0 else { return nil }
        let q = p + Int(offset)
        switch base {
        case 0, 2:
            let v = q.load(as: UInt8.self)
            return v == 0xFF ? nil : Int64(v)
        case 1:
            let v = Int8(bitPattern: q.load(as: UInt8.self))
            return v == .max ? nil : Int64(v)
        case 10:
            let v = q.load(as: UInt8.self)
            return v == 0 ? nil : Int64(v)
        case 3:
            let v = Int16(bitPattern: Self.u16(q, big))
            return v == .max ? nil : Int64(v)
        case 4:
            let v = Self.u16(q, big)
            return v == .max ? nil : Int64(v)
        case 11:
            let v = Self.u16(q, big)
            return v == 0 ? nil : Int64(v)
        case 5:
            let v = Int32(bitPattern: Self.u32(q, big))
            return v == .max ? nil : Int64(v)
        case 6:
            let v = Self.u32(q, big)
            return v == .max ? nil : Int64(v)
        case 12:
            let v = Self.u32(q, big)
            return v == 0 ? nil : Int64(v)
        default:
            return number(in: p, bigEndian: big).map { Int64(saturating: $0) }
        }
    }

    @inline(__always)
    static func u16(_ q: UnsafeRawPointer, _ big: Bool) -> UInt16 {
        let v = q.loadUnaligned(as: UInt16.self)
        return big ? UInt16(bigEndian: v) : UInt16(littleEndian: v)
    }

    @inline(__always)
    static func u32(_ q: UnsafeRawPointer, _ big: Bool) -> UInt32 {
        let v = q.loadUnaligned(as: UInt32.self)
        return big ? UInt32(bigEndian: v) : UInt32(littleEndian: v)
    }

    @inline(__always)
    static func u64(_ q: UnsafeRawPointer, _ big: Bool) -> UInt64 {
        let v = q.loadUnaligned(as: UInt64.self)
        return big ? UInt64(bigEndian: v) : UInt64(littleEndian: v)
    }
}

/// A definition message compiled once: the size of the data messages it announces and, for
/// records, where each field Meridian keeps lies (a record then reads by offsets alone).
struct FITLayout {
    var defined = false
    var global: UInt16 = 0
    var bigEndian = false
    /// Bytes of a data message after its header, developer fields included.
    var size = 0
    var timestamp = FITSlot()
    var latitude = FITSlot(), longitude = FITSlot()
    var altitude = FITSlot(), enhancedAltitude = FITSlot()
    var heartRate = FITSlot(), cadence = FITSlot(), power = FITSlot(), temperature = FITSlot()
}

/// A field of a message read field by field (sessions, laps, events: a few per file).
struct FITField {
    var number: UInt8
    var offset: Int
    var size: Int
    var baseType: UInt8

    var slot: FITSlot { FITSlot(offset: offset, size: size, baseType: baseType) }
}

/// The global message numbers and field numbers Meridian reads, from FIT's public profile.
enum FITMessage {
    static let fileID: UInt16 = 0
    static let session: UInt16 = 18
    static let lap: UInt16 = 19
    static let record: UInt16 = 20
    static let event: UInt16 = 21
    static let course: UInt16 = 31
    static let coursePoint: UInt16 = 32

    /// Messages read field by field.
    static func isRead(_ global: UInt16) -> Bool {
        global == fileID || global == session || global == lap || global == event || global == course || global == coursePoint
    }

    static let timestampField: UInt8 = 253
    /// FIT's epoch, 1989-12-31 00:00 UTC, in seconds since 1970.
    static let epoch = 631_065_600.0
    /// Degrees per semicircle (2³¹ semicircles make 180°).
    static let degreesPerSemicircle = 180.0 / 2_147_483_648.0
}
