import FoundationEssentials
import Glibc
import MapGeometry
import MapNetwork
import Platform

/// An area saved for offline use (`meridian extract`, or "Save this area offline…"): a
/// PMTiles archive under `$XDG_DATA_HOME/meridian/areas/`, whose metadata's `"meridian"`
/// entry says which map it was cut from, where and at which zooms. Each is an offline map of
/// its own, and lies beneath the map it came from (`AreaBackedSource`).
public struct SavedArea: Sendable, Equatable {
    public let path: String
    /// What the map list calls it: the metadata's title, else the file's name.
    public let title: String
    /// The map it was cut from, by the name `--tiles` and the switcher use.
    public let source: String
    /// The box in degrees; west > east across the antimeridian.
    public let west: Double, south: Double, east: Double, north: Double
    /// The zooms of the tiles it holds (the archive's own numbering).
    public let zooms: ClosedRange<Int>
    /// Its size on disk.
    public let bytes: UInt64
    /// The day it was saved (or last updated), and the day its map's data is from, as
    /// "2026-11-26", when known.
    public let saved: String?
    public let dataDate: String?
    /// The source's revision when saved (`ExtractSource.revision`).
    public let revision: String?
    /// The token naming its validators (`TileValidators`); nil: it has none.
    public let validatorToken: String?
    /// Its tiles are vector tiles (a street map's: drawn one zoom deeper than numbered).
    public let isVector: Bool

    /// `$XDG_DATA_HOME/meridian/areas` (`~/.local/share/meridian/areas`).
    public static func folder(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        FileIO.userFolder("XDG_DATA_HOME", else: ".local/share", environment: environment) + "/meridian/areas"
    }

    /// The areas in `folder`, by title; files that are not saved areas are left out.
    public static func list(in folder: String = folder()) -> [SavedArea] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.filter { $0.hasSuffix(".pmtiles") && !$0.hasPrefix(".") }.sorted()
            .compactMap { try? SavedArea(path: folder + "/" + $0) }
            .sorted { $0.title.lowercased() < $1.title.lowercased() }
    }

    /// Reads the archive's header and metadata; an archive without a `"meridian"` entry is
    /// not a saved area.
    public init(path: String) throws {
        let archive = try PMTilesArchive(reader: try FileRangeReader(path: path), name: path)
        let json = try archive.metadata()
        guard case let .object(top)? = try? JSONDecoder().decode(JSONValue.self, from: json),
              case let .object(entry)? = top["meridian"] else {
            // TRANSLATORS: "meridian" is the name of an entry in a file's metadata: keep it as it is.
            throw TileSourceError(tr("%@: not a saved area (its metadata has no \"meridian\" entry)", path))
        }
        guard case let .string(source)? = entry["source"], case let .array(box)? = entry["bbox"], box.count == 4 else {
            // TRANSLATORS: "meridian", source and bbox are the names of entries in a file's metadata.
            throw TileSourceError(tr("%@: the \"meridian\" entry lacks its source or bbox", path))
        }
        let v = box.compactMap { if case let .number(n) = $0, n.isFinite { return n } else { return nil } }
        guard v.count == 4, v[1] < v[3], abs(v[0]) <= 180, abs(v[2]) <= 180, abs(v[1]) <= 90, abs(v[3]) <= 90 else {
            // TRANSLATORS: W,S,E,N (west, south, east, north) is how the box is written.
            throw TileSourceError(tr("%@: the saved area's bbox is not W,S,E,N in degrees", path))
        }
        self.path = path
        self.source = source
        (west, south, east, north) = (v[0], v[1], v[2], v[3])
        let h = archive.header
        isVector = h.tileType == .mvt
        zooms = min(h.minZoom, TileID.maxZoom)...min(max(h.minZoom, h.maxZoom), TileID.maxZoom)
        func text(_ key: String) -> String? {
            guard case let .string(s)? = entry[key], !s.isEmpty, s.utf8.count <= 4096 else { return nil }
            return s
        }
        saved = text("saved").flatMap(ExtractDates.day(in:))
        dataDate = text("dataDate").flatMap(ExtractDates.day(in:))
        revision = text("revision")
        validatorToken = text("validators")
        var st = stat()
        bytes = stat(path, &st) == 0 ? UInt64(max(0, st.st_size)) : 0
        if case let .string(t)? = entry["title"], !t.isEmpty {
            title = Self.cleanTitle(t)
        } else {
            title = Self.fileTitle(path)
        }
    }

    /// A title as kept and shown: no control characters, at most `limit` of the rest.
    static func cleanTitle(_ t: String, limit: Int = 60) -> String {
        String(t.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }.prefix(limit).map(Character.init))
    }

    /// The title of an area without one: its file's name, less ".pmtiles".
    static func fileTitle(_ path: String) -> String {
        let file = path.split(separator: "/").last.map(String.init) ?? path
        return file.hasSuffix(".pmtiles") ? String(file.dropLast(8)) : file
    }

    /// The area and zooms it was cut with (the archive's own numbering).
    public var tileArea: TileArea {
        get throws { try TileArea(west: west, south: south, east: east, north: north, zooms: zooms) }
    }

    /// Gives it another title: its metadata is rewritten (the tiles copied as they are) into
    /// a new file renamed over it.
    public func renamed(to newTitle: String) throws -> SavedArea {
        let clean = Self.cleanTitle(newTitle, limit: .max).trimmed
        guard !clean.isEmpty else { throw ExtractError.refused(tr("A saved area needs a name")) }
        let archive = try PMTilesArchive(reader: try FileRangeReader(path: path), name: path)
        guard case var .object(top)? = try? JSONValue.parse(try archive.metadata()), case var .object(entry)? = top["meridian"] else {
            throw ExtractError.failed(tr("%@: not a saved area", path))
        }
        entry["title"] = .string(String(clean.prefix(60)))
        top["meridian"] = .object(entry)
        let temporary = AtomicFile.temporaryName(for: path)
        do {
            try PMTilesWriter.rewrite(path, metadata: try JSONEncoder().encode(JSONValue.object(top)), to: temporary)
            try AtomicFile.publish(temporary, as: path)
        } catch {
            unlink(temporary)
            throw error
        }
        return try SavedArea(path: path)
    }

    /// Deletes it, with its validators and an update of it stopped midway (its search index
    /// is the search's to forget).
    public func delete() throws {
        guard unlink(path) == 0 || errno == ENOENT else { throw ExtractError.failed(tr("%@: %@", path, FileIO.reason())) }
        unlink(TileValidators.file(for: path))
        _ = FileIO.removeTree(path + ".part")
    }

    /// Where it has tiles, in world units: two rectangles across the antimeridian.
    public var rects: [MapRect] {
        func rect(_ w: Double, _ e: Double) -> MapRect {
            let nw = WebMercator.project(Coordinate(latitude: min(north, 85.05), longitude: w))
            let se = WebMercator.project(Coordinate(latitude: max(south, -85.05), longitude: e))
            return MapRect(x: nw.x, y: nw.y, width: se.x - nw.x, height: se.y - nw.y)
        }
        return west <= east ? [rect(west, east)] : [rect(west, 180), rect(-180, east)]
    }
}

