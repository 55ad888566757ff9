/// MapGeometry imports nothing, so it keeps its own copy of Platform's trap-free conversion
/// and of its guard against the trapping ones (Platform/Saturating.swift says why every
/// Double → Int goes through one). Internal, so that a module importing both sees only
/// Platform's.
extension FixedWidthInteger {
    /// `d` rounded toward zero, clamped to the type's range; NaN is 0.
    init(saturating d: Double) {
        if d.isNaN { self = 0 } else if d >= Double(Self.max) { self = .max } else if d <= Double(Self.min) { self = .min }
        // Through Int64, as Platform's does (the generic `Self(d)` is a hundred instructions).
        else if let i = Int64(exactly: d.rounded(.towardZero)) { self = Self(truncatingIfNeeded: i) } else { self = Self(d) }
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
