import Platform
import Testing

/// Conversions from Double that cannot trap: toward zero inside the type's range, its end
/// beyond it, 0 for NaN, for every width and sign (the fast path through Int64 and the
/// unsigned 64-bit values beyond it).
struct SaturatingTests {
    @Test func insideTheRangeTowardZero() {
        #expect(Int32(saturating: 2.7) == 2)
        #expect(Int32(saturating: -2.7) == -2)
        #expect(Int32(saturating: -0.0) == 0)
        #expect(Int(saturating: 1e15 + 0.5) == 1_000_000_000_000_000)
        #expect(UInt8(saturating: 254.9) == 254)
        #expect(Int16(saturating: -32767.9) == -32767)
        #expect(Int8(saturating: -127.5) == -127)
        #expect(Int8(saturating: -0.5) == 0)
        #expect(UInt8(saturating: -0.5) == 0)
        #expect(UInt64(saturating: -0.0) == 0)
        // Int64's ends: the largest double below 2^63, and -2^63 itself.
        #expect(Int64(saturating: 9_223_372_036_854_774_784) == 9_223_372_036_854_774_784)
        #expect(Int64(saturating: -9.223372036854775808e18) == .min)
    }

    @Test func beyondTheRangeItsEnds() {
        #expect(Int32(saturating: 2_147_483_647.5) == .max)
        #expect(Int32(saturating: 3e9) == .max)
        #expect(Int32(saturating: -3e9) == .min)
        #expect(Int32(saturating: .infinity) == .max)
        #expect(Int32(saturating: -.infinity) == .min)
        #expect(UInt8(saturating: 300) == 255)
        #expect(UInt8(saturating: -5) == 0)
        #expect(Int64(saturating: 1e19) == .max)
        #expect(Int(saturating: -1e300) == .min)
    }

    @Test func nanIsZero() {
        #expect(Int32(saturating: .nan) == 0)
        #expect(UInt64(saturating: .nan) == 0)
    }

    @Test func unsignedSixtyFourBitBeyondSignedRange() {
        #expect(UInt64(saturating: 1e19) == 10_000_000_000_000_000_000)
        #expect(UInt64(saturating: 9_223_372_036_854_775_808.0) == 9_223_372_036_854_775_808)
        #expect(UInt64(saturating: 2e19) == .max)
        #expect(UInt(saturating: 4e18) == 4_000_000_000_000_000_000)
    }
}
