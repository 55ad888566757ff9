/// Conversions from floating point that cannot trap. Swift traps on `Int(x)` when x is NaN,
/// infinite or out of range; geometry far off screen and numbers read from files can be all
/// three, so every such conversion goes through these.
extension Int {
    /// `d` rounded toward zero, clamped to Int's range; NaN is 0.
    @inlinable
    public init(saturating d: Double) {
        if d.isNaN { self = 0 } else if d >= 9_223_372_036_854_775_807.0 { self = .max } else if d <= -9_223_372_036_854_775_808.0 { self = .min } else { self = Int(d) }
    }
}

extension Int32 {
    /// `d` rounded toward zero, clamped to Int32's range; NaN is 0.
    @inlinable
    public init(saturating d: Double) {
        if d.isNaN { self = 0 } else if d >= 2_147_483_647 { self = .max } else if d <= -2_147_483_648 { self = .min } else { self = Int32(d) }
    }
}
