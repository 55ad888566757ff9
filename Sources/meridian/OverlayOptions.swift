import ArgumentParser
import FoundationEssentials
import Glibc
import Platform
import MapCore
import MapGeometry

/// `--location LAT,LON[,ACCURACY_M[,HEADING_DEG]]`
struct LocationSpec: ExpressibleByArgument {
    var coordinate: Coordinate
    var accuracy: Double
    var heading: Double?

    init?(argument: String) {
        let p = argument.split(separator: ",", omittingEmptySubsequences: false).map { Double($0.trimmed) }
        guard (2...4).contains(p.count), p.allSatisfy({ $0 != nil && $0!.isFinite }),
              let c = Coordinate(parsing: "\(p[0]!),\(p[1]!)") else { return nil }
        coordinate = c
        accuracy = p.count > 2 ? p[2]! : 0
        heading = p.count > 3 ? p[3]! : nil
        guard accuracy >= 0 && accuracy <= 20_000_000 else { return nil }
    }
}

/// `--circle LAT,LON,RADIUS_M[,COLOR]`
struct CircleSpec: ExpressibleByArgument {
    var center: Coordinate
    var radius: Double
    var color: Color?

    init?(argument: String) {
        let parts = argument.split(separator: ",", omittingEmptySubsequences: false).map(\.trimmed)
        guard (3...4).contains(parts.count), let c = Coordinate(parsing: "\(parts[0]),\(parts[1])"),
              let r = Double(parts[2]), r.isFinite, r > 0, r <= 20_000_000 else { return nil }
        center = c
        radius = r
        if parts.count == 4 { guard let col = Color(parsing: parts[3]) else { return nil }; color = col }
    }
}

extension Color: ExpressibleByArgument {
    public init?(argument: String) { self.init(parsing: argument) }
    /// Help shows a default colour as #RRGGBB, as it is typed.
    public var defaultValueDescription: String { hexString }
}

/// Overlays on the map: the location annotation and pulsing circles.
struct OverlayOptions: ParsableArguments {
    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp(tr("Show \"you are here\" with an accuracy circle and heading."), valueName: "LAT,LON[,ACCURACY_M[,HEADING_DEG]]"))
    var location: LocationSpec?

    // TRANSLATORS: COLOR is the value's name in the usage line (keep it); #RRGGBB is typed as it is.
    @Option(name: .long, parsing: .unconditionalSingleValue, help: ArgumentHelp(tr("Add a pulsing circle (repeatable). COLOR is #RRGGBB or a name."), valueName: "LAT,LON,RADIUS_M[,COLOR]"))
    var circle: [CircleSpec] = []

    @Option(name: .long, help: ArgumentHelp(tr("Colour of the location annotation (all its parts)."), valueName: "COLOR"))
    var pulseColor: Color = .systemBlue

    @Option(name: .long, help: ArgumentHelp(tr("Seconds the location halo takes to expand.")))
    var pulseDuration = 1.0

    @Option(name: .long, help: ArgumentHelp(tr("Seconds between location pulses.")))
    var pulseDelay = 1.0

    @Option(name: .long, help: ArgumentHelp(tr("Circles keep this on-screen radius instead of their meters."), valueName: "PT"))
    var fixedRadius: Double?

    @Flag(name: .long, help: ArgumentHelp(tr("No location at all (no --location, no live position).")))
    var noLocation = false

    func validate() throws {
        guard pulseDuration.isFinite, pulseDuration > 0, pulseDuration <= 60 else { throw ValidationError(tr("--pulse-duration must be between 0 and 60 seconds")) }
        guard pulseDelay.isFinite, pulseDelay >= 0, pulseDelay <= 60 else { throw ValidationError(tr("--pulse-delay must be between 0 and 60 seconds")) }
        if let f = fixedRadius, !(f.isFinite && f > 0 && f <= 2000) { throw ValidationError(tr("--fixed-radius must be between 0 and 2000 points")) }
    }

    var circles: [CircleOverlay] {
        circle.map { CircleOverlay(center: $0.center, radiusMeters: $0.radius, color: $0.color ?? Color(hex: 0xFF3B30), fixedRadiusPoints: fixedRadius) }
    }

    var halo: HaloPulse { HaloPulse(duration: pulseDuration, delay: pulseDelay) }

    /// The fixed location asked for with --location; nil without one (a live position shows
    /// only once a source has a fix: never a made-up one).
    var fixedLocation: LocationAnnotation? {
        guard let l = location, !noLocation else { return nil }
        return LocationAnnotation(coordinate: l.coordinate, accuracy: l.accuracy, heading: l.heading, color: pulseColor, halo: halo)
    }
}
