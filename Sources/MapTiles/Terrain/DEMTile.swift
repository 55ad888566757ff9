import FoundationEssentials
import Glibc
import MapGeometry
import Platform

/// Why a DEM tile was refused: what was wrong with it, for the user to read.
public struct DEMError: Error, CustomStringConvertible, Sendable, Equatable {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// One tile of elevations (a MapLibre `raster-dem` source's tile): a square grid of heights
/// in metres, row by row from the north-west corner, decoded from the colours of a PNG.
public struct DEMTile: Sendable {
    /// How heights are written into colours.
    public enum Encoding: String, Sendable, CaseIterable {
        /// Mapzen's (the AWS Terrain Tiles): R·256 + G + B/256 − 32768 metres.
        case terrarium
        /// Mapbox's Terrain-RGB: (R·65536 + G·256 + B)·0.1 − 10000 metres.
        case mapbox
    }

    /// Pixels a side.
    public let size: Int
    /// `size`×`size` heights in metres, every one finite.
    public let heights: [Float]

    /// The sides a DEM tile may have: MapLibre's are 256 or 512, some 514 with a border.
    public static let sizes = 2...4096

    /// A tile of `heights` (`size`×`size`); heights that are not numbers (no data) become
    /// the nearest number before them in the row, else 0, so no NaN reaches the shading.
    public init(size: Int, heights: [Float]) throws {
        guard Self.sizes.contains(size) else {
            // TRANSLATORS: %1$@ is a number of pixels, %2$@…%3$@ the sizes a tile may have.
            throw DEMError(tr("a DEM tile of %1$@ pixels a side is not one (%2$@…%3$@)", size, Self.sizes.lowerBound, Self.sizes.upperBound))
        }
        guard heights.count == size * size else {
            // TRANSLATORS: %1$@×%1$@ is the tile's size, %2$@ the heights it needs, %3$@ those given.
            throw DEMError(tr("a DEM tile of %1$@×%1$@ needs %2$@ heights, not %3$@", size, size * size, heights.count))
        }
        var clean = heights
        for row in 0..<size {
            var last: Float = 0
            for i in row * size..<(row + 1) * size {
                // Heights beyond ±12 km are not the Earth's: an encoding error, not terrain.
                if clean[i].isFinite && abs(clean[i]) < 12_000 { last = clean[i] } else { clean[i] = last }
            }
        }
        self.size = size
        self.heights = clean
    }

    /// Heights from the colours of `rgba` (R, G, B, A bytes, `width`×`height`, row by row).
    /// A transparent pixel has no data. Tiles that are not square are refused.
    public init(rgba: [UInt8], width: Int, height: Int, encoding: Encoding) throws {
        guard width == height else { throw DEMError(tr("DEM tiles are square; this one is %1$@×%2$@", width, height)) }
        guard width > 0, rgba.count == width * height * 4 else { throw DEMError(tr("the DEM tile's pixels do not fill %1$@×%2$@", width, height)) }
        var h = [Float](repeating: 0, count: width * height)
        for i in 0..<h.count {
            let r = Double(rgba[4 * i]), g = Double(rgba[4 * i + 1]), b = Double(rgba[4 * i + 2]), a = rgba[4 * i + 3]
            guard a > 0 else { h[i] = .nan; continue }
            switch encoding {
            case .terrarium: h[i] = Float(r * 256 + g + b / 256 - 32768)
            case .mapbox: h[i] = Float((r * 65536 + g * 256 + b) * 0.1 - 10000)
            }
        }
        try self.init(size: width, heights: h)
    }

    /// A PNG's bytes as heights (`DEMImage` reads them).
    public init(png: Data, encoding: Encoding) throws {
        let image = try DEMImage(png: png)
        try self.init(rgba: image.rgba, width: image.width, height: image.height, encoding: encoding)
    }

    /// The heights under `tile`, a descendant of `of` (this tile's id), `size` pixels a side:
    /// interpolated between the pixel centres (Catmull-Rom, bicubic: its slopes run on
    /// smoothly from one DEM pixel to the next, where bilinear ones would shade each in a
    /// flat block), so a tile beyond the DEM's deepest zoom is shaded and traced at its own
    /// zoom rather than enlarged. Nil when `tile` is not under `of`.
    /// `border` more pixels all round (from the ancestor's heights beyond the tile) let the
    /// slopes at the tile's edge be found as inside it, with no seam between tiles.
    public func region(of own: TileID, for tile: TileID, size side: Int, border: Int = 0) -> DEMTile? {
        let dz = tile.z - own.z
        guard dz >= 0, dz < 31, (0...8).contains(border), Self.sizes.contains(side + 2 * border), tile.ancestor(atZoom: own.z) == own else { return nil }
        let span = Double(size) / Double(1 << dz)
        let ox = Double(tile.x - (own.x << dz)) * span, oy = Double(tile.y - (own.y << dz)) * span
        let step = span / Double(side)
        let n = side + 2 * border
        /// The four Catmull-Rom weights of the pixels at -1, 0, 1 and 2 from `t` in 0..<1.
        func weights(_ t: Float) -> (Float, Float, Float, Float) {
            let t2 = t * t, t3 = t2 * t
            return ((-t3 + 2 * t2 - t) / 2, (3 * t3 - 5 * t2 + 2) / 2, (-3 * t3 + 4 * t2 + t) / 2, (t3 - t2) / 2)
        }
        // Each column's weights are the same for every row.
        var columns: [(x0: Int, w: (Float, Float, Float, Float))] = []
        columns.reserveCapacity(n)
        for i in 0..<n {
            let gx = ox + (Double(i - border) + 0.5) * step - 0.5
            let x0 = Int(saturating: gx.rounded(.down))
            columns.append((x0, weights(Float(gx - Double(x0)))))
        }
        var out = [Float](repeating: 0, count: n * n)
        for j in 0..<n {
            // The sample's centre in this tile's pixels, then in the grid of pixel centres.
            let gy = oy + (Double(j - border) + 0.5) * step - 0.5
            let y0 = Int(saturating: gy.rounded(.down)), wy = weights(Float(gy - Double(y0)))
            for i in 0..<n {
                let (x0, wx) = columns[i]
                func row(_ y: Int) -> Float {
                    height(x0 - 1, y) * wx.0 + height(x0, y) * wx.1 + height(x0 + 1, y) * wx.2 + height(x0 + 2, y) * wx.3
                }
                out[j * n + i] = row(y0 - 1) * wy.0 + row(y0) * wy.1 + row(y0 + 1) * wy.2 + row(y0 + 2) * wy.3
            }
        }
        return try? DEMTile(size: n, heights: out)
    }

    /// The height at column `x`, row `y`, held to the tile's edge.
    @inline(__always)
    public func height(_ x: Int, _ y: Int) -> Float {
        heights[min(max(y, 0), size - 1) * size + min(max(x, 0), size - 1)]
    }

    /// Metres a pixel spans on the ground in row `y` of `tile` (Web Mercator shrinks them by
    /// the cosine of the latitude).
    public func metresPerPixel(row y: Double, of tile: TileID) -> Double {
        let n = Double(1 << min(max(tile.z, 0), 30))
        let worldY = (Double(tile.y) + y / Double(size)) / n
        let latitude = atan(sinh(Double.pi * (1 - 2 * worldY)))
        return 40_075_016.686 * cos(latitude) / (Double(size) * n)
    }
}
