import MapCore
import MapTiles
import Platform

/// The names of a tile of Protomaps' basemap, version 4 (protomaps/basemaps, built by
/// Planetiler): street pieces from `roads`, places from `places`, points of interest and peaks
/// from `pois`, house numbers from `buildings` (`addr_housenumber`, which carries no street
/// at z15: the index joins it to the nearest one, as it does OpenMapTiles'), water names from
/// `water` and islands from `earth`. Kinds become the words the OpenMapTiles reading gives,
/// so that a map's rows read alike in either schema.
extension TileNames {
    mutating func readProtomaps(_ layer: VectorTile.Layer, _ frame: Frame) {
        switch layer.name {
        case "roads":
            for f in layer.features where f.type == .lineString {
                guard let names = Self.names(f.properties),
                      let kind = Self.roadClass(kind: Self.text(f.properties["kind"]) ?? "", detail: Self.text(f.properties["kind_detail"]) ?? "")
                else { continue }
                addSegments(f, names: names, kind: kind, frame)
            }
        case "buildings":
            for f in layer.features {
                guard let number = Self.text(f.properties["addr_housenumber"]) else { continue }
                addHouseNumber(f, number: number, frame)
            }
        case "places", "pois", "water", "earth":
            for f in layer.features {
                guard let names = Self.names(f.properties), let kind = Self.protomapsKind(layer: layer.name, f.properties) else { continue }
                addPoint(f, names: names, category: kind.0, what: kind.1, frame)
            }
        default:
            return
        }
    }

    /// A road's OpenMapTiles class (what `NameFeatures` ranks and names streets by) from its
    /// Protomaps `kind` and `kind_detail` (OSM's highway=, or service=, footway=), as
    /// tilemaker's OpenMapTiles profile classes them; nil for what that profile has no name
    /// of (platforms, runways, cable cars).
    static func roadClass(kind: String, detail: String) -> String? {
        switch kind {
        case "highway": return "motorway"
        case "major_road":
            let base = detail.hasSuffix("_link") ? String(detail.dropLast(5)) : detail
            return ["trunk", "primary", "secondary", "tertiary"].contains(base) ? base : "tertiary"
        case "minor_road":
            switch detail {
            case "residential", "unclassified", "road": return "minor"
            case "raceway": return "raceway"
            default: return "service"
            }
        case "path":
            return ["cycleway", "bridleway", "track"].contains(detail) ? "track" : "path"
        case "other":
            // Highways Protomaps has no kind for: living streets are streets.
            switch detail {
            case "living_street": return "minor"
            case "busway": return "busway"
            default: return nil
            }
        case "rail": return "rail"
        case "ferry": return "ferry"
        default: return nil
        }
    }

    /// What a named point of a Protomaps layer is, nil for none search names (a cliff).
    static func protomapsKind(layer: String, _ p: [String: VectorTile.Value]) -> (SearchResult.Category, String)? {
        let kind = text(p["kind"]) ?? "", detail = text(p["kind_detail"]) ?? ""
        switch layer {
        case "places":
            // kind_detail is OSM's place=, which OpenMapTiles' class is too.
            if !detail.isEmpty { return Self.kind(layer: "place", ["class": .string(detail)]) }
            switch kind {
            case "country": return (.country, "country")
            case "region": return (.region, "region")
            case "locality": return (.town, "town")
            case "macrohood": return (.suburb, "district")
            default: return (.neighbourhood, kind.isEmpty ? "place" : words(kind))
            }
        case "water":
            // kind_detail says which water a natural=water is (lake, river…).
            let word = kind == "water" && !detail.isEmpty ? detail : kind
            return (.water, word.isEmpty ? "water" : words(word))
        case "earth":
            return kind == "island" ? (.other, "island") : nil
        default: // pois
            switch kind {
            case "station": return (.station, "railway station")
            case "bus_station": return (.station, "bus station")
            case "ferry_terminal": return (.station, "ferry terminal")
            case "aerodrome": return (.airport, "airport")
            case "park", "national_park", "nature_reserve", "protected_area": return (.park, words(kind))
            case "peak", "volcano":
                var what = words(kind)
                if let ele = p["elevation"]?.number, ele.isFinite, abs(ele) < 10_000 { what += " · " + metres(ele) }
                return (.peak, what)
            // Any tag's value is a kind: "yes" (shop=yes) says nothing.
            case "", "other", "yes": return (.poi, "place")
            default: return (.poi, words(kind))
            }
        }
    }
}
