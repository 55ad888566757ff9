import FoundationEssentials
import Glibc
import Platform
import MapCore
import MapGeometry

/// The last view, restored at the next start, with the files that were open and the map
/// chosen: {"center":{"lat":…,"lon":…},"zoom":…,"bearing":30,"files":[{"path":…,"hidden":false}],
/// "tiles":"osm","hintShown":true}.
public struct ViewState: Codable, Equatable, Sendable {
    public struct Center: Codable, Equatable, Sendable {
        public var lat: Double
        public var lon: Double
    }
    /// A file of tracks that was open, and whether it was hidden.
    public struct OpenFile: Codable, Equatable, Sendable {
        public var path: String
        public var hidden: Bool
        public init(path: String, hidden: Bool) { self.path = path; self.hidden = hidden }
    }
    /// An overlay as the switcher left it: on or off, and how opaque (`TileLayerSpec.opacityRange`, 0.05…1).
    public struct OverlayState: Codable, Equatable, Sendable {
        public var name: String
        public var on: Bool
        public var opacity: Double
        public init(name: String, on: Bool, opacity: Double) { self.name = name; self.on = on; self.opacity = opacity }
    }
    public var center: Center
    public var zoom: Double
    /// Which way the top of the view faced, degrees clockwise from north; absent (in files
    /// written before the map turned, and for north-up): 0.
    public var bearing: Double?
    /// Absent in files written before files were remembered.
    public var files: [OpenFile]?
    /// The map chosen in the layer switcher (its name); absent: the basemap.
    public var tiles: String?
    /// The hint that street maps are one key away was shown (it is shown once).
    public var hintShown: Bool?
    /// The first start's hint of where the keys are was shown (it is shown once).
    public var helpHintShown: Bool?
    /// The overlays turned on, or set to another opacity; absent: none.
    public var overlays: [OverlayState]?
    /// Which names labels show ("local", "mine", "both"); absent: the reader's language.
    public var labels: String?

    public init(center: Coordinate, zoom: Double, bearing: Double = 0, files: [OpenFile] = [], tiles: String? = nil, hintShown: Bool = false,
                helpHintShown: Bool = false, overlays: [OverlayState]? = nil, labels: String? = nil) {
        self.bearing = bearing == 0 || !bearing.isFinite ? nil : bearing
        self.overlays = overlays
        self.labels = labels
        self.center = Center(lat: center.latitude, lon: center.longitude)
        self.zoom = zoom
        self.files = files
        self.tiles = tiles
        self.hintShown = hintShown ? true : nil
        self.helpHintShown = helpHintShown ? true : nil
    }

    public var coordinate: Coordinate { Coordinate(latitude: center.lat, longitude: center.lon) }

    /// The bearing to open with (0 when none was kept).
    public var openingBearing: Double { bearing ?? 0 }

    /// `$XDG_STATE_HOME/meridian/view.json`, `~/.local/state/meridian/view.json` by default.
    public static func defaultURL(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        URL(fileURLWithPath: FileIO.userFolder("XDG_STATE_HOME", else: ".local/state", environment: environment) + "/meridian/view.json")
    }

    public enum LoadError: Error, CustomStringConvertible {
        case unreadable(String, String)
        case invalid(String, String)
        public var description: String {
            switch self {
            // TRANSLATORS: %1$@ is a file's path, %2$@ the reason.
            case let .unreadable(p, r): return tr("%1$@: cannot read (%2$@)", p, r)
            // TRANSLATORS: %1$@ is a file's path, %2$@ the reason; the view state is the map's last place and zoom.
            case let .invalid(p, r): return tr("%1$@: not a valid view state (%2$@)", p, r)
            }
        }
    }

    /// The saved view, nil when there is none yet; a damaged file is an error (and is left alone).
    public static func load(from url: URL) throws -> ViewState? {
        guard FileIO.exists(url.path) else { return nil }
        let data: Data
        // A view is a few dozen bytes; anything huge is not one.
        do { data = try FileIO.read(url.path, limit: 1 << 20) } catch let e as FileReadError { throw LoadError.unreadable(url.path, e.reason) }
        let v: ViewState
        do { v = try JSONDecoder().decode(ViewState.self, from: data) } catch {
            throw LoadError.invalid(url.path, "\(error)")
        }
        guard v.coordinate.isValid, v.zoom.isFinite, (0...22).contains(v.zoom), v.bearing?.isFinite ?? true,
              (v.overlays ?? []).allSatisfy({ $0.opacity.isFinite && TileLayerSpec.opacityRange.contains($0.opacity) && $0.name.utf8.count <= 200 }) else {
            throw LoadError.invalid(url.path, tr("values out of range"))
        }
        return v
    }

    public func save(to url: URL) throws {
        let enc = JSONEncoder()
        enc.outputFormatting = [.sortedKeys]
        try AtomicFile.write(enc.encode(self), to: url)
    }
}