/// A save that stopped before it was whole (Ctrl+C, the window closed, a full disk): its
/// `.part` folder beside the file it will become, with its plan and how far it got.
public struct UnfinishedArea: Sendable, Equatable {
    /// The file it will become, and its `.part` folder.
    public let path: String
    public var folder: String { path + ".part" }
    public let plan: ExtractPlan
    /// The plan's area (checked when listed).
    public let area: TileArea
    public let tilesDone: UInt64
    public let tilesTotal: UInt64
    /// Bytes its folder takes.
    public let bytes: UInt64

    /// What the list calls it.
    public var title: String {
        if let t = plan.title, !t.isEmpty { return t }
        return SavedArea.fileTitle(path)
    }

    /// The unfinished saves in `folder`; a `.part` without a readable plan is left out (it
    /// is not one of ours to list).
    public static func list(in folder: String = SavedArea.folder()) -> [UnfinishedArea] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.filter { $0.hasSuffix(".pmtiles.part") && !$0.hasPrefix(".") }.sorted().compactMap { name in
            let part = folder + "/" + name
            guard let plan = try? ExtractPlan.read(part + "/plan.json"), let area = try? plan.area else { return nil }
            let journal = FileIO.fileSize(part + "/journal"), tiles = FileIO.fileSize(part + "/tiles")
            return UnfinishedArea(path: String(part.dropLast(5)), plan: plan, area: area, tilesDone: UInt64(max(0, journal)) / UInt64(ExtractJournal.recordSize),
                                  tilesTotal: area.tileCount, bytes: UInt64(max(0, journal)) + UInt64(max(0, tiles)))
        }
    }

    /// Throws away what it fetched.
    public func discard() throws {
        guard FileIO.removeTree(folder) else { throw ExtractError.failed(tr("%@: %@", folder, FileIO.reason())) }
    }
}
