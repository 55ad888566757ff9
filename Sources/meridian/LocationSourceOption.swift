import ArgumentParser
import FoundationEssentials
import MapPosition
import Platform

/// `--location-source auto|gpsd[:HOST:PORT]|geoclue|nmea:FILE[@SPEED]|none`: where the live
/// position comes from. `auto` is gpsd when it answers on 127.0.0.1:2947, else GeoClue when the
/// system bus has it, else none.
enum LocationSourceOption: ExpressibleByArgument, Equatable {
    case auto
    case none
    case gpsd(host: String, port: UInt16)
    case geoclue
    case nmea(path: String, speed: Double)

    init?(argument: String) {
        switch argument {
        case "auto": self = .auto
        case "none": self = .none
        case "gpsd": self = .gpsd(host: "127.0.0.1", port: 2947)
        case "geoclue": self = .geoclue
        case let s where s.hasPrefix("gpsd:"):
            // gpsd:HOST:PORT (the port after the last colon, so an IPv6 host keeps its own).
            let rest = s.dropFirst(5)
            guard let colon = rest.lastIndex(of: ":"), let port = UInt16(rest[rest.index(after: colon)...]), port > 0 else { return nil }
            let host = String(rest[..<colon].filter { $0 != "[" && $0 != "]" })
            guard !host.isEmpty, host.utf8.count < 256 else { return nil }
            self = .gpsd(host: host, port: port)
        case let s where s.hasPrefix("nmea:"):
            var path = String(s.dropFirst(5)), speed = 1.0
            if let at = path.lastIndex(of: "@"), let v = Double(path[path.index(after: at)...]), v.isFinite, v > 0, v <= 1000 {
                speed = v
                path = String(path[..<at])
            }
            guard !path.isEmpty else { return nil }
            self = .nmea(path: path, speed: speed)
        default: return nil
        }
    }

    static var allValueStrings: [String] { ["auto", "gpsd", "gpsd:HOST:PORT", "geoclue", "nmea:FILE[@SPEED]", "none"] }

    /// The desktop entry's name without ".desktop": GeoClue's agent asks about the app by it.
    static let desktopID = "io.github.meridian.Meridian"

    /// The source to start (nil: none); `auto` tries gpsd on this machine, then GeoClue.
    func makeSource() -> PositionSource? {
        switch self {
        case .none: return nil
        case .auto:
            if GPSDSource.answers() { return GPSDSource() }
            return GeoClueSource.isAvailable() ? GeoClueSource(desktopID: Self.desktopID) : nil
        case let .gpsd(host, port): return GPSDSource(host: host, port: port)
        case .geoclue: return GeoClueSource(desktopID: Self.desktopID)
        case let .nmea(path, speed): return NMEAReplaySource(path: path, speed: speed)
        }
    }
}
