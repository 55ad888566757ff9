import FoundationEssentials
import MapCore
import MapGeometry
import Platform

/// Reads a route from CSV: `lat,lon` per line as the original route sample had it, or any
/// table with a header naming its columns (lat/latitude, lon/lng/long/longitude,
/// ele/elevation/alt/altitude, time, name), separated by commas, semicolons or tabs.
/// Without a header, the first two columns are latitude and longitude unless their values
/// say otherwise (a first column beyond ±90 is a longitude). Bad rows are skipped and
/// reported with their line.
public struct CSVTrackReader {
    let file: String

    public init(file: String) { self.file = file }

    public func read(_ data: Data) throws -> GeoDocument {
        var doc = GeoDocument()
        var text = String(decoding: data, as: UTF8.self)
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        // Lines, CRLF or LF, with their numbers; blank lines and # comments skipped.
        var rows: [(line: Int, text: Substring)] = []
        // ("\r\n" is one Character in Swift: split on it as well as on "\n" and "\r".)
        let lines = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }
        for (n, line) in lines.enumerated() {
            if line.allSatisfy({ $0 == " " || $0 == "\t" }) || line.hasPrefix("#") { continue }
            rows.append((n + 1, line))
        }
        // TRANSLATORS: after a file's name ("route.csv: holds no rows").
        guard let first = rows.first else { throw GeoFileError(file: file, line: nil, reason: tr("holds no rows")) }
        let separator = Self.separator(of: rows.prefix(20).map(\.text))
        func cells(_ s: Substring) -> [Substring] {
            s.split(separator: separator, omittingEmptySubsequences: false).map { c in
                var c = c.drop { $0 == " " }
                while c.last == " " { c = c.dropLast() }
                if c.count >= 2, c.first == "\"", c.last == "\"" { c = c.dropFirst().dropLast() }
                return c
            }
        }
        // A header is a first row whose cells are not all numbers.
        var columns = Columns(lat: 0, lon: 1)
        var body = rows[...]
        let head = cells(first.text)
        if head.contains(where: { Double($0) == nil && !$0.isEmpty }) {
            guard let c = Columns(header: head) else {
                // TRANSLATORS: %@ lists the header's column names as the file has them.
                throw GeoFileError(file: file, line: first.line, reason: tr("the header names no latitude and longitude columns (%@)", head.joined(separator: ", ")))
            }
            columns = c
            body = body.dropFirst()
        } else if Self.firstColumnIsLongitude(body.prefix(50).map { cells($0.text) }) {
            columns = Columns(lat: 1, lon: 0)
        }
        var track = Track(kind: .route)
        for row in body {
            let c = cells(row.text)
            guard c.count > max(columns.lat, columns.lon) else {
                // TRANSLATORS: a row of a CSV file; %d is how many columns it has.
                problem(&doc, row.line, trn("row has %d column(s), fewer than the latitude and longitude need skipped", "row has %d column(s), fewer than the latitude and longitude need skipped", c.count)); continue
            }
            guard let lat = Double(c[columns.lat]), let lon = Double(c[columns.lon]), lat.isFinite, lon.isFinite else {
                // TRANSLATORS: a row of a CSV file; %1$@ and %2$@ are its latitude and longitude cells as written.
                problem(&doc, row.line, tr("row latitude or longitude is not a number (%1$@, %2$@) skipped", c[columns.lat], c[columns.lon])); continue
            }
            guard Coordinate(latitude: lat, longitude: lon).isValid else {
                // TRANSLATORS: a row of a CSV file; %1$@ and %2$@ are its latitude and longitude.
                problem(&doc, row.line, tr("row coordinates out of range (lat %1$@, lon %2$@) skipped", lat, lon)); continue
            }
            var ele = Float.nan, time = Double.nan
            if let e = columns.ele, e < c.count, let v = Double(c[e]) { ele = Float(v) }
            if let t = columns.time, t < c.count, let v = Array(c[t].utf8).withUnsafeBufferPointer({ TextNumbers.time($0) }) { time = v }
            if columns.name != nil, track.name == nil, let n = columns.name, n < c.count, !c[n].isEmpty { track.name = String(c[n]) }
            track.points.append(latitude: lat, longitude: lon, elevation: ele, time: time)
        }
        guard track.points.count > 0 else {
            throw doc.problems.first ?? GeoFileError(file: file, line: nil, reason: tr("holds no points"))
        }
        track.segments = [0..<track.points.count]
        doc.tracks = [track]
        return doc
    }

    /// A row skipped, and why (`reason` says it whole: "row … skipped").
    private func problem(_ doc: inout GeoDocument, _ line: Int, _ reason: String) {
        if doc.problems.count < 1000 { doc.problems.append(GeoFileError(file: file, line: line, reason: reason)) }
    }

    /// The separator that splits the sample rows most evenly into two or more cells.
    static func separator(of sample: [Substring]) -> Character {
        var best: (Character, Int) = (",", -1)
        for s in [",", ";", "\t"] as [Character] {
            let counts = sample.map { $0.filter { $0 == s }.count }
            guard let c = counts.first, c > 0 else { continue }
            // Rows that agree with the first one's count.
            let score = counts.filter { $0 == c }.count
            if score > best.1 { best = (s, score) }
        }
        return best.0
    }

    /// Without a header: the first column holds longitudes when some value there is beyond
    /// ±90 while the second column's all fit a latitude.
    static func firstColumnIsLongitude(_ rows: [[Substring]]) -> Bool {
        let pairs = rows.compactMap { c -> (Double, Double)? in
            guard c.count >= 2, let a = Double(c[0]), let b = Double(c[1]) else { return nil }
            return (a, b)
        }
        return pairs.contains { abs($0.0) > 90 } && pairs.allSatisfy { abs($0.1) <= 90 }
    }

    struct Columns {
        var lat: Int, lon: Int
        var ele: Int?, time: Int?, name: Int?

        init(lat: Int, lon: Int) { self.lat = lat; self.lon = lon }

        init?(header: [Substring]) {
            func find(_ names: Set<String>) -> Int? { header.firstIndex { names.contains($0.lowercased()) } }
            guard let lat = find(["lat", "latitude", "y"]), let lon = find(["lon", "lng", "long", "longitude", "x"]) else { return nil }
            self.lat = lat
            self.lon = lon
            ele = find(["ele", "elevation", "alt", "altitude", "height"])
            time = find(["time", "timestamp", "date", "datetime"])
            name = find(["name", "title"])
        }
    }
}
