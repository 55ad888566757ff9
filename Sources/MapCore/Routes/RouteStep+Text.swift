import Platform

extension RouteStep {
    /// The instruction as the panel and `meridian route` print it: "Turn left onto Mikonkatu",
    /// "At the roundabout, take exit 2 onto Unioninkatu", "Arrive at the destination".
    public var instruction: String {
        // Each instruction is a whole message, with the road and without (no road named).
        // TRANSLATORS: a route's instructions; %@ is a road's name ("Mikonkatu").
        switch maneuver {
        case .depart: return road.map { tr("Head along %@", $0) } ?? tr("Head off")
        case .straight: return road.map { tr("Continue on %@", $0) } ?? tr("Continue straight on")
        case .slightLeft: return road.map { tr("Keep slightly left onto %@", $0) } ?? tr("Keep slightly left")
        case .left: return road.map { tr("Turn left onto %@", $0) } ?? tr("Turn left")
        case .sharpLeft: return road.map { tr("Turn sharp left onto %@", $0) } ?? tr("Turn sharp left")
        case .slightRight: return road.map { tr("Keep slightly right onto %@", $0) } ?? tr("Keep slightly right")
        case .right: return road.map { tr("Turn right onto %@", $0) } ?? tr("Turn right")
        case .sharpRight: return road.map { tr("Turn sharp right onto %@", $0) } ?? tr("Turn sharp right")
        case .uTurn: return road.map { tr("Make a U-turn onto %@", $0) } ?? tr("Make a U-turn")
        case let .roundabout(exit) where exit > 0:
            // TRANSLATORS: %1$d is the number of the exit (counted from where one enters), %2$@ a road's name.
            return road.map { trn("At the roundabout, take exit %1$d onto %2$@", "At the roundabout, take exit %1$d onto %2$@", exit, $0) }
                // TRANSLATORS: %d is the number of the exit, counted from where one enters the roundabout.
                ?? trn("At the roundabout, take exit %d", "At the roundabout, take exit %d", exit)
        case .roundabout: return road.map { tr("Go round the roundabout onto %@", $0) } ?? tr("Go round the roundabout")
        case .via: return tr("Pass the via point")
        case .arrive: return tr("Arrive at the destination")
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
