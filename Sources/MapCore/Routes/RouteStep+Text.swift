import Platform

extension RouteStep {
    /// The instruction as the panel and `meridian route` print it: "Turn left onto Mikonkatu",
    /// "At the roundabout, take exit 2 onto Unioninkatu", "Arrive at the destination".
    public var instruction: String {
        let onto = road.map { " onto " + $0 } ?? ""
        switch maneuver {
        case .depart: return road.map { "Head along " + $0 } ?? "Head off"
        case .straight: return road.map { "Continue on " + $0 } ?? "Continue straight on"
        case .slightLeft: return "Keep slightly left" + onto
        case .left: return "Turn left" + onto
        case .sharpLeft: return "Turn sharp left" + onto
        case .slightRight: return "Keep slightly right" + onto
        case .right: return "Turn right" + onto
        case .sharpRight: return "Turn sharp right" + onto
        case .uTurn: return "Make a U-turn" + onto
        case let .roundabout(exit):
            return exit > 0 ? "At the roundabout, take exit \(exit)" + onto : "Go round the roundabout" + onto
        case .via: return "Pass the via point"
        case .arrive: return "Arrive at the destination"
        }
    }
}

extension Route {
    /// The steps as a person reads them: a "continue" on the same road, or a slight bend that
    /// stays on it, folded into the step before it, as GNOME Maps shows them (its distance and
    /// time added there), so that only decisions and new road names remain.
    public var readableSteps: [RouteStep] {
        var out: [RouteStep] = []
        for step in steps {
            let straight = step.maneuver == .straight
            let bend = (step.maneuver == .slightLeft || step.maneuver == .slightRight) && step.road != nil
            if straight || bend, var last = out.last, last.maneuver != .arrive, (straight && step.road == nil) || step.road == last.road {
                last.distance += step.distance
                last.duration += step.duration
                out[out.count - 1] = last
            } else {
                out.append(step)
            }
        }
        return out
    }
}

extension Route {
    /// What every route an engine's reader makes must be (the fuzz targets hold readers to it):
    /// a line on Earth, steps on it in order with sane numbers and words, totals that are
    /// numbers. A reader that makes anything else has a bug.
    public var isWellFormed: Bool {
        guard geometry.count >= 2, geometry.allSatisfy(\.isValid), distance.isFinite, distance >= 0, duration.isFinite, duration >= 0 else { return false }
        var last = 0
        for s in steps {
            guard geometry.indices.contains(s.index), s.index >= last, s.at.isValid, s.distance.isFinite, s.distance >= 0,
                  s.duration.isFinite, s.duration >= 0, (s.road?.count ?? 0) <= 200 else { return false }
            last = s.index
        }
        return readableSteps.allSatisfy { !$0.instruction.isEmpty }
    }
}
