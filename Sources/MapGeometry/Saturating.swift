/// MapGeometry imports nothing, so it keeps its own copy of Platform's trap-free conversion
/// (Platform/Saturating.swift says why every Double → Int goes through one). Internal, so
/// that a module importing both sees only Platform's.
extension Int {
    /// `d` rounded toward zero, clamped to Int's range; NaN is 0.
    init(saturating d: Double) {
        if d.isNaN { self = 0 } else if d >= 9_223_372_036_854_775_807.0 { self = .max } else if d <= -9_223_372_036_854_775_808.0 { self = .min } else { self = Int(d) }
    }
}
