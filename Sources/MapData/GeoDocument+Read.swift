import FoundationEssentials
import Glibc
import Platform
import MapCore
import MapGeometry

extension GeoDocument {
    /// Reads a GPX, KML, GeoJSON, CSV, FIT or TCX file, told apart by its extension (and, for
    /// an unknown one, by its first bytes: FIT's header, TCX's root, XML). Bad points are skipped into `problems`;
    /// a file that cannot be read or parsed at all throws, naming the file and line.
    /// `progress` counts the bytes read (GPX) and stops the reading when cancelled.
    public static func read(_ url: URL, progress: Progress? = nil) throws -> GeoDocument {
        let data: Data
        do { data = try FileIO.readOrMap(url.path) } catch let e as FileReadError {
            // TRANSLATORS: after a file's name; %@ is the system's reason ("Permission denied").
            throw GeoFileError(file: url.path, line: nil, reason: tr("cannot be read (%@)", e.reason))
        }
        var doc = try parse(data, url: url, progress: progress)
        if FileIO.changedWhileMapped(data) {
            // TRANSLATORS: after a file's name.
            doc.problems.insert(GeoFileError(file: url.path, line: nil, reason: tr("changed while it was read (cut short by another program?); what was read is shown")), at: 0)
        }
        return doc
    }

    private static func parse(_ data: Data, url: URL, progress: Progress?) throws -> GeoDocument {
        let ext = url.pathExtension.lowercased()
        let looksXML = data.prefix(64).contains(UInt8(ascii: "<"))
        if ext == "csv" || ext == "tsv" { return try CSVTrackReader(file: url.path).read(data) }
        if ext == "kml" { return try KMLReader(file: url.path).read(data) }
        // Other names are told by their first bytes: FIT's header, TCX's root element.
        let named = ["gpx", "geojson", "json"].contains(ext)
        if ext == "fit" || (!named && FITReader.looksLikeFIT(data)) { return try FITReader(file: url.path).read(data) }
        if ext == "tcx" || (!named && looksXML && TCXReader.looksLikeTCX(data)) { return try TCXReader(file: url.path).read(data) }
        if ext == "gpx" || (ext != "geojson" && ext != "json" && looksXML) { return try GPXReader(file: url.path, progress: progress).read(data) }
        return try GeoJSONReader(file: url.path).read(data)
    }

    // TRANSLATORS: after a file's name ("walk.gpx: holds no points").
    public static func noPoints(_ url: URL) -> GeoFileError { GeoFileError(file: url.path, line: nil, reason: tr("holds no points")) }
}

extension TrackFile {
    /// Reads a file into what the map shows: lines projected with their importance (the
    /// costly part, on the caller's thread, never the frame's), shapes, waypoints. Lines
    /// and shapes that name no colour take `color`. Throws when the file holds nothing
    /// usable; what was skipped is in `problems`.
    public static func read(_ url: URL, color: Color, progress: Progress? = nil) throws -> (file: TrackFile, problems: [GeoFileError]) {
        let doc = try GeoDocument.read(url, progress: progress)
        if progress?.isCancelled == true { throw CancelledError() }
        let lines = doc.tracks.filter { $0.points.count >= 1 }.map { t in
            TrackLine(track: t, geometry: TrackGeometry(t), style: TrackStyle(color: t.color ?? color, width: t.width ?? 4))
        }
        let areas = doc.areas.filter { !$0.rings.isEmpty }.map { a in
            let stroke = a.stroke ?? a.fill?.withAlpha(1) ?? color
            return AreaShape(area: a, geometry: AreaGeometry(a), fill: a.fill ?? color.withAlpha(0.22),
                             stroke: TrackStyle(color: stroke, width: a.strokeWidth ?? 2, casingWidth: 0))
        }
        let file = TrackFile(path: url.path, lines: lines, areas: areas, waypoints: doc.waypoints, color: color)
        guard file.bounds != nil else { throw doc.problems.first ?? GeoDocument.noPoints(url) }
        return (file, doc.problems)
    }
}
