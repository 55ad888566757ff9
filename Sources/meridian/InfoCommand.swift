import ArgumentParser
import CSQLite
import FoundationEssentials
import Glibc
import MapCore
import MapData
import MapGeometry
import MapTiles
import Platform

/// `meridian info`: what a file holds — a track's numbers as the window's statistics show
/// them, or a tile archive's schema, zooms, bounds, layers and tiles.
struct Info: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: tr("Say what files hold: tracks (points, distance, times, climbing, sensors) or a map archive (schema, zooms, bounds, layers)."),
        discussion: tr("Tracks: GPX, KML, GeoJSON, CSV, FIT and TCX files; the numbers are those the window's statistics show. Map archives: .mbtiles and .pmtiles. Points are those with a position."))

    @Argument(help: ArgumentHelp(tr("The files."), valueName: "FILE"))
    var files: [String]

    @Flag(name: .long, help: ArgumentHelp(tr("Print JSON.")))
    var json = false

    func run() throws {
        guard !files.isEmpty else { throw ValidationError(tr("name at least one file")) }
        var reports: [JSONValue] = []
        var failed = false
        for (k, path) in files.enumerated() {
            do {
                let report = try Self.report(path)
                if json { reports.append(report.json) } else {
                    if k > 0 { print("") }
                    print(Self.text(report, path: path))
                }
            } catch {
                failed = true
                warn("\(error)")
                if json { reports.append(["file": .string(path), "error": .string("\(error)")]) }
            }
        }
        if json {
            let value = files.count == 1 ? reports[0] : .array(reports)
            print(String(decoding: (try? JSONEncoder().encode(value)) ?? Data(), as: UTF8.self))
        }
        if failed { throw ExitCode(1) }
    }

    /// What a file holds: its tracks with their statistics, or an archive's facts.
    struct Report {
        var json: JSONValue
        var tracks: [(Track, TrackStatistics)] = []
        var waypoints = 0, areas = 0
    }

    /// What `path` holds.
    static func report(_ path: String) throws -> Report {
        let lower = path.lowercased()
        if lower.hasSuffix(".mbtiles") || lower.hasSuffix(".pmtiles") { return Report(json: ["file": .string(path), "archive": try archive(path)]) }
        let doc = try GeoDocument.read(URL(fileURLWithPath: path))
        let tracks = doc.tracks.filter { $0.points.count > 0 }.map { ($0, TrackStatistics($0)) }
        guard !tracks.isEmpty || !doc.waypoints.isEmpty || !doc.areas.isEmpty else { throw doc.problems.first ?? GeoDocument.noPoints(URL(fileURLWithPath: path)) }
        var out: [String: JSONValue] = ["file": .string(path), "tracks": .array(tracks.map { track($0.0, $0.1) })]
        if !doc.waypoints.isEmpty { out["waypoints"] = .number(Double(doc.waypoints.count)) }
        if !doc.areas.isEmpty { out["areas"] = .number(Double(doc.areas.count)) }
        if !doc.problems.isEmpty { out["problems"] = .array(doc.problems.prefix(20).map { .string($0.description) }) }
        return Report(json: .object(out), tracks: tracks, waypoints: doc.waypoints.count, areas: doc.areas.count)
    }

    /// A track's numbers, by `TrackStatistics` as the window's callout has them.
    static func track(_ t: Track, _ s: TrackStatistics) -> JSONValue {
        let p = t.points
        func number(_ v: Double?) -> JSONValue { v.map { $0.isFinite ? .number(($0 * 10).rounded() / 10) : .null } ?? .null }
        var south = 90.0, west = 180.0, north = -90.0, east = -180.0
        for i in 0..<p.count {
            south = min(south, p.latitude[i]); north = max(north, p.latitude[i])
            west = min(west, p.longitude[i]); east = max(east, p.longitude[i])
        }
        let start = p.time.first(where: \.isFinite)
        var sensors: [JSONValue] = []
        if p.elevation.contains(where: \.isFinite) { sensors.append("elevation") }
        if p.time.contains(where: \.isFinite) { sensors.append("time") }
        if p.heartRate.contains(where: { $0 > 0 }) { sensors.append("heart_rate") }
        if p.cadence.contains(where: { $0 > 0 }) { sensors.append("cadence") }
        if p.power.contains(where: { $0 > 0 }) { sensors.append("power") }
        if p.temperature.contains(where: \.isFinite) { sensors.append("temperature") }
        return [
            "name": t.name.map { .string($0) } ?? .null,
            "points": .number(Double(p.count)),
            "distance_m": number(s.distance),
            "duration_s": number(s.duration), "moving_s": number(s.movingTime),
            "ascent_m": number(s.ascent), "descent_m": number(s.descent),
            "bounds": [.number(west), .number(south), .number(east), .number(north)],
            "start": start.flatMap(GPXWriter.timestamp).map { .string($0) } ?? .null,
            "sensors": .array(sensors),
        ]
    }

    /// A tile archive's schema, zooms, bounds, layers and tile count.
    static func archive(_ path: String) throws -> JSONValue {
        var out: [String: JSONValue] = [:]
        var layers: [String] = [], schema: TileSchema?
        if path.lowercased().hasSuffix(".pmtiles") {
            let s = try PMTilesSource(path: path)
            let h = s.archive.header
            out["format"] = .string("\(h.tileType)")
            out["zooms"] = [.number(Double(h.minZoom)), .number(Double(h.maxZoom))]
            out["bounds"] = .array([h.minLonE7, h.minLatE7, h.maxLonE7, h.maxLatE7].map { .number(Double($0) / 1e7) })
            out["tiles"] = .number(Double(h.addressedTiles))
            out["attribution"] = .string(s.attribution)
            layers = s.vectorLayers
            schema = s.schema
        } else {
            let s = try MBTilesSource(path: path)
            out["format"] = .string(s.metadata["format"] ?? "")
            out["zooms"] = [.number(Double(s.dataZoomRange.lowerBound)), .number(Double(s.dataZoomRange.upperBound))]
            let b = (s.metadata["bounds"] ?? "").split(separator: ",").compactMap { Double(String($0.filter { $0 != " " })) }
            out["bounds"] = b.count == 4 && b.allSatisfy { $0.isFinite } ? JSONValue.array(b.map { JSONValue.number($0) }) : JSONValue.null
            let count = try? s.database.rows("SELECT count(*) FROM tiles", [], { Double(sqlite3_column_int64($0, 0)) }).first
            out["tiles"] = count.map { .number($0) } ?? .null
            out["attribution"] = .string(s.attribution)
            layers = s.vectorLayers
            schema = s.schema
        }
        if case let .unknown(seen)? = schema, layers.isEmpty { layers = seen }
        out["schema"] = schema.map { s -> JSONValue in
            switch s {
            case .openMapTiles: return "openmaptiles"
            case .protomaps: return "protomaps"
            case .basemap: return "meridian-basemap"
            case .unknown: return "unknown"
            }
        } ?? .null
        out["layers"] = .array(layers.map { .string($0) })
        return .object(out)
    }

    /// The report as lines for a reader.
    static func text(_ report: Report, path: String) -> String {
        guard case let .object(o) = report.json else { return path }
        var lines = [path]
        if case let .object(a)? = o["archive"] {
            // TRANSLATORS: a map archive's schema (OpenMapTiles, Protomaps, unknown) and its tiles' format (mvt, png).
            lines.append("  " + tr("schema: %1$@, tiles: %2$@", a["schema"]?.string ?? "–", a["format"]?.string ?? "–"))
            if case let .array(z)? = a["zooms"], z.count == 2 {
                // TRANSLATORS: the zoom levels an archive holds, lowest and highest.
                lines.append("  " + tr("zooms %1$@–%2$@", z[0].number.map { Int(saturating: $0) } ?? 0, z[1].number.map { Int(saturating: $0) } ?? 0))
            }
            if let n = a["tiles"]?.number {
                // TRANSLATORS: how many tiles an archive holds.
                lines.append("  " + trn("%d tile", "%d tiles", Int(saturating: n)))
            }
            if case let .array(b)? = a["bounds"], b.count == 4 {
                // TRANSLATORS: the bounds of a file's data in degrees: west, south, east, north.
                lines.append("  " + tr("bounds (W, S, E, N): %@", b.map { String(cFormat: "%.5f", $0.number ?? 0) }.joined(separator: ", ")))
            }
            if case let .array(l)? = a["layers"], !l.isEmpty {
                // TRANSLATORS: the names of a vector archive's layers follow.
                lines.append("  " + tr("layers: %@", l.compactMap(\.string).joined(separator: ", ")))
            }
            if let credit = a["attribution"]?.string, !credit.isEmpty { lines.append("  " + credit) }
            return lines.joined(separator: "\n")
        }
        for (k, (track, stats)) in report.tracks.enumerated() {
            guard case let .array(all)? = o["tracks"], case let .object(t) = all[k] else { continue }
            // TRANSLATORS: a track's name and how many points it has ("Cycling: 3,612 points").
            lines.append("  " + tr("%1$@: %2$@", track.name ?? tr("Track"), trn("%d point", "%d points", track.points.count)))
            for line in stats.summary(imperial: false) { lines.append("    " + line) }
            // TRANSLATORS: when a track started (a UTC time, 2026-05-01T08:00:00Z).
            if let start = t["start"]?.string { lines.append("    " + tr("started %@", start)) }
            if case let .array(s)? = t["sensors"], !s.isEmpty {
                // TRANSLATORS: what a track's points carry besides positions; a list follows (heart rate, cadence…).
                lines.append("    " + tr("with: %@", s.compactMap(\.string).map(sensorWord).joined(separator: ", ")))
            }
        }
        if report.waypoints > 0 { lines.append("  " + trn("%d waypoint", "%d waypoints", report.waypoints)) }
        if report.areas > 0 { lines.append("  " + trn("%d shape", "%d shapes", report.areas)) }
        return lines.joined(separator: "\n")
    }

    static func sensorWord(_ key: String) -> String {
        switch key {
        case "elevation": return trc("track sensor", "elevation")
        case "time": return trc("track sensor", "time")
        case "heart_rate": return trc("track sensor", "heart rate")
        case "cadence": return trc("track sensor", "cadence")
        case "power": return trc("track sensor", "power")
        case "temperature": return trc("track sensor", "temperature")
        default: return key
        }
    }
}
