// swift-tools-version:6.2
import Foundation
import PackageDescription

// One-way dependencies, as docs/DESIGN.md draws them:
// MapGeometry ← MapCore ← MapTiles/MapData/MapPosition ← MapGraphics ← MapRender ← MapWindow ← meridian,
// with MapNetwork (HTTP, caching rules, politeness) beneath MapTiles, over Platform alone, and
// MapSearch (places, names, geocoders) over MapTiles, beneath MapChrome's search box. Every
// module a file imports is declared here (scripts/lint-imports.py holds it).
// Every conversion from Double or Float to an integer that could trap is refused by the
// compiler: Platform/Saturating.swift shadows the standard library's with deprecated ones, and
// this makes using them an error (issue 39's lint; scripts/lint-conversions.sh shows it).
let refuseTraps: [SwiftSetting] = [.treatWarning("DeprecatedDeclaration", as: .error)]
let osize: [SwiftSetting] = [.unsafeFlags(["-Osize"], .when(configuration: .release))]
// The library's targets and the app are built in Swift 6 language mode (strict concurrency:
// workers reach the window through `MapHostHandle` and `FrameBound`); the tests are still
// Swift 5.
let library: [SwiftSetting] = refuseTraps + [.swiftLanguageMode(.v6)]
let small = library + osize

