/// MapGeometry imports nothing, so it keeps its own copy of Platform's trap-free conversion
/// and of its guard against the trapping ones (Platform/Saturating.swift says why every
/// Double → Int goes through one). Internal, so that a module importing both sees only
/// Platform's.
extension FixedWidthInteger {
    /// `d` rounded toward zero, clamped to the type's range; NaN is 0.
    init(saturating d: Double) {
        if d.isNaN { self = 0 } else if d >= Double(Self.max) { self = .max } else if d <= Double(Self.min) { self = .min } else { self = Self(d) }
    }
}

extension Int {
    @available(*, deprecated, message: "Int(Double) traps on NaN and out of range: use Int(saturating:)")
    init(_ d: Double) { self.init(saturating: d) }
}
extension Int32 {
    @available(*, deprecated, message: "Int32(Double) traps on NaN and out of range: use Int32(saturating:)")
    init(_ d: Double) { self.init(saturating: d) }
}
