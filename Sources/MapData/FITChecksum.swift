import FoundationEssentials
import Platform

/// FIT's checksum: CRC-16 with the reflected polynomial 0xA001 and a zero start (the one
/// known as CRC-16/ARC), over the header's first 12 bytes and over a whole file before its
/// last two bytes.
enum FITChecksum {
    /// Eight tables of 256 remainders, worked out from the polynomial: table k gives what a
    /// byte contributes k bytes before the end of an 8-byte block, so a block takes eight
    /// independent look-ups instead of a chain of eight (a 30 MB file checks in a few ms).
    static let tables: [UInt16] = {
        var t = [UInt16](repeating: 0, count: 8 * 256)
        for n in 0..<256 {
            var c = UInt16(n)
            for _ in 0..<8 { c = c & 1 != 0 ? (c >> 1) ^ 0xA001 : c >> 1 }
            t[n] = c
        }
        for k in 1..<8 {
            for n in 0..<256 {
                let prev = t[(k - 1) * 256 + n]
                t[k * 256 + n] = (prev >> 8) ^ t[Int(prev & 0xFF)]
            }
        }
        return t
    }()

    static func update(_ crc: UInt16, _ bytes: UnsafeRawBufferPointer) -> UInt16 {
        tables.withUnsafeBufferPointer { t in
            var c = crc
            var i = 0
            let n = bytes.count
            while n - i >= 8 {
                let b0 = UInt16(bytes[i]) ^ (c & 0xFF), b1 = UInt16(bytes[i + 1]) ^ (c >> 8)
                c = t[7 * 256 + Int(b0)] ^ t[6 * 256 + Int(b1)] ^ t[5 * 256 + Int(bytes[i + 2])] ^ t[4 * 256 + Int(bytes[i + 3])]
                    ^ t[3 * 256 + Int(bytes[i + 4])] ^ t[2 * 256 + Int(bytes[i + 5])] ^ t[256 + Int(bytes[i + 6])] ^ t[Int(bytes[i + 7])]
                i += 8
            }
            while i < n {
                c = (c >> 8) ^ t[Int((c ^ UInt16(bytes[i])) & 0xFF)]
                i += 1
            }
            return c
        }
    }

    static func of(_ bytes: [UInt8]) -> UInt16 {
        bytes.withUnsafeBytes { update(0, $0) }
    }
}
