import Foundation
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
        let base: URL
        if let d = environment["XDG_DATA_HOME"], d.hasPrefix("/") {
            base = URL(fileURLWithPath: d)
        } else {
            base = URL(fileURLWithPath: environment["HOME"] ?? NSHomeDirectory()).appendingPathComponent(".local/share")
        }
        return base.appendingPathComponent("meridian/pins.geojson")
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
    public func load(now: Date = Date()) -> Loaded {
        var out = Loaded()
        guard FileManager.default.fileExists(atPath: url.path) else { return out }
        let name = url.lastPathComponent
        let root: [String: Any]
        do {
            let data = try Data(contentsOf: url)
            guard let obj = try JSONSerialization.jsonObject(with: data) as? [String: Any],
                  obj["type"] as? String == "FeatureCollection" else {
                throw PinFileError("not a GeoJSON FeatureCollection")
            }
            guard obj["features"] is [Any] else { throw PinFileError("no \"features\" array") }
            root = obj
        } catch {
            let reason = (error as? PinFileError)?.description ?? "not valid JSON (\(error.localizedDescription))"
            let f = DateFormatter()
            f.dateFormat = "yyyyMMdd-HHmmss"
            f.timeZone = TimeZone(identifier: "UTC")
            let aside = url.deletingLastPathComponent().appendingPathComponent("\(name).corrupt-\(f.string(from: now))")
            do {
                try FileManager.default.moveItem(at: url, to: aside)
                out.movedAside = aside
                out.problems.append("\(url.path): \(reason); moved aside to \(aside.lastPathComponent), starting with no pins")
            } catch {
                out.problems.append("\(url.path): \(reason), and it could not be moved aside (\(error.localizedDescription)); changes will not be saved")
                out.mustNotSave = true
            }
            return out
        }
        let features = root["features"] as? [Any] ?? []
        var ids = Set<String>()
        for (i, f) in features.enumerated() {
            do {
                var pin = try Self.pin(from: f)
                // Two pins may not share an id: the later one gets a new one.
                if !ids.insert(pin.id).inserted {
                    out.problems.append("\(name): feature \(i): duplicate id \(pin.id), given a new one")
                    pin.id = UUID().uuidString.lowercased()
                    ids.insert(pin.id)
                }
                out.pins.append(pin)
            } catch {
                out.problems.append("\(name): feature \(i): \(error)")
            }
        }
        return out
    }

    static func pin(from any: Any) throws -> Pin {
        guard let f = any as? [String: Any], f["type"] as? String == "Feature" else { throw PinFileError("not a Feature") }
        guard let g = f["geometry"] as? [String: Any], g["type"] as? String == "Point" else { throw PinFileError("geometry is not a Point") }
        guard let c = g["coordinates"] as? [Any], c.count >= 2, let lon = (c[0] as? NSNumber)?.doubleValue,
              let lat = (c[1] as? NSNumber)?.doubleValue else { throw PinFileError("no coordinates") }
        let coordinate = Coordinate(latitude: lat, longitude: lon)
        guard coordinate.isValid else { throw PinFileError("coordinates out of range (\(lon), \(lat))") }
        let props = f["properties"] as? [String: Any] ?? [:]
        let id = (props["id"] as? String).flatMap { $0.isEmpty ? nil : $0 } ?? UUID().uuidString.lowercased()
        let title = props["title"] as? String ?? ""
        let color = (props["color"] as? String).flatMap(Color.init(parsing:)) ?? Color(hex: 0xFF3B30)
        return Pin(id: id, coordinate: coordinate, title: title, color: color)
    }

    /// Writes all pins atomically (temp file, fsync, rename): the file on disk is always the
    /// old version or the new one.
    public func save(_ pins: [Pin]) throws {
        let features: [[String: Any]] = pins.map { p in
            ["type": "Feature",
             "geometry": ["type": "Point", "coordinates": [p.coordinate.longitude, p.coordinate.latitude]],
             "properties": ["id": p.id, "title": p.title, "color": p.color.hexString]]
        }
        let doc: [String: Any] = ["type": "FeatureCollection", "features": features]
        let data = try JSONSerialization.data(withJSONObject: doc, options: [.prettyPrinted, .sortedKeys])
        try AtomicFile.write(data, to: url)
    }
}

public struct PinFileError: Error, CustomStringConvertible, Sendable {
    public let description: String
    public init(_ d: String) { description = d }
}
