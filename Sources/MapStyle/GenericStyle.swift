import FoundationEssentials
import Platform

/// A style for vector tiles of a schema nobody wrote one for: every layer drawn as what its
/// features are (areas filled, lines stroked, points named), its colour guessed from the
/// layer's name (water, roads, buildings, green…), so that such tiles are never blank. The
/// colours are the built-in street style's.
public enum GenericStyle {
    /// The colours it guesses with, light or dark.
    struct Palette {
        var land, water, green, building, road, roadCase, rail, boundary, other, text, halo: String
    }
    static let light = Palette(land: "#f4f1ea", water: "#a8cde4", green: "#d3e8bf", building: "#dcd4c9", road: "#ffffff",
                               roadCase: "#c9c0b2", rail: "#8f8f95", boundary: "#9a86a8", other: "#e4dfd6", text: "#2e2c34", halo: "#ffffff")
    static let dark = Palette(land: "#1f2227", water: "#15324a", green: "#1f3326", building: "#33363d", road: "#474b53",
                              roadCase: "#1a1c20", rail: "#6d6f76", boundary: "#8b7aa0", other: "#292b30", text: "#e7e5ea", halo: "#15171b")

    enum Kind { case water, green, building, road, rail, boundary, other }

    /// What a layer's name suggests it holds.
    static func kind(of layer: String) -> Kind {
        let n = layer.lowercased()
        func has(_ words: [String]) -> Bool { words.contains { n.contains($0) } }
        if has(["water", "ocean", "sea", "lake", "river", "hydro"]) { return .water }
        if has(["build"]) { return .building }
        if has(["rail", "transit"]) { return .rail }
        if has(["road", "street", "transport", "highway", "path"]) { return .road }
        if has(["bound", "admin", "border"]) { return .boundary }
        if has(["park", "green", "wood", "forest", "landcover", "grass", "veg", "natural"]) { return .green }
        return .other
    }

    /// The style JSON for tiles with `layers` (their order: the first drawn first, as the
    /// tiles list them, water and buildings after the ground they lie on).
    public static func json(layers: [String], dark: Bool) -> Data {
        let p = dark ? Self.dark : Self.light
        let layers = Array(layers.prefix(100))
        let order: [Kind: Int] = [.other: 0, .green: 1, .water: 2, .building: 3, .boundary: 4, .road: 5, .rail: 6]
        let sorted = layers.enumerated().sorted { (order[kind(of: $0.element)]!, $0.offset) < (order[kind(of: $1.element)]!, $1.offset) }.map(\.element)
        func colour(_ k: Kind) -> String {
            switch k {
            case .water: return p.water
            case .green: return p.green
            case .building: return p.building
            case .road: return p.road
            case .rail: return p.rail
            case .boundary: return p.boundary
            case .other: return p.other
            }
        }
        let areas: JSONValue = ["match", ["geometry-type"], ["Polygon", "MultiPolygon"], true, false]
        let lines: JSONValue = ["match", ["geometry-type"], ["LineString", "MultiLineString"], true, false]
        let points: JSONValue = ["match", ["geometry-type"], ["Point", "MultiPoint"], true, false]
        let name: JSONValue = ["coalesce", ["get", "name:latin"], ["get", "name_en"], ["get", "name"]]
        var out: [JSONValue] = [["id": "background", "type": "background", "paint": ["background-color": .string(p.land)]]]
        // Areas, then lines (a road's casing under all fills of roads), then names: each
        // over what the earlier passes drew.
        for (i, l) in sorted.enumerated() {
            let k = kind(of: l)
            out.append(["id": .string("area-\(i)"), "type": "fill", "source": "tiles", "source-layer": .string(l), "filter": areas,
                        "paint": ["fill-color": .string(colour(k)), "fill-opacity": k == .other ? 0.6 : 1]])
        }
        for (i, l) in sorted.enumerated() where kind(of: l) == .road {
            out.append(["id": .string("casing-\(i)"), "type": "line", "source": "tiles", "source-layer": .string(l), "filter": lines,
                        "layout": ["line-join": "round", "line-cap": "round"],
                        "paint": ["line-color": .string(p.roadCase), "line-width": ["interpolate", ["exponential", 1.4], ["zoom"], 10, 1.5, 16, 7, 20, 30]]])
        }
        for (i, l) in sorted.enumerated() {
            let k = kind(of: l)
            let width: JSONValue = k == .road ? ["interpolate", ["exponential", 1.4], ["zoom"], 10, 0.7, 16, 5, 20, 26]
                : k == .water ? ["interpolate", ["linear"], ["zoom"], 8, 0.6, 16, 3] : 1
            var paint: [String: JSONValue] = ["line-color": .string(k == .other ? p.rail : colour(k)), "line-width": width]
            if k == .boundary { paint["line-dasharray"] = [3, 2] }
            out.append(["id": .string("line-\(i)"), "type": "line", "source": "tiles", "source-layer": .string(l), "filter": lines,
                        "layout": ["line-join": "round"], "paint": .object(paint)])
        }
        for (i, l) in sorted.enumerated() {
            let k = kind(of: l)
            out.append(["id": .string("name-\(i)"), "type": "symbol", "source": "tiles", "source-layer": .string(l),
                        "filter": k == .road ? lines : points,
                        "layout": .object(["text-field": name, "text-font": ["Noto Sans Regular"], "text-size": 12, "text-max-width": 8,
                                           "symbol-placement": k == .road ? "line" : "point"]),
                        "paint": ["text-color": .string(p.text), "text-halo-color": .string(p.halo), "text-halo-width": 1.6]])
        }
        let style: JSONValue = ["version": 8, "name": "Meridian generic",
                                "metadata": ["meridian:about": "Drawn for tiles of a schema Meridian has no style for: layers guessed from their names"],
                                "sources": ["tiles": ["type": "vector"]], "layers": .array(out)]
        return (try? JSONEncoder().encode(style)) ?? Data()
    }
}
