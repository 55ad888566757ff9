import FoundationEssentials
import MapCore
import MapGeometry
import Platform

/// Reads KML: each Placemark's LineString (a track), Polygon (an area, with holes), Point
/// (a named point) and gx:Track (a track with times), also inside MultiGeometry, with the
/// line and fill colours of its Style (inline, or shared by `styleUrl`). KML files are small
/// next to GPX logs, so libxml2's streaming reader serves (no DTD, no network). Bad
/// coordinates are skipped and reported with their line.
public struct KMLReader {
    let file: String

    public init(file: String) { self.file = file }

    struct Style { var line: Color?; var width: Double?; var fill: Color? }

    public func read(_ data: Data) throws -> GeoDocument {
        var doc = GeoDocument()
        let xml: XMLStreamReader
        do { xml = try XMLStreamReader(data: data, name: file) } catch let e as XMLReadError {
            throw GeoFileError(file: file, line: e.line, reason: e.reason)
        }
        var stack: [String] = []
        var text = ""
        var sawKML = false
        var styles: [String: Style] = [:]
        var styleID: String?, style = Style()
        // The placemark being read.
        var name: String?, styleURL: String?
        var lines: [[(Double, Double, Float, Double)]] = [], rings: [[Coordinate]] = [], areas: [[[Coordinate]]] = [], points: [(Double, Double, Float)] = []
        var whens: [Double] = [], coords: [(Double, Double, Float)] = []
        do {
            while try xml.next() {
                switch xml.node {
                case .element:
                    let n = xml.localName
                    if n == "kml" { sawKML = true }
                    if n == "Style" { styleID = xml.attribute("id"); style = Style() }
                    if n == "Placemark" { name = nil; styleURL = nil; style = Style(); lines = []; areas = []; points = [] }
                    if n == "Polygon" { rings = [] }
                    if n == "Track" { whens = []; coords = [] }
                    text = ""
                    if !xml.isEmptyElement { stack.append(n) }
                case .text:
                    text += xml.value
                case .endElement:
                    let n = stack.popLast() ?? ""
                    let parent = stack.last ?? ""
                    let value = text.trimmed
                    text = ""
                    switch n {
                    case "name" where parent == "Placemark": name = value
                    case "styleUrl": styleURL = value.hasPrefix("#") ? String(value.dropFirst()) : value
                    case "color" where parent == "LineStyle": style.line = Self.kmlColor(value)
                    case "width" where parent == "LineStyle": style.width = Double(value).flatMap { $0.isFinite && $0 > 0 && $0 < 100 ? $0 : nil }
                    case "color" where parent == "PolyStyle": style.fill = Self.kmlColor(value)
                    case "Style":
                        if let id = styleID, !stack.contains("Placemark") { styles[id] = style }
                        styleID = nil
                    case "coordinates":
                        let (tuples, bad) = Self.tuples(value)
                        // TRANSLATORS: %d is how many; lon,lat[,alt] is how KML writes a position.
                        if bad > 0 { problem(&doc, xml.line, trn("%d coordinate(s) that are not lon,lat[,alt] within range skipped", "%d coordinate(s) that are not lon,lat[,alt] within range skipped", bad)) }
                        if parent == "LineString", tuples.count >= 2 {
                            lines.append(tuples.map { ($0.lat, $0.lon, $0.alt, Double.nan) })
                        } else if parent == "LinearRing", tuples.count >= 4 {
                            rings.append(tuples.map { Coordinate(latitude: $0.lat, longitude: $0.lon) })
                        } else if parent == "Point", let t = tuples.first {
                            points.append((t.lat, t.lon, t.alt))
                        }
                    case "when": whens.append(Array(value.utf8).withUnsafeBufferPointer { TextNumbers.time($0) } ?? .nan)
                    case "coord":
                        // gx:coord is "lon lat alt", separated by spaces.
                        let parts = value.split(separator: " ").compactMap { Double($0) }
                        if parts.count >= 2, Coordinate(latitude: parts[1], longitude: parts[0]).isValid {
                            coords.append((parts[1], parts[0], parts.count > 2 ? Float(parts[2]) : .nan))
                        } else {
                            // TRANSLATORS: gx:coord is a KML element; %@ is its text.
                            problem(&doc, xml.line, tr("gx:coord \"%@\" skipped", value))
                        }
                    case "Track":
                        if coords.count >= 2 {
                            lines.append(coords.enumerated().map { (k, c) in (c.0, c.1, c.2, k < whens.count ? whens[k] : .nan) })
                        }
                    case "Polygon":
                        if rings.isEmpty { problem(&doc, xml.line, tr("a Polygon without a ring of four or more positions skipped")) } else { areas.append(rings) }
                    case "Placemark":
                        let s = styleURL.flatMap { styles[$0] }
                        let line = style.line ?? s?.line, width = style.width ?? s?.width, fill = style.fill ?? s?.fill
                        if !lines.isEmpty {
                            var track = Track(kind: .route, name: name, color: line)
                            track.width = width
                            for l in lines {
                                let start = track.points.count
                                for p in l { track.points.append(latitude: p.0, longitude: p.1, elevation: p.2, time: p.3) }
                                track.segments.append(start..<track.points.count)
                            }
                            doc.tracks.append(track)
                        }
                        for a in areas { doc.areas.append(Area(rings: a, name: name, fill: fill, stroke: line, strokeWidth: width)) }
                        for p in points { doc.waypoints.append(Waypoint(latitude: p.0, longitude: p.1, name: name, elevation: p.2)) }
                    default: break
                    }
                case .other: break
                }
            }
        } catch let e as XMLReadError {
            throw GeoFileError(file: file, line: e.line, reason: e.reason)
        }
        guard sawKML else { throw GeoFileError(file: file, line: 1, reason: tr("not a KML document (no <kml> element)")) }
        return doc
    }

    private func problem(_ doc: inout GeoDocument, _ line: Int, _ reason: String) {
        if doc.problems.count < 1000 { doc.problems.append(GeoFileError(file: file, line: line, reason: reason)) }
    }

    /// `lon,lat[,alt]` tuples separated by white space; how many were not such tuples.
    static func tuples(_ s: String) -> ([(lon: Double, lat: Double, alt: Float)], Int) {
        var out: [(lon: Double, lat: Double, alt: Float)] = [], bad = 0
        for t in s.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r\n" || $0 == "\r" }) {
            let parts = t.split(separator: ",", omittingEmptySubsequences: false)
            guard parts.count >= 2, let lon = Double(parts[0]), let lat = Double(parts[1]),
                  Coordinate(latitude: lat, longitude: lon).isValid else { bad += 1; continue }
            out.append((lon, lat, parts.count > 2 ? Double(parts[2]).map { Float($0) } ?? .nan : .nan))
        }
        return (out, bad)
    }

    /// KML colours are `aabbggrr`.
    static func kmlColor(_ s: String) -> Color? {
        guard s.count == 8, let v = UInt32(s, radix: 16) else { return nil }
        return Color(r: Double(v & 0xFF) / 255, g: Double((v >> 8) & 0xFF) / 255, b: Double((v >> 16) & 0xFF) / 255, a: Double(v >> 24) / 255)
    }
}
