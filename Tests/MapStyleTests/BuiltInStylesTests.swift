import Foundation
import MapCore
@testable import MapStyle
import MapTiles
import Testing

/// The built-in styles (Resources/styles, written by scripts/make-styles.py): each loads whole,
/// and the Protomaps one draws a thing as the OpenMapTiles one draws the same thing in its own
/// schema: through the same layers, in the same colours and widths.
struct BuiltInStylesTests {
    static func load(_ name: String) throws -> MapStyle {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Resources/styles/\(name).json")
        return try MapStyle(json: Data(contentsOf: url))
    }

    static let names = ["streets", "streets-dark", "protomaps", "protomaps-dark"]

    @Test(arguments: names) func loadsWhole(_ name: String) throws {
        let style = try Self.load(name)
        #expect(style.notices.isEmpty, "\(style.notices)")
        #expect(style.layers.count > 60)
        #expect(style.sprite == "sprite")
        let source = name.hasPrefix("protomaps") ? "protomaps" : "openmaptiles"
        #expect(Array(style.sources.keys) == [source] && style.sources[source]?.type == "vector")
        #expect(style.layers.allSatisfy { $0.type == .background || $0.source == source })
    }

    /// (what, OpenMapTiles source layer and feature, Protomaps source layer and feature): as
    /// the two schemas' tiles of central Helsinki hold them.
    static let pairs: [(String, String, VectorTile.Feature, String, VectorTile.Feature)] = {
        func f(_ type: VectorTile.GeometryType, _ p: [String: VectorTile.Value]) -> VectorTile.Feature { Fixture.feature(type, p) }
        let s = { (v: String) in VectorTile.Value.string(v) }
        return [
            ("motorway", "transportation", f(.lineString, ["class": s("motorway")]), "roads", f(.lineString, ["kind": s("highway"), "kind_detail": s("motorway")])),
            ("trunk link", "transportation", f(.lineString, ["class": s("trunk"), "ramp": .int(1)]),
             "roads", f(.lineString, ["kind": s("major_road"), "kind_detail": s("trunk_link"), "is_link": .bool(true)])),
            ("primary", "transportation", f(.lineString, ["class": s("primary")]), "roads", f(.lineString, ["kind": s("major_road"), "kind_detail": s("primary")])),
            ("secondary", "transportation", f(.lineString, ["class": s("secondary")]), "roads", f(.lineString, ["kind": s("major_road"), "kind_detail": s("secondary")])),
            ("tertiary", "transportation", f(.lineString, ["class": s("tertiary")]), "roads", f(.lineString, ["kind": s("major_road"), "kind_detail": s("tertiary")])),
            ("residential", "transportation", f(.lineString, ["class": s("minor")]), "roads", f(.lineString, ["kind": s("minor_road"), "kind_detail": s("residential")])),
            ("living street", "transportation", f(.lineString, ["class": s("minor")]), "roads", f(.lineString, ["kind": s("other"), "kind_detail": s("living_street")])),
            ("service", "transportation", f(.lineString, ["class": s("service")]), "roads", f(.lineString, ["kind": s("minor_road"), "kind_detail": s("service")])),
            ("track", "transportation", f(.lineString, ["class": s("track")]), "roads", f(.lineString, ["kind": s("path"), "kind_detail": s("track")])),
            ("footway", "transportation", f(.lineString, ["class": s("path"), "subclass": s("footway")]), "roads", f(.lineString, ["kind": s("path"), "kind_detail": s("footway")])),
            ("cycleway", "transportation", f(.lineString, ["class": s("path"), "subclass": s("cycleway")]), "roads", f(.lineString, ["kind": s("path"), "kind_detail": s("cycleway")])),
            ("bridge", "transportation", f(.lineString, ["class": s("primary"), "brunnel": s("bridge")]),
             "roads", f(.lineString, ["kind": s("major_road"), "kind_detail": s("primary"), "is_bridge": .bool(true)])),
            ("tunnel", "transportation", f(.lineString, ["class": s("minor"), "brunnel": s("tunnel")]),
             "roads", f(.lineString, ["kind": s("minor_road"), "kind_detail": s("residential"), "is_tunnel": .bool(true)])),
            ("one-way", "transportation", f(.lineString, ["class": s("secondary"), "oneway": .int(1)]),
             "roads", f(.lineString, ["kind": s("major_road"), "kind_detail": s("secondary"), "oneway": s("yes")])),
            ("rail", "transportation", f(.lineString, ["class": s("rail")]), "roads", f(.lineString, ["kind": s("rail"), "kind_detail": s("rail")])),
            ("tram", "transportation", f(.lineString, ["class": s("transit")]), "roads", f(.lineString, ["kind": s("rail"), "kind_detail": s("tram")])),
            ("ferry", "transportation", f(.lineString, ["class": s("ferry")]), "roads", f(.lineString, ["kind": s("ferry")])),
            ("sea", "water", f(.polygon, ["class": s("ocean")]), "water", f(.polygon, ["kind": s("ocean")])),
            ("river", "waterway", f(.lineString, ["class": s("river"), "name": s("Vantaa")]), "water", f(.lineString, ["kind": s("river"), "name": s("Vantaa")])),
            ("city park", "landcover", f(.polygon, ["class": s("grass"), "subclass": s("park")]), "landuse", f(.polygon, ["kind": s("park")])),
            ("wood", "landcover", f(.polygon, ["class": s("wood")]), "landuse", f(.polygon, ["kind": s("forest")])),
            ("residential area", "landuse", f(.polygon, ["class": s("residential")]), "landuse", f(.polygon, ["kind": s("residential")])),
            ("hospital", "landuse", f(.polygon, ["class": s("hospital")]), "landuse", f(.polygon, ["kind": s("hospital")])),
            ("building", "building", f(.polygon, [:]), "buildings", f(.polygon, ["kind": s("building")])),
            ("house number", "housenumber", f(.point, ["housenumber": s("52")]), "buildings", f(.point, ["kind": s("address"), "addr_housenumber": s("52")])),
            ("city", "place", f(.point, ["class": s("city"), "name": s("Helsinki")]),
             "places", f(.point, ["kind": s("locality"), "kind_detail": s("city"), "name": s("Helsinki"), "population_rank": .int(11)])),
            ("suburb", "place", f(.point, ["class": s("suburb"), "name": s("Kluuvi")]),
             "places", f(.point, ["kind": s("neighbourhood"), "kind_detail": s("suburb"), "name": s("Kluuvi")])),
            ("neighbourhood", "place", f(.point, ["class": s("neighbourhood"), "name": s("Keskusta")]),
             "places", f(.point, ["kind": s("neighbourhood"), "kind_detail": s("neighbourhood"), "name": s("Keskusta")])),
            ("hospital's name", "poi", f(.point, ["class": s("hospital"), "rank": .int(1), "name": s("Lastenklinikka")]),
             "pois", f(.point, ["kind": s("hospital"), "min_zoom": .int(13), "name": s("Lastenklinikka")])),
            ("café", "poi", f(.point, ["class": s("cafe"), "rank": .int(25), "name": s("Cafe Engel")]),
             "pois", f(.point, ["kind": s("cafe"), "min_zoom": .int(16), "name": s("Cafe Engel")])),
            ("street name", "transportation_name", f(.lineString, ["class": s("secondary"), "name": s("Kaivokatu")]),
             "roads", f(.lineString, ["kind": s("major_road"), "kind_detail": s("secondary"), "name": s("Kaivokatu")])),
            ("country border", "boundary", f(.lineString, ["admin_level": .int(2)]), "boundaries", f(.lineString, ["kind": s("country"), "kind_detail": .int(2)])),
        ]
    }()

