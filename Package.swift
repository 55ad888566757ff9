// swift-tools-version:6.0
import PackageDescription

// One-way dependencies, as ../shared/DESIGN.md draws them:
// MapGeometry ← MapCore ← MapTiles/MapData ← MapGraphics ← MapWindow ← meridian.
let package = Package(
    name: "Meridian",
    products: [
        .executable(name: "meridian", targets: ["meridian"]),
        .library(name: "MapKitLinux", targets: ["MapGeometry", "MapCore", "MapTiles", "MapData", "MapGraphics", "MapWindow"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        .systemLibrary(name: "CSDL2", pkgConfig: "sdl2", providers: [.apt(["libsdl2-dev"])]),
        .systemLibrary(name: "CSDL2Image", pkgConfig: "SDL2_image", providers: [.apt(["libsdl2-image-dev"])]),
        .systemLibrary(name: "CCairo", pkgConfig: "cairo", providers: [.apt(["libcairo2-dev"])]),
        .systemLibrary(name: "CPango", pkgConfig: "pangocairo", providers: [.apt(["libpango1.0-dev"])]),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),

        .target(name: "CSystem"),
        .target(name: "MapGeometry"),
        .target(name: "MapCore", dependencies: ["MapGeometry"]),
        .target(name: "MapTiles", dependencies: ["MapGeometry", "CSQLite", "CZlib", "CSystem"]),
        .target(name: "MapData", dependencies: ["MapGeometry", "MapCore"]),
        .target(name: "MapGraphics", dependencies: ["MapGeometry", "MapCore", "MapTiles", "CCairo", "CPango"]),
        .target(name: "MapWindow", dependencies: ["MapGeometry", "MapCore", "MapTiles", "MapGraphics", "CSDL2", "CSDL2Image", "CSystem"]),
        .executableTarget(name: "meridian", dependencies: [
            "MapGeometry", "MapCore", "MapTiles", "MapData", "MapGraphics", "MapWindow",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),

        .executableTarget(name: "basemap-builder", dependencies: ["MapGeometry", "MapTiles", "CSQLite"]),
        .executableTarget(name: "icon-renderer", dependencies: ["CCairo", "MapCore", "MapGraphics"]),

        .target(name: "TestSupport", dependencies: ["MapGeometry", "MapCore", "CSQLite", "CZlib"], path: "Tests/TestSupport"),
        .testTarget(name: "MapGeometryTests", dependencies: ["MapGeometry", "TestSupport"]),
        .testTarget(name: "MapCoreTests", dependencies: ["MapCore", "MapGeometry", "TestSupport"]),
        .testTarget(name: "MapTilesTests", dependencies: ["MapTiles", "MapGeometry", "CSQLite", "TestSupport"]),
        .testTarget(name: "MapGraphicsTests", dependencies: ["MapGraphics", "MapTiles", "MapCore", "MapGeometry"]),
        .testTarget(name: "MapDataTests", dependencies: ["MapData", "MapGeometry"]),
        .testTarget(name: "EndToEndTests", dependencies: ["TestSupport", "MapGeometry", "MapTiles"]),
    ],
    swiftLanguageModes: [.v5]
)
