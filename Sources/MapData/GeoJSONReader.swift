import FoundationEssentials
import Platform
import MapCore
import MapGeometry

/// Reads GeoJSON (RFC 7946): lines become tracks, polygons areas (with their holes), points
/// named points, through Feature, FeatureCollection and GeometryCollection, with simplestyle
/// properties (`name`, `stroke`, `stroke-width`, `fill`, `fill-opacity`). A bad geometry is
/// skipped and reported by its JSON path (`features[3].geometry`); the rest loads.
public struct GeoJSONReader {
    let file: String

    public init(file: String) { self.file = file }

    public func read(_ data: Data) throws -> GeoDocument {
        let root: JSONValue
        do { root = try JSONValue.parse(data) } catch {
            throw GeoFileError(file: file, line: nil, reason: "\(error)")
        }
        guard root["type"]?.string != nil else {
            throw GeoFileError(file: file, line: nil, reason: tr("not a GeoJSON object (no \"type\")"))
        }
        var doc = GeoDocument()
        walk(root, path: "", style: Style(), depth: 0, into: &doc)
        return doc
    }

    /// What a Feature's properties say about drawing its geometry.
    struct Style {
        var name: String?
        var stroke: Color?
        var strokeWidth: Double?
        var fill: Color?

        init() {}

        init(properties p: JSONValue?) {
            name = p?["name"]?.string ?? p?["title"]?.string
            stroke = p?["stroke"]?.string.flatMap(Self.color)
            strokeWidth = p?["stroke-width"]?.number.flatMap { $0.isFinite && $0 > 0 && $0 < 100 ? $0 : nil }
            if var f = p?["fill"]?.string.flatMap(Self.color) {
                if let o = p?["fill-opacity"]?.number, o.isFinite { f.a = min(max(o, 0), 1) } else { f.a = 0.6 }
                fill = f
            }
        }

        /// `#rgb` or `#rrggbb` (the `#` may be left out).
        static func color(_ s: String) -> Color? {
            var hex = s.hasPrefix("#") ? String(s.dropFirst()) : s
            if hex.count == 3 { hex = hex.map { "\($0)\($0)" }.joined() }
            // With its `#`, never one of the names `Color(parsing:)` also knows.
            return hex.count == 6 ? Color(parsing: "#" + hex) : nil
        }
    }

    /// A geometry skipped at `path`, and why (`reason` says it whole: "…; skipped").
    private func problem(_ doc: inout GeoDocument, _ path: String, _ reason: String) {
        if doc.problems.count < 1000 {
            doc.problems.append(GeoFileError(file: file, line: nil, reason: (path.isEmpty ? "" : path + ": ") + reason))
        }
    }

