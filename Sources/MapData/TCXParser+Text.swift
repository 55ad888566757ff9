import FoundationEssentials
import MapCore
import Platform

/// The text inside TCX elements: a point's numbers and time, names, an Activity's sport.
extension TCXParser {
    /// The text of an element that matters, when it ends: into the point or the course.
    mutating func finishText(_ name: Name, at offset: Int) {
        textBuffer.withUnsafeBufferPointer { value in
            switch name {
            case .time:
                guard let t = TextNumbers.time(value) else {
                    // TRANSLATORS: %@ is a TCX element's name (Time).
                    problem(tr("<%@> that is not an ISO 8601 time ignored", "Time"), at: offset)
                    return
                }
                point.time = t
            case .altitude:
                guard let v = number(value, "AltitudeMeters", at: offset) else { return }
                point.elevation = Float(v)
            case .latitude:
                point.sawLatitude = true
                point.latitude = TextNumbers.double(value) ?? .nan
            case .longitude:
                point.sawLongitude = true
                point.longitude = TextNumbers.double(value) ?? .nan
            case .value: point.heartRate = count(value, "HeartRateBpm", at: offset) ?? point.heartRate
            case .cadence: point.cadence = count(value, "Cadence", at: offset) ?? point.cadence
            case .runCadence: point.runCadence = count(value, "RunCadence", at: offset) ?? point.runCadence
            case .watts: point.power = count(value, "Watts", at: offset) ?? point.power
            case .name:
                let s = GPXParser.decodeEntities(value)
                if pointKind == .coursePoint { point.name = s } else if !s.isEmpty { track?.name = s }
            default: break
            }
        }
    }

    /// A finite number; one that is not is reported (blank text is no value and passes).
    mutating func number(_ value: UnsafeBufferPointer<UInt8>, _ element: String, at offset: Int) -> Double? {
        if let v = TextNumbers.double(value), v.isFinite { return v }
        if !value.allSatisfy(TextNumbers.isBlank) {
            // TRANSLATORS: %@ is a TCX element's name (AltitudeMeters, HeartRateBpm, Cadence, Watts).
            problem(tr("<%@> that is not a number ignored", element), at: offset)
        }
        return nil
    }

    /// Heart rate, cadence or power: a number of at least 0, saturated into 16 bits (a
    /// negative one is no reading).
    mutating func count(_ value: UnsafeBufferPointer<UInt8>, _ element: String, at offset: Int) -> UInt16? {
        guard let v = number(value, element, at: offset), v >= 0 else { return nil }
        return UInt16(saturating: v.rounded())
    }

    /// An Activity's name: its Sport in the reader's language (the schema knows Running,
    /// Biking and Other; a word some other program wrote is shown as written).
    func sportName(_ r: Range<Int>?) -> String? {
        guard let r else { return nil }
        let sport = GPXParser.decodeEntities(UnsafeBufferPointer(rebasing: bytes[r]))
        switch sport {
        // TRANSLATORS: the name of a track read from a TCX file: the sport the activity was recorded for.
        case "Running": return trc("sport", "Running")
        // TRANSLATORS: the name of a track read from a TCX file: the sport the activity was recorded for (cycling).
        case "Biking": return trc("sport", "Biking")
        // TRANSLATORS: the name of a track read from a TCX file: an activity of another sport than running or cycling.
        case "Other": return trc("sport", "Other")
        case "": return nil
        default: return sport
        }
    }
}
