import MapCore
import Platform

/// What an OpenStreetMap object is, from its main tag as geocoders report it (Nominatim's
/// `category`/`type`, Photon's `osm_key`/`osm_value`): the search's category, and the words
/// a result row says ("café", "railway station").
enum OSMTag {
    /// `addressType`: Nominatim's `addresstype` or Photon's `type` (its layer), which is what
    /// says whether an administrative boundary is a city or a country. `named`: the object has
    /// a name of its own; a nameless one with a house number is an address.
    static func category(key: String, value: String, addressType: String?, named: Bool, hasHouseNumber: Bool) -> SearchResult.Category {
        if hasHouseNumber && !named { return .address }
        switch key {
        case "place":
            if value == "house" { return .address }
            return settlement(value) ?? .other
        case "boundary":
            if value == "administrative" { return addressType.flatMap(settlement) ?? .region }
            if value == "national_park" || value == "protected_area" { return .park }
            return .other
        case "highway":
            return streetless.contains(value) ? .poi : .street
        case "railway":
            return ["station", "halt", "tram_stop"].contains(value) ? .station : .poi
        case "public_transport":
            return value == "station" ? .station : .poi
        case "amenity":
            return ["bus_station", "ferry_terminal"].contains(value) ? .station : .poi
        case "aeroway":
            return value == "aerodrome" || value == "airport" ? .airport : .poi
        case "natural":
            if value == "peak" || value == "volcano" { return .peak }
            if ["water", "bay", "strait"].contains(value) { return .water }
            return .other
        case "waterway", "water":
            return .water
        case "leisure":
            return ["park", "garden", "nature_reserve"].contains(value) ? .park : .poi
        case "landuse":
            return .other
        default:
            return .poi
        }
    }

    /// Things on a street that are not the street.
    private static let streetless: Set<String> = ["bus_stop", "platform", "motorway_junction", "traffic_signals", "crossing", "elevator", "street_lamp"]

    /// A populated place or administrative area by its place= value (or Nominatim's address
    /// type, or Photon's layer, which use the same words).
    static func settlement(_ value: String) -> SearchResult.Category? {
        switch value {
        case "country": return .country
        case "state", "region", "province", "state_district", "county": return .region
        case "city": return .city
        case "town", "municipality": return .town
        case "village", "hamlet", "isolated_dwelling", "farm": return .village
        case "suburb", "quarter", "borough", "city_district", "district": return .suburb
        case "neighbourhood", "city_block", "locality": return .neighbourhood
        default: return nil
        }
    }

    /// A result row's "what": the words of a small table, else the category's own word for
    /// places and streets, else the tag's value with underscores as spaces.
    static func what(key: String, value: String, category: SearchResult.Category) -> String {
        let words = tagWords(key: key, value: value, category: category)
        // A value of spaces or control characters (from a server) says nothing.
        let shown = String(words.map { $0.unicodeScalars.contains { $0.properties.generalCategory == .control } ? " " : $0 }).trimmed
        return shown.isEmpty ? category.word : shown
    }

    private static func tagWords(key: String, value: String, category: SearchResult.Category) -> String {
        if category == .address { return category.word }
        if let words = words[key + "=" + value] { return words }
        switch key {
        case "place":
            // A hamlet or an island says so; a city or a suburb says its category's word.
            return settlement(value) != nil && !["hamlet", "isolated_dwelling", "farm", "locality"].contains(value)
                ? category.word : spaced(value)
        case "boundary" where value == "administrative":
            return category.word
        case "highway" where category == .street:
            return "street"
        case "building":
            // Its use (retail, office) says less than that it is a building.
            return "building"
        default:
            return value.isEmpty || value == "yes" ? spaced(key) : spaced(value)
        }
    }

    /// Where plain words differ from the tag's value.
    private static let words: [String: String] = [
        "amenity=cafe": "café", "amenity=fuel": "petrol station", "amenity=townhall": "town hall",
        "amenity=place_of_worship": "place of worship", "amenity=ice_cream": "ice cream parlour",
        "amenity=parking": "car park", "amenity=bus_station": "bus station", "amenity=ferry_terminal": "ferry terminal",
        "railway=station": "railway station", "railway=halt": "railway stop", "railway=tram_stop": "tram stop",
        "railway=subway_entrance": "metro entrance", "public_transport=station": "station",
        "aeroway=aerodrome": "airport", "aeroway=airport": "airport",
        "shop=mall": "shopping centre", "shop=convenience": "convenience store", "shop=department_store": "department store",
        "tourism=attraction": "sight", "tourism=information": "tourist information", "tourism=museum": "museum",
        "highway=bus_stop": "bus stop", "highway=footway": "footpath", "highway=cycleway": "cycle path",
        "highway=pedestrian": "pedestrian street", "highway=motorway": "motorway", "highway=trunk": "main road",
        "highway=primary": "main road", "highway=path": "path", "highway=track": "track", "highway=steps": "steps",
        "highway=motorway_junction": "motorway junction",
        "natural=water": "water", "natural=peak": "peak", "waterway=river": "river", "waterway=stream": "stream",
        "boundary=national_park": "national park", "boundary=protected_area": "protected area",
        "leisure=park": "park", "leisure=nature_reserve": "nature reserve",
    ]

    /// A tag value as words: underscores as spaces ("department_store" → "department store").
    static func spaced(_ s: String) -> String {
        String(s.prefix(60).map { $0 == "_" ? " " : $0 })
    }
}