let package = Package(
    name: "Meridian",
    products: [
        .executable(name: "meridian", targets: ["meridian"]),
        // The library beneath the app, for other programs to embed the map.
        .library(name: "MeridianKit", targets: ["MeridianKit"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        .systemLibrary(name: "CSDL2", pkgConfig: "sdl2", providers: [.apt(["libsdl2-dev"])]),
        .systemLibrary(name: "CCairo", pkgConfig: "cairo", providers: [.apt(["libcairo2-dev"])]),
        .systemLibrary(name: "CPango", pkgConfig: "pangocairo", providers: [.apt(["libpango1.0-dev"])]),
        .systemLibrary(name: "CGio", pkgConfig: "gio-2.0", providers: [.apt(["libglib2.0-dev"])]),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),

        .target(name: "CSystem"),
        // glibc's gettext (libintl.h, which the Glibc module leaves out) and the locale's numbers.
        .target(name: "CIntl"),
        // libcurl's header, and the library opened with dlopen when https first needs it.
        .target(name: "CCurl"),
        // PNG with libpng; JPEG and WebP with SDL2_image, opened with dlopen when one comes.
        .target(name: "CImage", linkerSettings: [.linkedLibrary("png16")]),
        // libxml2's reader for GPX and KML, opened with dlopen when the first one is read.
        .target(name: "CLibXML2", cSettings: [.unsafeFlags(["-I/usr/include/libxml2"])]),
        // Xlib's error handler, for the X11 wake-ups SDL sends (see CXlib.h), and frames the X
        // server draws with RENDER (XRender.h).
        .target(name: "CXlib", dependencies: ["CPixels"], linkerSettings: [.linkedLibrary("X11"), .linkedLibrary("Xrender")]),
        // The software compositor's loops: optimised in every build, so that debug-built
        // tests draw at a useful speed too.
        .target(name: "CPixels", cSettings: [.unsafeFlags(["-O3"])]),
        .target(name: "Platform", dependencies: ["CSystem", "CIntl"], swiftSettings: library),
        // Plain geometry, the bottom of the house: it imports nothing.
        .target(name: "MapGeometry", swiftSettings: library),
        .target(name: "MapCore", dependencies: ["Platform", "MapGeometry"],
                swiftSettings: small),
        // The app's chrome over the map (search box, help, map switcher, zoom and locate
        // buttons, hints): an app embedding the map picks its own.
        .target(name: "MapChrome", dependencies: ["Platform", "MapGeometry", "MapCore", "MapSearch"],
                swiftSettings: small),
        // HTTP for every shared server: the client (libcurl for https, its own for loopback and
        // plain http), freshness as HTTP defines it, a gate per service for its stated rate, and
        // ranges of remote files. It knows nothing of maps.
        .target(name: "MapNetwork", dependencies: ["Platform", "CCurl"], swiftSettings: small),
        .target(name: "MapTiles", dependencies: ["Platform", "MapGeometry", "MapCore", "MapNetwork", "CSQLite", "CZlib"],
                swiftSettings: small),
        // Search: the built-in places and their ranking, coordinates typed in, the street maps' own
        // names (an FTS5 index made from their tiles) and the online geocoders.
        .target(name: "MapSearch", dependencies: ["Platform", "MapGeometry", "MapCore", "MapNetwork", "MapTiles"],
                swiftSettings: small),
        // MapLibre style JSON: parsed once, its expressions evaluated per zoom and feature.
        .target(name: "MapStyle", dependencies: ["Platform", "MapCore", "MapTiles"],
                swiftSettings: small),
        .target(name: "MapData", dependencies: ["Platform", "MapGeometry", "MapCore", "CLibXML2"], swiftSettings: library),
        // Directions: one protocol for route engines, Routino run as programs (never linked:
        // it is AGPL), an online OSRM within FOSSGIS's terms, and the route's readers.
        .target(name: "MapRouting", dependencies: ["Platform", "MapGeometry", "MapCore", "MapNetwork", "MapTiles", "MapData"],
                swiftSettings: small),
        .target(name: "MapPosition", dependencies: ["Platform", "CSystem", "CGio", "MapGeometry", "MapCore"],
                swiftSettings: small),
        .target(name: "MapGraphics", dependencies: ["Platform", "MapGeometry", "MapCore", "MapNetwork", "MapTiles", "MapStyle", "CCairo", "CPango"],
                swiftSettings: small),
        // What turns the map's layers into pixels, with no SDL: the render pipeline and its
        // stores, the rasterizers, the software and X RENDER compositors, the off-screen
        // renderer and the printed pages. A GPU's textures come through its TextureDevice.
        .target(name: "MapRender", dependencies: ["Platform", "MapGeometry", "MapCore", "MapTiles", "MapStyle", "MapGraphics", "CCairo", "CImage", "CSystem", "CPixels", "CXlib"],
                swiftSettings: small),
        // The SDL window over it: events, the GPU compositor and its textures, the vsync
        // clock, and the host that runs the frame loop.
        .target(name: "MapWindow", dependencies: ["Platform", "MapGeometry", "MapCore", "MapTiles", "MapGraphics", "MapRender", "CSDL2", "CSystem", "CXlib"],
                swiftSettings: small),
        // The library's front door: one import, the map in a window of an app's own (MapView),
        // the files the map ships with (Resources) and the maps built in.
        .target(name: "MeridianKit", dependencies: ["Platform", "MapGeometry", "MapCore", "MapChrome", "MapNetwork", "MapTiles", "MapSearch", "MapStyle", "MapData", "MapRouting",
                                                    "MapPosition", "MapGraphics", "MapRender", "MapWindow", "CSDL2"],
                swiftSettings: small),
        .executableTarget(name: "meridian", dependencies: [
            "Platform", "CSystem", "CGio", "CSDL2", "CSQLite", "MapGeometry", "MapCore", "MapChrome", "MapNetwork", "MapTiles", "MapSearch", "MapStyle", "MapData", "MapGraphics", "MapRender", "MapWindow", "MapPosition", "MapRouting", "MeridianKit",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ],
        // Wiring, the CLI and the bench: no hot loops, so built for size (the binary's budget).
        swiftSettings: refuseTraps + osize + [.swiftLanguageMode(.v6)]),

        .executableTarget(name: "basemap-builder", dependencies: ["Platform", "MapGeometry", "MapTiles", "CSQLite"], swiftSettings: refuseTraps),
        // An app of its own that embeds the map with one button (built and run by make test).
        .executableTarget(name: "hello-map", dependencies: ["MeridianKit"], path: "Examples/HelloMap", swiftSettings: library),
        // An app that runs its own event loop and gives the map its turn frame by frame.
        .executableTarget(name: "own-loop", dependencies: ["MeridianKit", "CSDL2"], path: "Examples/OwnLoop", swiftSettings: library),
        .executableTarget(name: "icon-renderer", dependencies: ["Platform", "CCairo", "MapCore", "MapGraphics"], swiftSettings: refuseTraps),

        .target(name: "TestSupport", dependencies: ["MapGeometry", "MapCore", "MapNetwork", "MapSearch", "Platform", "CSQLite", "CZlib"], path: "Tests/TestSupport"),
        .testTarget(name: "MapSearchTests", dependencies: ["MapSearch", "MapChrome", "MapCore", "MapGeometry", "MapNetwork", "MapTiles", "Platform", "CSQLite", "TestSupport"]),
        .testTarget(name: "MapNetworkTests", dependencies: ["MapNetwork", "Platform", "TestSupport"]),
        .testTarget(name: "MapGeometryTests", dependencies: ["MapGeometry", "TestSupport"]),
        .testTarget(name: "MapCoreTests", dependencies: ["Platform", "MapCore", "MapSearch", "MapChrome", "MapGeometry", "TestSupport"]),
        .testTarget(name: "MapTilesTests", dependencies: ["Platform", "MapCore", "MapNetwork", "MapSearch", "MapTiles", "MapGeometry", "CSQLite", "TestSupport"]),
        .testTarget(name: "MapGraphicsTests", dependencies: ["MapGraphics", "MapStyle", "MapTiles", "MapCore", "MapGeometry", "CCairo", "TestSupport"]),
        .testTarget(name: "MapStyleTests", dependencies: ["MapStyle", "MapCore", "MapTiles", "Platform"]),
        .testTarget(name: "MapPositionTests", dependencies: ["MapPosition", "MapCore", "MapGeometry", "Platform", "TestSupport"]),
        .testTarget(name: "MapRoutingTests", dependencies: ["MapRouting", "MapCore", "MapGeometry", "MapNetwork", "MapTiles", "Platform", "TestSupport"]),
        .testTarget(name: "MapDataTests", dependencies: ["MapCore", "MapData", "MapGeometry", "Platform", "TestSupport"]),
        .testTarget(name: "MapRenderTests", dependencies: ["MapRender", "MapGraphics", "MapStyle", "Platform", "MapCore", "MapGeometry", "MapTiles", "CPixels", "TestSupport"]),
        .testTarget(name: "MapWindowTests", dependencies: ["MapWindow", "MapCore", "MapGeometry"]),
        .testTarget(name: "MeridianKitTests", dependencies: ["MeridianKit", "MapGeometry", "MapTiles"]),
        // The end-to-end tests' pictures, optimized in the debug build too: they look at every
        // pixel of screenshots, many times while they wait for one.
        .target(name: "TestPictures", path: "Tests/TestPictures", swiftSettings: [.unsafeFlags(["-O"], .when(configuration: .debug))]),
        .testTarget(name: "EndToEndTests", dependencies: ["TestSupport", "TestPictures", "MapGeometry", "MapNetwork", "MapTiles"]),
    ],
    swiftLanguageModes: [.v5]
)

// The fuzz targets (libFuzzer), built only by scripts/fuzz.sh: MERIDIAN_FUZZ=1 swift build
// --sanitize=fuzzer. One executable holds them all (Fuzz/Targets/main.swift lists them), each
// feeding hostile bytes to one reader; Fuzz/Corpus/NAME holds each one's seeds.
if ProcessInfo.processInfo.environment["MERIDIAN_FUZZ"] != nil {
    // What the four readers of track files check once a file is read (Fuzz/Support).
    package.targets.append(.target(name: "FuzzSupport", dependencies: ["MapData", "MapCore", "MapGeometry", "Platform"], path: "Fuzz/Support"))
    package.targets.append(.executableTarget(name: "meridian-fuzz",
                                             dependencies: ["FuzzSupport", "MapCore", "MapData", "MapGeometry", "MapGraphics", "MapNetwork",
                                                            "MapPosition", "MapRender", "MapRouting", "MapSearch", "MapStyle", "MapTiles", "Platform"],
                                             path: "Fuzz/Targets"))
}
