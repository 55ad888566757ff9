import FoundationEssentials
import Glibc
import MapCore
import MapGeometry
import Platform

/// Reads a geocoder's answer into search results: Nominatim's `/search?format=jsonv2&
/// addressdetails=1` (a JSON array of places) and Photon's `/api` (a GeoJSON FeatureCollection).
/// The answer comes from a server and is hostile until checked: its size is bounded, at most
/// `maxResults` of its entries are looked at, every coordinate and number is checked before
/// use (a bounding box of 1e308 or NaN is no bounding box), names are cut to `maxNameLength`,
/// and an entry of the wrong shape is skipped. What cannot be read at all throws a
/// `GeocoderError` whose words say so.
public enum GeocoderAnswer {
    /// No answer to a search is larger; a bigger one is refused, not read.
    public static let maxBytes = 2 << 20
    /// Entries looked at, from the top of the answer (a search asks for 10).
    public static let maxResults = 50
    /// Characters kept of a name (and of an area).
    public static let maxNameLength = 200

    /// The places in an answer of a geocoder of `kind`, in the service's order, credited to
    /// `credit`; throws a `GeocoderError` for an answer that is not one.
    public static func read(_ data: Data, kind: GeocoderConfig.Kind, credit: String) throws -> [SearchResult] {
        switch kind {
        case .nominatim: return try nominatim(data, credit: credit)
        case .photon: return try photon(data, credit: credit)
        }
    }

    /// Nominatim's jsonv2 answer: `[{"lat": "60.16", "lon": "24.94", "name": …, "display_name":
    /// …, "category": "shop", "type": "department_store", "addresstype": …, "boundingbox":
    /// [minlat, maxlat, minlon, maxlon], "address": {"road": …, "house_number": …, …}}, …]`
    /// (numbers as strings; the older json format's `class` is read too).
    public static func nominatim(_ data: Data, credit: String) throws -> [SearchResult] {
        let json = try parse(data)
        // /reverse answers one place, not a list of them.
        let one = json.object.map { $0["lat"] != nil } ?? false
        guard let entries = json.array ?? (one ? [json] : nil) else {
            if let message = errorMessage(json) { throw GeocoderError.said(message) }
            throw GeocoderError.notPlaces
        }
        var out: [SearchResult] = []
        for entry in entries.prefix(maxResults) {
            guard let o = entry.object, let lat = number(o["lat"]), let lon = number(o["lon"]) else { continue }
            let at = Coordinate(latitude: lat, longitude: lon)
            guard at.isValid else { continue }
            let key = o["category"]?.string ?? o["class"]?.string ?? ""
            let value = o["type"]?.string ?? ""
            let address = o["address"]?.object ?? [:]
            func part(_ k: String) -> String? { clean(address[k]?.string) }
            func first(_ keys: [String]) -> String? { keys.lazy.compactMap(part).first }
            let houseNumber = part("house_number")
            let ownName = clean(o["name"]?.string)
            let category = OSMTag.category(key: key, value: value, addressType: o["addresstype"]?.string,
                                           named: ownName != nil, hasHouseNumber: houseNumber != nil)
            let street = first(["road", "pedestrian", "footway", "path", "cycleway", "square", "place"])
            let name = ownName ?? (category == .address ? addressName(street, houseNumber) : nil)
                ?? clean(o["display_name"]?.string.map { String($0.prefix { $0 != "," }) })
            guard let name else { continue }
            let places = Places(district: first(["suburb", "quarter", "city_district", "borough", "neighbourhood"]),
                                town: first(["city", "town", "village", "municipality", "hamlet"]),
                                state: part("state"), country: part("country"))
            // [minlat, maxlat, minlon, maxlon]
            out.append(result(name, category, key: key, value: value, places: places, at: at,
                              zoom: zoom(o["boundingbox"]?.array, south: 0, north: 1, west: 2, east: 3), credit: credit, rank: out.count))
        }
        return out
    }

    /// Photon's answer: `{"type": "FeatureCollection", "features": [{"geometry": {"type":
    /// "Point", "coordinates": [lon, lat]}, "properties": {"name": …, "osm_key": …,
    /// "osm_value": …, "type": "house"|"street"|"city"|…, "street": …, "housenumber": …,
    /// "district": …, "city": …, "state": …, "country": …, "extent": [minlon, maxlat, maxlon,
    /// minlat]}}, …]}`.
    public static func photon(_ data: Data, credit: String) throws -> [SearchResult] {
        let json = try parse(data)
        guard let features = json["features"]?.array else {
            if let message = errorMessage(json) { throw GeocoderError.said(message) }
            throw GeocoderError.notPlaces
        }
        var out: [SearchResult] = []
        for feature in features.prefix(maxResults) {
            guard let p = feature["properties"]?.object, let xy = feature["geometry"]?["coordinates"]?.array, xy.count >= 2,
                  let lon = number(xy[0]), let lat = number(xy[1]) else { continue }
            let at = Coordinate(latitude: lat, longitude: lon)
            guard at.isValid else { continue }
            func part(_ k: String) -> String? { clean(p[k]?.string) }
            let key = p["osm_key"]?.string ?? ""
            let value = p["osm_value"]?.string ?? ""
            // House numbers are strings, though some instances have sent numbers.
            let houseNumber = part("housenumber") ?? number(p["housenumber"]).flatMap { $0 >= 0 && $0 < 1e9 ? String(Int(saturating: $0)) : nil }
            let ownName = part("name")
            let category = OSMTag.category(key: key, value: value, addressType: p["type"]?.string,
                                           named: ownName != nil, hasHouseNumber: houseNumber != nil)
            guard let name = ownName ?? addressName(part("street"), houseNumber) else { continue }
            let places = Places(district: part("district") ?? part("locality"), town: part("city"),
                                state: part("state"), country: part("country"))
            // [minlon, maxlat, maxlon, minlat]
            out.append(result(name, category, key: key, value: value, places: places, at: at,
                              zoom: zoom(p["extent"]?.array, south: 3, north: 1, west: 0, east: 2), credit: credit, rank: out.count))
        }
        return out
    }

