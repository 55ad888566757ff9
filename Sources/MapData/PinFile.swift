import FoundationEssentials
import Glibc
import Platform
import MapCore
import MapGeometry

/// Pins on disk: a GeoJSON FeatureCollection of Point features with `properties.title` and a
/// stable `properties.id` (and `properties.color` as #RRGGBB). Saves are atomic; a file that
/// does not parse is never overwritten but moved aside, and the user is told.
public struct PinFile: Sendable {
    public let url: URL

    public init(url: URL) { self.url = url }

    /// `$XDG_DATA_HOME/meridian/pins.geojson`, `~/.local/share/meridian/pins.geojson` by default.
    public static func defaultURL(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        URL(fileURLWithPath: FileIO.userFolder("XDG_DATA_HOME", else: ".local/share", environment: environment) + "/meridian/pins.geojson")
    }

    public struct Loaded: Sendable {
        public var pins: [Pin] = []
        /// What was wrong, for the user: "pins.geojson: feature 3: no coordinates".
        public var problems: [String] = []
        /// Where an unreadable file was moved, so that saving cannot destroy it.
        public var movedAside: URL?
        /// The file could not be read nor moved aside: saving would destroy it.
        public var mustNotSave = false
    }

    /// Reads the pins. A missing file is no pins; a file that is not a FeatureCollection is
    /// moved aside to `NAME.corrupt-YYYYMMDD-HHMMSS`; bad features are skipped and reported.
    /// `readOnly`: report an unreadable file but leave it where it is (for `render`).
    public func load(now: Date = Date(), readOnly: Bool = false) -> Loaded {
        var out = Loaded()
        guard FileIO.exists(url.path) else { return out }
        let name = url.lastPathComponent
        let features: [JSONValue]
        do {
            let root = try JSONValue.parse(FileIO.read(url.path, limit: Self.sizeLimit))
            guard root["type"]?.string == "FeatureCollection" else { throw PinFileError(tr("not a GeoJSON FeatureCollection")) }
            guard let list = root["features"]?.array else { throw PinFileError(tr("no \"features\" array")) }
            features = list
        } catch {
            if readOnly {
                out.problems.append("\(url.path): \(error)")
                out.mustNotSave = true
                return out
            }
            let aside = url.deletingLastPathComponent().appendingPathComponent("\(name).corrupt-\(Self.stamp(now))")
            if rename(url.path, aside.path) == 0 {
                out.movedAside = aside
                // TRANSLATORS: %1$@ is the pins file's path, %2$@ what is wrong with it, %3$@ the name it was given.
                out.problems.append(tr("%1$@: %2$@; moved aside to %3$@, starting with no pins", url.path, error, aside.lastPathComponent))
            } else {
                // TRANSLATORS: %1$@ is the pins file's path, %2$@ what is wrong with it, %3$@ why it could not be renamed.
                out.problems.append(tr("%1$@: %2$@, and it could not be moved aside (%3$@); changes will not be saved", url.path, error, FileIO.reason()))
                out.mustNotSave = true
            }
            return out
        }
        var ids = Set<String>()
        for (i, f) in features.enumerated() {
            do {
                var pin = try Self.pin(from: f)
                // Two pins may not share an id: the later one gets a new one.
                if !ids.insert(pin.id).inserted {
                    // TRANSLATORS: %1$@ is the pins file's name, %2$d the feature's index in it, %3$@ the pin's id.
                    out.problems.append(tr("%1$@: feature %2$d: duplicate id %3$@, given a new one", name, i, pin.id))
                    pin.id = UUID().uuidString.lowercased()
                    ids.insert(pin.id)
                }
                out.pins.append(pin)
            } catch {
                // TRANSLATORS: %1$@ is the pins file's name, %2$d the feature's index in it, %3$@ what is wrong with it.
                out.problems.append(tr("%1$@: feature %2$d: %3$@", name, i, error))
            }
        }
        return out
    }

    /// A pins file larger than this is not a pins file (a million pins take about 200 MB).
    static let sizeLimit = 256 << 20

    /// "20261121-143005" in UTC, for the name of a file moved aside.
    static func stamp(_ date: Date) -> String {
        let t = CivilCalendar.moment(date.timeIntervalSince1970) ?? CivilCalendar.Moment(year: 1970, month: 1, day: 1, hour: 0, minute: 0, second: 0)
        return String(cFormat: "%04d%02d%02d-%02d%02d%02d", t.year, t.month, t.day, t.hour, t.minute, t.second)
    }

    static func pin(from f: JSONValue) throws -> Pin {
        guard f["type"]?.string == "Feature" else { throw PinFileError(tr("not a Feature")) }
        guard let g = f["geometry"], g["type"]?.string == "Point" else { throw PinFileError(tr("geometry is not a Point")) }
        guard let c = g["coordinates"]?.array, c.count >= 2, let lon = c[0].number, let lat = c[1].number else {
            throw PinFileError(tr("no coordinates"))
        }
        let coordinate = Coordinate(latitude: lat, longitude: lon)
        // TRANSLATORS: %1$@ and %2$@ are the longitude and latitude in the file.
        guard coordinate.isValid else { throw PinFileError(tr("coordinates out of range (%1$@, %2$@)", lon, lat)) }
        let props = f["properties"]
        let id = props?["id"]?.string.flatMap { $0.isEmpty ? nil : $0 } ?? UUID().uuidString.lowercased()
        let title = props?["title"]?.string ?? ""
        let color = props?["color"]?.string.flatMap(Color.init(parsing:)) ?? Color(hex: 0xFF3B30)
        return Pin(id: id, coordinate: coordinate, title: title, color: color)
    }

    /// Writes all pins atomically (temp file, fsync, rename): the file on disk is always the
    /// old version or the new one.
    public func save(_ pins: [Pin]) throws {
        let features: [JSONValue] = pins.map { p in
            .object(["type": .string("Feature"),
                     "geometry": .object(["type": .string("Point"),
                                          "coordinates": .array([.number(p.coordinate.longitude), .number(p.coordinate.latitude)])]),
                     "properties": .object(["id": .string(p.id), "title": .string(p.title), "color": .string(p.color.hexString)])])
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try AtomicFile.write(encoder.encode(JSONValue.object(["type": .string("FeatureCollection"), "features": .array(features)])), to: url)
    }
}

public struct PinFileError: Error, CustomStringConvertible, Sendable {
    public let description: String
    public init(_ d: String) { description = d }
}
