import CCairo
import FoundationEssentials
import Glibc
import MapCore
import MapTiles
import Platform

/// A style's sprite sheet from local files: SPRITE.json names each icon's rectangle in
/// SPRITE.png (SPRITE@2x.png and its index are preferred: sharp at 2×, scaled down at 1×).
/// Sheets on the web are fetched and kept (`init(url:client:keptIn:)`).
public struct SpriteSheet: Sendable {
    /// The picture the icons are cut from.
    public let picture: String
    struct Entry: Sendable { var x: Int, y: Int, width: Int, height: Int, ratio: Double }
    let entries: [String: Entry]

    /// Reads `base`.json (or `base`@2x.json with its picture); throws with the file and the
    /// reason when neither is there or the index is not one.
    public init(base: String) throws {
        let two = base + "@2x"
        let stem = FileIO.exists(two + ".json") && FileIO.exists(two + ".png") ? two : base
        guard FileIO.exists(stem + ".json"), FileIO.exists(stem + ".png") else {
            // TRANSLATORS: a sprite sheet is a style's picture of icons with its index; %1$@ is where it was looked for, without .json or .png.
            throw TileSourceError(tr("%1$@: no sprite sheet there (%1$@.json and %1$@.png)", base))
        }
        // Icons are kept only where they lie within the picture: one outside could never be
        // cut, and its label would wait for it on every frame.
        let header: ImageHeader
        do { header = try ImageHeader(try FileIO.read(stem + ".png", limit: 1 << 26), maxSide: IconPainter.maxSheetSide) } catch let e as TileSourceError {
            // TRANSLATORS: the sheet's file name without .png, then what is wrong with it.
            throw TileSourceError(tr("%@.png: sprite sheet: %@", stem, e.description))
        }
        // TRANSLATORS: the sheet's file name without .png, then the format it is in (jpeg, webp).
        guard header.format == .png else { throw TileSourceError(tr("%@.png: sprite sheet is %@, not PNG", stem, header.format.rawValue)) }
        try self.init(index: try FileIO.read(stem + ".json", limit: 4 << 20), named: stem + ".json", picture: stem + ".png", header: header)
    }

    /// A sheet from its index (the JSON, `named` in errors) and its picture's header: the
    /// icons that lie within the picture.
    public init(index data: Data, named name: String, picture: String, header: ImageHeader) throws {
        // TRANSLATORS: %@ is the index's file or address; "an object of icons" is what the JSON must be.
        guard case let .object(index) = try JSONValue.parse(data) else { throw TileSourceError(tr("%@: not a sprite index (an object of icons)", name)) }
        var entries: [String: Entry] = [:]
        for (name, value) in index.prefix(20_000) {
            func int(_ key: String) -> Int? {
                guard let n = value[key]?.number, n.isFinite, n >= 0, n <= 16_384 else { return nil }
                return Int(saturating: n)
            }
            guard let x = int("x"), let y = int("y"), let w = int("width"), let h = int("height"), w > 0, h > 0, w <= 1024, h <= 1024,
                  x + w <= header.width, y + h <= header.height else { continue }
            let r = value["pixelRatio"]?.number ?? 1
            entries[name] = Entry(x: x, y: y, width: w, height: h, ratio: r.isFinite ? min(max(r, 0.5), 8) : 1)
        }
        self.picture = picture
        self.entries = entries
    }

    public var count: Int { entries.count }

    /// The icon `name` at `scale` (icon-size), nil when the sheet has none of that name.
    public func icon(_ name: String, scale: Double) -> IconSprite? {
        guard let e = entries[name] else { return nil }
        // No icon larger than 256 points, whatever icon-size asks.
        let s = min(scale.isFinite ? max(scale, 0.1) : 1, 8, 256 / (Double(max(e.width, e.height)) / e.ratio))
        return IconSprite(sheet: picture, x: e.x, y: e.y, width: e.width, height: e.height, sheetRatio: e.ratio, scale: s)
    }
}