    /// One place of an answer, whichever service's: what it is in words, where, credited, in
    /// the service's order.
    private static func result(_ name: String, _ category: SearchResult.Category, key: String, value: String, places: Places,
                               at: Coordinate, zoom: Double?, credit: String, rank n: Int) -> SearchResult {
        SearchResult(name: name, category: category, what: OSMTag.what(key: key, value: value, category: category),
                     area: places.area(of: category, named: name), coordinate: at, zoom: zoom, origin: .online(credit: credit), match: rank(n))
    }

    /// The zoom of a box given as four numbers, at these places of the array; nil when it is
    /// not four numbers (or not a box: `zoom(south:north:west:east:)`).
    private static func zoom(_ box: [JSONValue]?, south s: Int, north n: Int, west w: Int, east e: Int) -> Double? {
        guard let box, box.count == 4 else { return nil }
        let b = box.map(number)
        guard let south = b[s], let north = b[n], let west = b[w], let east = b[e] else { return nil }
        return zoom(south: south, north: north, west: west, east: east)
    }

    /// The zoom at which a bounding box fills a view about 1000 pixels across, 3…18; nil for a
    /// box that is not one (out of range, inverted, a point, or across the antimeridian).
    public static func zoom(south: Double, north: Double, west: Double, east: Double) -> Double? {
        guard [south, north, west, east].allSatisfy(\.isFinite), abs(south) <= 90, abs(north) <= 90, abs(west) <= 180,
              abs(east) <= 180, south <= north, west <= east else { return nil }
        let sw = WebMercator.project(Coordinate(latitude: south, longitude: west))
        let ne = WebMercator.project(Coordinate(latitude: north, longitude: east))
        // World units at zoom 0 are pixels; each zoom doubles them.
        let extent = max(ne.x - sw.x, sw.y - ne.y)
        guard extent > 0, extent.isFinite else { return nil }
        return min(max(log2(viewPixels / extent), 3), 18)
    }

    static let viewPixels = 1000.0

    /// The service's own order, kept as the match (1 for its first answer, then a little less).
    static func rank(_ index: Int) -> Double { 1 - Double(index) / 100 }

    /// The JSON of an answer within the size limit, or the error that says what it is not.
    static func parse(_ data: Data) throws -> JSONValue {
        guard data.count <= maxBytes else { throw GeocoderError.tooLarge }
        do { return try JSONValue.parse(data) } catch { throw GeocoderError.notJSON }
    }

    /// A service's error object: Nominatim's `{"error": {"message": …}}` or `{"error": "…"}`,
    /// Photon's `{"message": "…"}`.
    static func errorMessage(_ json: JSONValue) -> String? {
        clean(json["error"]?["message"]?.string ?? json["error"]?.string ?? json["message"]?.string)
    }

    /// A number, or a number written as a string (Nominatim's coordinates), when finite.
    static func number(_ v: JSONValue?) -> Double? {
        switch v {
        case let .number(n)?: return n.isFinite ? n : nil
        case let .string(s)? where s.utf8.count <= 40:
            guard let n = Double(s.trimmed), n.isFinite else { return nil }
            return n
        default: return nil
        }
    }

    /// Text fit for a result row: control characters as spaces, trimmed, at most
    /// `maxNameLength` characters; nil when nothing is left.
    static func clean(_ s: String?) -> String? {
        guard let s else { return nil }
        let line = String(s.prefix(maxNameLength * 2).map { $0.unicodeScalars.contains { $0.properties.generalCategory == .control } ? " " : $0 })
        let t = String(line.trimmed.prefix(maxNameLength))
        return t.isEmpty ? nil : t
    }

    /// "Aleksanterinkatu 52": the street, then the number, as most of Europe writes it.
    static func addressName(_ street: String?, _ number: String?) -> String? {
        guard let street, let number else { return nil }
        return String("\(street) \(number)".prefix(maxNameLength))
    }

    /// The places a result lies in, from its address, for the row's area.
    struct Places {
        var district: String?
        var town: String?
        var state: String?
        var country: String?

        /// What a result named `name` is said to lie in: a settlement its region and country,
        /// a region its country, anything smaller its district and town (else its region and
        /// country). Never the name itself again.
        func area(of category: SearchResult.Category, named name: String) -> String? {
            let wanted: [String?]
            switch category {
            case .country: wanted = []
            case .region: wanted = [country]
            case .city, .town, .village: wanted = [state, country]
            default: wanted = district == nil && town == nil ? [state, country] : [district, town]
            }
            var seen = Set([name.lowercased()])
            let parts = wanted.compactMap { $0 }.filter { seen.insert($0.lowercased()).inserted }
            return parts.isEmpty ? nil : String(parts.joined(separator: ", ").prefix(GeocoderAnswer.maxNameLength))
        }
    }
}