    private func walk(_ v: JSONValue, path: String, style: Style, depth: Int, into doc: inout GeoDocument) {
        // Nesting deeper than any geometry needs is a hostile file, not a map.
        guard depth < 32 else { problem(&doc, path, tr("nested deeper than 32 levels; skipped")); return }
        guard let type = v["type"]?.string else { problem(&doc, path, tr("no \"type\"; skipped")); return }
        func at(_ key: String) -> String { path.isEmpty ? key : path + "." + key }
        switch type {
        case "FeatureCollection":
            guard let features = v["features"]?.array else { problem(&doc, path, tr("a FeatureCollection without \"features\"; skipped")); return }
            for (i, f) in features.enumerated() { walk(f, path: at("features") + "[\(i)]", style: style, depth: depth + 1, into: &doc) }
        case "Feature":
            guard let g = v["geometry"], g != .null else { return } // a feature without geometry is allowed
            walk(g, path: at("geometry"), style: Style(properties: v["properties"]), depth: depth + 1, into: &doc)
        case "GeometryCollection":
            guard let gs = v["geometries"]?.array else { problem(&doc, path, tr("a GeometryCollection without \"geometries\"; skipped")); return }
            for (i, g) in gs.enumerated() { walk(g, path: at("geometries") + "[\(i)]", style: style, depth: depth + 1, into: &doc) }
        case "Point":
            guard let p = position(v["coordinates"]) else { problem(&doc, at("coordinates"), whatIsWrong(v["coordinates"])); return }
            doc.waypoints.append(Waypoint(latitude: p.lat, longitude: p.lon, name: style.name, elevation: p.ele))
        case "MultiPoint":
            guard let ps = v["coordinates"]?.array?.map(position), !ps.contains(where: { $0 == nil }) else {
                problem(&doc, at("coordinates"), tr("not a list of positions; skipped")); return
            }
            for p in ps.compactMap({ $0 }) { doc.waypoints.append(Waypoint(latitude: p.lat, longitude: p.lon, name: style.name, elevation: p.ele)) }
        case "LineString", "MultiLineString":
            let lines = type == "LineString" ? [v["coordinates"]] : (v["coordinates"]?.array ?? []).map { Optional($0) }
            var track = Track(kind: .route, name: style.name, color: style.stroke)
            track.width = style.strokeWidth
            for (i, line) in lines.enumerated() {
                guard let ps = line?.array?.map(position), ps.count >= 2, !ps.contains(where: { $0 == nil }) else {
                    problem(&doc, at("coordinates") + (type == "LineString" ? "" : "[\(i)]"), tr("not a line of two or more positions; skipped")); continue
                }
                let start = track.points.count
                for p in ps.compactMap({ $0 }) { track.points.append(latitude: p.lat, longitude: p.lon, elevation: p.ele, time: .nan) }
                track.segments.append(start..<track.points.count)
            }
            if track.points.count > 0 { doc.tracks.append(track) }
        case "Polygon", "MultiPolygon":
            let polygons = type == "Polygon" ? [v["coordinates"]] : (v["coordinates"]?.array ?? []).map { Optional($0) }
            for (i, polygon) in polygons.enumerated() {
                let here = at("coordinates") + (type == "Polygon" ? "" : "[\(i)]")
                guard let rings = polygon?.array, !rings.isEmpty else { problem(&doc, here, tr("a polygon without rings; skipped")); continue }
                var out: [[Coordinate]] = []
                for ring in rings {
                    // A ring is closed and has at least four positions (RFC 7946 3.1.6).
                    guard let ps = ring.array?.map(position), ps.count >= 4, !ps.contains(where: { $0 == nil }) else { out = []; break }
                    out.append(ps.compactMap { $0 }.map { Coordinate(latitude: $0.lat, longitude: $0.lon) })
                }
                guard !out.isEmpty else { problem(&doc, here, tr("a ring that is not four or more positions; skipped")); continue }
                doc.areas.append(Area(rings: out, name: style.name, fill: style.fill, stroke: style.stroke, strokeWidth: style.strokeWidth))
            }
        default:
            // TRANSLATORS: %@ is the GeoJSON "type" the file gives.
            problem(&doc, path, tr("unknown type \"%@\"; skipped", type))
        }
    }

    private func whatIsWrong(_ v: JSONValue?) -> String {
        if let a = v?.array, a.count >= 2, let lon = a[0].number, let lat = a[1].number {
            // TRANSLATORS: %1$@ and %2$@ are the longitude and latitude in the file.
            return tr("coordinates out of range (lon %1$@, lat %2$@); skipped", lon, lat)
        }
        return tr("not a position [lon, lat]; skipped")
    }

    /// `[lon, lat]` or `[lon, lat, elevation]` within range.
    private func position(_ v: JSONValue?) -> (lat: Double, lon: Double, ele: Float)? {
        guard let a = v?.array, a.count >= 2, let lon = a[0].number, let lat = a[1].number,
              Coordinate(latitude: lat, longitude: lon).isValid else { return nil }
        let ele = a.count >= 3 ? a[2].number.map { Float($0) } ?? .nan : .nan
        return (lat, lon, ele)
    }
}
