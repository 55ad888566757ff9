/// Conversions from floating point that cannot trap. Swift traps on `Int(x)` when x is NaN,
/// infinite or out of range; geometry far off screen and numbers read from files can be all
/// three, so every such conversion goes through these.
extension FixedWidthInteger {
    /// `d` rounded toward zero, clamped to the type's range; NaN is 0.
    @inlinable
    public init(saturating d: Double) {
        // Double(Self.max) rounds up to a power of two for 64-bit types, itself out of range.
        if d.isNaN { self = 0 } else if d >= Double(Self.max) { self = .max } else if d <= Double(Self.min) { self = .min }
        // Through Int64, a machine instruction: `Self(d)` in a generic body is the standard
        // library's generic conversion, a hundred instructions (a pan converts hundreds a frame).
        else if let i = Int64(exactly: d.rounded(.towardZero)) { self = Self(truncatingIfNeeded: i) } else { self = Self(d) }
    }
}

// The lint of issue 39, run by the compiler: in every module that sees Platform, these shadow
// the standard library's trapping conversions from Double and Float, and Package.swift makes
// their use an error (DeprecatedDeclaration). Swift shadows only among a file's own imports,
// so every file of those targets imports Platform (the lint checks that too). `Self(d)` in
// the generic initialiser above is the one unchecked conversion left; a value known to be in
// range uses `Int(exactly:)` or the saturating form. scripts/lint-conversions.sh shows a
// planted conversion refused.
extension Int {
    @available(*, deprecated, message: "Int(Double) traps on NaN and out of range: use Int(saturating:)")
    public init(_ d: Double) { self.init(saturating: d) }
    @available(*, deprecated, message: "Int(Float) traps on NaN and out of range: use Int(saturating: Double(x))")
    public init(_ d: Float) { self.init(saturating: Double(d)) }
}
extension Int32 {
    @available(*, deprecated, message: "Int32(Double) traps on NaN and out of range: use Int32(saturating:)")
    public init(_ d: Double) { self.init(saturating: d) }
    @available(*, deprecated, message: "Int32(Float) traps on NaN and out of range: use Int32(saturating: Double(x))")
    public init(_ d: Float) { self.init(saturating: Double(d)) }
}
extension Int64 {
    @available(*, deprecated, message: "Int64(Double) traps on NaN and out of range: use Int64(saturating:)")
    public init(_ d: Double) { self.init(saturating: d) }
}
extension Int16 {
    @available(*, deprecated, message: "Int16(Double) traps on NaN and out of range: use Int16(saturating:)")
    public init(_ d: Double) { self.init(saturating: d) }
}
extension UInt8 {
    @available(*, deprecated, message: "UInt8(Double) traps on NaN and out of range: use UInt8(saturating:)")
    public init(_ d: Double) { self.init(saturating: d) }
    @available(*, deprecated, message: "UInt8(Float) traps on NaN and out of range: use UInt8(saturating: Double(x))")
    public init(_ d: Float) { self.init(saturating: Double(d)) }
}
extension UInt16 {
    @available(*, deprecated, message: "UInt16(Double) traps on NaN and out of range: use UInt16(saturating:)")
    public init(_ d: Double) { self.init(saturating: d) }
}
extension UInt32 {
    @available(*, deprecated, message: "UInt32(Double) traps on NaN and out of range: use UInt32(saturating:)")
    public init(_ d: Double) { self.init(saturating: d) }
    @available(*, deprecated, message: "UInt32(Float) traps on NaN and out of range: use UInt32(saturating: Double(x))")
    public init(_ d: Float) { self.init(saturating: Double(d)) }
}
extension UInt64 {
    @available(*, deprecated, message: "UInt64(Double) traps on NaN and out of range: use UInt64(saturating:)")
    public init(_ d: Double) { self.init(saturating: d) }
}
extension UInt {
    @available(*, deprecated, message: "UInt(Double) traps on NaN and out of range: use UInt(saturating:)")
    public init(_ d: Double) { self.init(saturating: d) }
}