/// Cuts icons out of sprite sheets; each sheet's picture is read once.
public enum IconPainter: SpritePainter {
    private static let lock = Lock()
    /// Real sheets are a few hundred pixels a side (MapLibre's at 2× about 1024); 8192 is a
    /// 256 MiB picture at most, read once.
    public static let maxSheetSide = 8192
    nonisolated(unsafe) private static var pictures: [String: OpaquePointer] = [:] // under `lock`

    public static func paint(_ spec: IconSprite, pixelRatio k: Double) throws -> Bitmap {
        let sheet = try picture(spec.sheet)
        let sw = Int(cairo_image_surface_get_width(sheet)), sh = Int(cairo_image_surface_get_height(sheet))
        guard spec.x + spec.width <= sw, spec.y + spec.height <= sh else {
            // TRANSLATORS: the sheet's file, the icon's place (x,y) and size (width×height), then the sheet's size.
            throw CairoError(description: tr("%@: icon at %@,%@ %@×%@ lies outside the %@×%@ sheet", spec.sheet, spec.x, spec.y, spec.width, spec.height, sw, sh))
        }
        let size = spec.size
        let canvas = try CairoCanvas(width: max(1, Int(saturating: (size.width * k).rounded(.up))), height: max(1, Int(saturating: (size.height * k).rounded(.up))))
        let cr = canvas.context
        let f = spec.scale / spec.sheetRatio * k
        cairo_scale(cr, f, f)
        cairo_set_source_surface(cr, sheet, -Double(spec.x), -Double(spec.y))
        cairo_rectangle(cr, 0, 0, Double(spec.width), Double(spec.height))
        cairo_fill(cr)
        return canvas.bitmap()
    }

    /// The sheet's picture, read once and kept (sheets are few and small); refused past
    /// 8192 pixels a side, before it is decoded.
    private static func picture(_ path: String) throws -> OpaquePointer {
        lock.lock()
        defer { lock.unlock() }
        if let p = pictures[path] { return p }
        // The size is read from the header before anything is decoded: a small file may
        // claim a picture of gigabytes. Cairo decodes the very bytes checked, not the file
        // read again (which could have changed in between).
        let bytes = try FileIO.read(path, limit: 1 << 26)
        let header: ImageHeader
        do { header = try ImageHeader(bytes, maxSide: Self.maxSheetSide) } catch let e as TileSourceError {
            // TRANSLATORS: the sheet's file, then what is wrong with it.
            throw CairoError(description: tr("%@: sprite sheet: %@", path, e.description))
        }
        // TRANSLATORS: the sheet's file, then the format it is in (jpeg, webp).
        guard header.format == .png else { throw CairoError(description: tr("%@: sprite sheet is %@, not PNG", path, header.format.rawValue)) }
        guard let s = PNGStream(bytes).surface() else { throw CairoError(description: tr("%@: not a PNG picture", path)) }
        guard cairo_surface_status(s) == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(s)
            throw CairoError(description: tr("%@: not a PNG picture", path))
        }
        pictures[path] = s
        return s
    }
}

/// PNG bytes in memory handed to Cairo's PNG reader through its read callback.
private final class PNGStream {
    let bytes: [UInt8]
    var at = 0
    init(_ data: Data) { bytes = [UInt8](data) }

    /// Cairo's surface for the bytes; an error surface when they are not a PNG.
    func surface() -> OpaquePointer? {
        withExtendedLifetime(self) {
            cairo_image_surface_create_from_png_stream({ closure, data, length in
                guard let closure, let data else { return CAIRO_STATUS_READ_ERROR }
                let stream = Unmanaged<PNGStream>.fromOpaque(closure).takeUnretainedValue()
                let n = Int(length)
                guard n <= stream.bytes.count - stream.at else { return CAIRO_STATUS_READ_ERROR }
                stream.bytes.withUnsafeBytes { _ = memcpy(data, $0.baseAddress! + stream.at, n) }
                stream.at += n
                return CAIRO_STATUS_SUCCESS
            }, Unmanaged.passUnretained(self).toOpaque())
        }
    }
}