    /// Each thing goes through the layers of the same ids in both styles, light and dark, at
    /// every zoom from far to near, and is painted alike there.
    @Test(arguments: [("streets", "protomaps"), ("streets-dark", "protomaps-dark")])
    func protomapsDrawsAsOpenMapTilesDoes(omtName: String, pmName: String) throws {
        let omt = try Self.load(omtName), pm = try Self.load(pmName)
        var compared = 0
        for (what, omtLayer, omtFeature, pmLayer, pmFeature) in Self.pairs {
            for zoom in [8.0, 12, 14, 15, 16, 17, 19] {
                func through(_ style: MapStyle, _ layer: String, _ f: VectorTile.Feature) -> [StyleLayer] {
                    style.layers(in: layer).filter { $0.isShown(atZoom: zoom) && $0.matches(Fixture.context(zoom, f)) }
                }
                // (Protomaps keeps a road's name on the road: its label layers are compared
                // with those of OpenMapTiles' transportation_name, its lines with transportation's.)
                let omtIDs = Set(omt.layers(in: omtLayer).map(\.id))
                let a = through(omt, omtLayer, omtFeature), b = through(pm, pmLayer, pmFeature).filter { omtIDs.contains($0.id) }
                #expect(a.map(\.id) == b.map(\.id), "\(what) at z\(zoom)")
                for (l, m) in zip(a, b) where l.id == m.id {
                    compared += 1
                    let c = Fixture.context(zoom, omtFeature), d = Fixture.context(zoom, pmFeature)
                    for p in ["line-color", "fill-color", "text-color"] { #expect(l.color(p, c) == m.color(p, d), "\(what) \(l.id) \(p) z\(zoom)") }
                    for p in ["line-width", "text-size"] { #expect(l.number(p, c) == m.number(p, d), "\(what) \(l.id) \(p) z\(zoom)") }
                    #expect(l.text(c) == m.text(d), "\(what) \(l.id) z\(zoom)")
                }
            }
        }
        #expect(compared > 250, "\(compared)")
        // And they are drawn at all: the primary road from z8 on, the café's name at z17.
        #expect(pm.layers(in: "roads").contains { $0.id == "road-primary" && $0.isShown(atZoom: 8) && $0.matches(Fixture.context(8, Self.pairs[2].4)) })
        #expect(pm.layers(in: "pois").contains { $0.id == "poi-more" && $0.isShown(atZoom: 17) && $0.matches(Fixture.context(17, Self.pairs[29].4)) })
    }

    /// Every name label of the Protomaps style reads a name, so the reader's language is
    /// put in at load (LabelLanguage).
    @Test func protomapsLabelsAreInTheReadersLanguage() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Resources/styles/protomaps.json")
        let style = try MapStyle(json: Data(contentsOf: url), labels: LabelLanguage(mode: .mine, languages: ["sv"]))
        let kluuvi = Fixture.feature(.point, ["kind": .string("neighbourhood"), "kind_detail": .string("suburb"), "name": .string("Kluuvi"),
                                             "name:sv": .string("Gloet")])
        let suburb = try #require(style.layers.first { $0.id == "place-suburb" })
        #expect(suburb.text(Fixture.context(14, kluuvi)) == "Gloet")
        let named = style.layers.filter { $0.type == .symbol && $0.id != "housenumber" && $0.id != "oneway" }
        #expect(named.count >= 14 && named.allSatisfy { $0.text(Fixture.context(14, kluuvi)) == "Gloet" })
    }
}
