import Foundation
import Glibc
import MapCore
import MapGeometry
import MapGraphics
import MapStyle
import MapTiles
@testable import MapRender
import Platform
import Testing

/// A page and the window's picture of one view paint their tiles the same way (one painting,
/// `TilePainting`): between whole zooms a styled street map's page has the PNG's line widths
/// and filters, not those of the tiles' own zoom. Here the page is drawn onto pixels as the
/// PDF is drawn (the tiles as recordings, replayed), at the PNG's size, and the two compared.
struct PageMatchesPictureTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let mbtiles = root.appendingPathComponent("Tests/Fixtures/vector/helsinki.mbtiles").path
    static let streets = root.appendingPathComponent("Resources/styles/streets.json").path

    /// Both pictures of central Helsinki at `zoom`, as 0xAARRGGBB: the window's (`render`)
    /// and the page's.
    func pictures(zoom: Double, width: Int = 480, height: Int = 360) throws -> (window: [UInt32], page: [UInt32]) {
        let style = try MapStyle(json: Data(contentsOf: URL(fileURLWithPath: Self.streets)))
        let source = try MBTilesSource(path: Self.mbtiles, vectorTileSize: 512)
        let stack = TileStack(map: source, painter: VectorTilePainter(mapStyle: style), background: .styleGround)
        var scene = Scene()
        scene.showTiles(from: stack)
        let camera = Camera(center: Coordinate(latitude: 60.1705, longitude: 24.944), zoom: zoom,
                            viewportSize: ScreenSize(width: Double(width), height: Double(height)))
        var session = MapSession(scene: scene, camera: camera)
        let r = try OffscreenRenderer(pixelWidth: width, pixelHeight: height, pixelRatio: 1)
        let failed = try r.render(&session, stack: stack, at: 0)
        #expect(failed.isEmpty, "\(failed)")
        var window = [UInt32](repeating: 0, count: width * height)
        for y in 0..<height { for x in 0..<width { window[y * width + x] = r.pixel(x: x, y: y) } }

        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("page-picture-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("page.png").path
        let page = PageRenderer(stack: stack, overlays: session.tileOverlays)
        try PagePrinter.write(r.lastDrawList, with: page, layout: PrintLayout(width: Double(width), height: Double(height)), format: .png,
                              camera: session.camera, to: out)
        #expect(page.problems.isEmpty, "\(page.problems)")
        var drawn = try ImageDecoder.decode(Data(contentsOf: URL(fileURLWithPath: out)))
        drawn.convert(to: .argb)
        try #require(drawn.width == width && drawn.height == height)
        return (window, drawn.pixels)
    }

    /// The share of pixels where a channel differs by more than `levels`.
    func differing(_ a: [UInt32], _ b: [UInt32], levels: Int = 32) -> Double {
        var n = 0
        for (p, q) in zip(a, b) where (0..<3).contains(where: { abs(channel(p, $0) - channel(q, $0)) > levels }) { n += 1 }
        return Double(n) / Double(max(1, a.count))
    }

    /// The share of 3×3 blocks whose mean differs by more than `levels` in a channel: the
    /// window scales a tile's pixels to a zoom between whole ones, which blurs a hatching the
    /// page draws crisp; a line drawn wider or a label set otherwise differs in its block too.
    func differingBlocks(_ a: [UInt32], _ b: [UInt32], width: Int, height: Int, levels: Double = 16) -> Double {
        var n = 0, blocks = 0
        for by in stride(from: 0, to: height - 2, by: 3) {
            for bx in stride(from: 0, to: width - 2, by: 3) {
                blocks += 1
                let apart = (0..<3).contains { c in
                    var sum = 0
                    for y in by..<(by + 3) { for x in bx..<(bx + 3) { sum += channel(a[y * width + x], c) - channel(b[y * width + x], c) } }
                    return abs(Double(sum) / 9) > levels
                }
                if apart { n += 1 }
            }
        }
        return Double(n) / Double(max(1, blocks))
    }

    func channel(_ p: UInt32, _ c: Int) -> Int { Int((p >> UInt32(8 * c)) & 0xFF) }

    /// Before the page painted with the window's painting, its styled tiles were drawn for
    /// their own zoom: at 14.5, 3.9 % of blocks (2.3 % of pixels) differed; at 15.3, 2.8 %
    /// (4.0 %). Now 0.7 % either way (a few letters, sprites on whole pixels in the window).
    @Test("A page between whole zooms is the window's picture", arguments: [14.5, 15.3, 15])
    func aPageBetweenWholeZoomsIsTheWindowsPicture(zoom: Double) throws {
        let width = 480, height = 360
        let (window, page) = try pictures(zoom: zoom, width: width, height: height)
        let blocks = differingBlocks(window, page, width: width, height: height), pixels = differing(window, page)
        #expect(blocks < 0.015, "z\(zoom): \(blocks * 100) % of 3×3 blocks differ by more than 16 levels (\(pixels * 100) % of pixels by more than 32)")
    }
}
