import Foundation
import MapCore
@testable import MapStyle
import MapTiles
import Testing

/// Third-party styles as published (Tests/Fixtures/styles, see its README), evaluated over
/// OpenMapTiles features as a tile of Hamburg would hold them.
struct RealStylesTests {
    static func load(_ name: String) throws -> MapStyle {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/styles/\(name).json")
        return try MapStyle(json: Data(contentsOf: url))
    }

    /// (source layer, feature)
    static let features: [(String, VectorTile.Feature)] = [
        ("transportation", Fixture.feature(.lineString, id: 1, ["class": .string("motorway"), "name": .string("A 7"),
                                                                 "ref": .string("A 7"), "ref_length": .int(3), "oneway": .int(1)])),
        ("transportation", Fixture.feature(.lineString, id: 2, ["class": .string("minor"), "subclass": .string("residential"),
                                                                 "name": .string("Hauptstraße")])),
        ("transportation_name", Fixture.feature(.lineString, ["class": .string("motorway"), "name": .string("A 7"), "ref": .string("A 7"),
                                                              "ref_length": .int(3), "network": .string("de-motorway")])),
        ("water", Fixture.feature(.polygon, ["class": .string("lake")])),
        ("building", Fixture.feature(.polygon, ["render_height": .double(20), "render_min_height": .int(0)])),
        ("place", Fixture.feature(.point, id: 9, ["class": .string("city"), "name": .string("Hamburg"), "name:latin": .string("Hamburg"),
                                                  "name_en": .string("Hamburg"), "rank": .int(5), "capital": .int(4)])),
    ]

    static let zooms: [Double] = [5, 10, 14, 18]

    static let styles: [(file: String, motorway: String, city: String, water: String, skipped: [String])] = [
        ("osm-bright", "highway-motorway", "place-city", "water", []),
        ("positron", "highway_motorway_inner", "place_city", "water", []),
        // (Its raster layer, Natural Earth's shaded relief, is drawn from its raster source.)
        ("liberty", "road_motorway", "label_city", "water", []),
    ]

    @Test(arguments: styles.indices) func parsesWhole(_ i: Int) throws {
        let entry = Self.styles[i]
        let style = try Self.load(entry.file)
        #expect(style.notices == entry.skipped)
        if entry.file == "liberty" {
            #expect(style.layers.contains { $0.type == .raster && $0.source == "ne2_shaded" })
            #expect(Array(style.pictureSources.keys) == ["ne2_shaded"] && style.sources["ne2_shaded"]?.tileSize == 256)
        }
        #expect(style.layers.count > 40)
        #expect(style.sources["openmaptiles"]?.type == "vector")
        #expect(style.glyphs != nil && style.sprite != nil)
    }

    @Test(arguments: styles.indices) func featuresPassTheirLayers(_ i: Int) throws {
        let entry = Self.styles[i]
        let style = try Self.load(entry.file)
        func passing(_ f: Int, zoom: Double) -> [String] {
            let (sourceLayer, feature) = Self.features[f]
            return style.layers(in: sourceLayer).filter { $0.isShown(atZoom: zoom) && $0.matches(Fixture.context(zoom, feature)) }.map(\.id)
        }
        #expect(passing(0, zoom: 10).contains(entry.motorway))
        #expect(!passing(1, zoom: 14).contains(entry.motorway))
        #expect(passing(3, zoom: 10).contains(entry.water))
        #expect(passing(5, zoom: 10).contains(entry.city))
        #expect(!passing(1, zoom: 16).isEmpty, "the residential street is drawn at z16")
        #expect(!passing(4, zoom: 16).isEmpty, "the building is drawn at z16")
        let city = try #require(style.layers.first { $0.id == entry.city })
        let hamburg = Fixture.context(10, Self.features[5].1)
        #expect(city.text(hamburg)?.hasPrefix("Hamburg") == true)
        #expect(city.number("text-size", hamburg) > 5)
        #expect(city.strings("text-font", hamburg)?.isEmpty == false)
        let motorway = try #require(style.layers.first { $0.id == entry.motorway })
        #expect(motorway.number("line-width", Fixture.context(14, Self.features[0].1)) > 2)
        #expect(motorway.color("line-color", Fixture.context(14, Self.features[0].1)) != nil)
    }

    /// Every property of every layer, at four zooms, over every feature: sane values.
    @Test(arguments: styles.indices) func everyPropertyEvaluatesSanely(_ i: Int) throws {
        let style = try Self.load(Self.styles[i].file)
        var evaluated = 0
        for layer in style.layers {
            for zoom in Self.zooms {
                for (_, feature) in Self.features {
                    let ctx = Fixture.context(zoom, feature)
                    _ = layer.matches(ctx)
                    for name in layer.paint.keys.sorted() + layer.layout.keys.sorted() {
                        evaluated += 1
                        guard let spec = PropertySpec.lookup(layer.type, name) else {
                            Issue.record("\(layer.id): \(name) is not a known property")
                            continue
                        }
                        let place = "\(Self.styles[i].file) \(layer.id).\(name) at z\(zoom)"
                        switch spec.kind {
                        case .number, .padding:
                            let v = layer.number(name, ctx)
                            #expect(v.isFinite, "\(place)")
                            if spec.range?.lowerBound == 0 { #expect(v >= 0, "\(place)") }
                        case .color: #expect(layer.color(name, ctx) != nil, "\(place)")
                        case .numbers: #expect(layer.numbers(name, ctx)?.allSatisfy(\.isFinite) == true, "\(place)")
                        case .strings: #expect(layer.strings(name, ctx)?.isEmpty == false, "\(place)")
                        case .boolean: _ = layer.bool(name, ctx)
                        case .enumeration: #expect(layer.string(name, ctx) != nil, "\(place)")
                        case .string, .formatted, .image: _ = layer.string(name, ctx)
                        }
                    }
                }
            }
        }
        #expect(evaluated > 1000)
    }
}
