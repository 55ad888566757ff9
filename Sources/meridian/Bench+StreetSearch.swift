import FoundationEssentials
import Glibc
import MapCore
import MapGeometry
import MapSearch
import MapTiles
import MeridianKit
import MapWindow
import Platform

/// The street index's numbers: how fast a street map is indexed (tiles a second), how large
/// its index is beside the map's own bytes, the memory indexing adds, and each keystroke's
/// search over the index and the 34,000 built-in places together (what the frame pays).
/// The maps: --vector (else the Helsinki fixture), and any more named in MERIDIAN_BENCH_STREET_MAPS
/// (colon-separated).
extension Bench {
    func streetSearchRows() throws -> [Row] {
        var maps = [vector ?? "Tests/Fixtures/vector/helsinki.mbtiles"].filter(FileIO.exists)
        maps += (ProcessInfo.processInfo.environment["MERIDIAN_BENCH_STREET_MAPS"] ?? "").split(separator: ":").map(String.init)
        guard !maps.isEmpty else { return [Row(name: "streets: no street map to index (run from the source tree)", value: 0, unit: "", target: "")] }
        // The largest area this machine can make from real data: the fixture's z14 tiles laid
        // again and again over a 20 × 20 grid of their own size (1,600 dense city tiles).
        let folder = "/tmp/meridian-bench-search-\(getpid())"
        defer { _ = FileIO.removeTree(folder) }
        if let first = maps.first, FileIO.makeDirectories(folder) == nil, let big = try? Self.repeated(first, in: folder, grid: 20) { maps.append(big) }
        let places = Resources.places()
        var rows: [Row] = []
        for path in maps.map(FileIO.absolute) {
            let archive = try NameArchive(path: path)
            let name = archive.path.split(separator: "/").last.map(String.init) ?? path
            // Peak resident memory while indexing, sampled beside the build.
            let base = FileIO.residentBytes()
            let peak = LockedValue<Int>()
            peak.set(base)
            let done = LockedValue<Bool>()
            startThread(name: "rss-sampler") {
                while done.get() != true {
                    let now = FileIO.residentBytes()
                    if now > peak.get() ?? 0 { peak.set(now) }
                    usleep(5000)
                }
            }
            let start = MonotonicClock.now
            let outcome = try NameIndexBuilder(archive: archive, folder: folder).build()
            let seconds = MonotonicClock.now - start
            done.set(true)
            guard let nameIndex = NameIndex.open(archive, folder: folder) else { throw TileSourceError(tr("%@: index not readable after building", path)) }
            let indexBytes = FileIO.fileSize(NameIndex.file(for: archive.path, in: folder))
            rows += [
                Row(name: "streets \(name): \(archive.tiles.count) tiles → \(outcome.features) names", value: Double(archive.tiles.count) / max(seconds, 1e-6),
                    unit: "tiles/s", target: "report"),
                Row(name: "streets \(name): index size, share of the map file", value: 100 * Double(indexBytes) / Double(max(1, FileIO.fileSize(path))),
                    unit: "%", target: "report"),
                Row(name: "streets \(name): extra RSS while indexing", value: Double(max(0, (peak.get() ?? base) - base)) / 1_048_576,
                    unit: "MiB", target: "≤ 50 MiB"),
            ]
            // Every prefix of names the index holds and of built-in places, a letter at a time.
            let search = StreetSearch(places: places, indexes: [nameIndex])
            var typedNames = ["aleksanterinkatu", "mannerheimintie 1", "stockmann", "rautatientori", "esplanadi", "kluuvi", "a", "k", "helsinki",
                              "tolonkatu", "zurich", "paris", "sao paulo", "new york", "s"]
            typedNames += nameIndex.search("katu", near: nil, limit: 30).map { $0.name } + nameIndex.search("tie", near: nil, limit: 30).map { $0.name }
            let near = Coordinate(latitude: 60.17, longitude: 24.944)
            var times: [Double] = []
            for _ in 0..<3 {
                for n in typedNames {
                    var typed = ""
                    for ch in n.prefix(18) {
                        typed.append(ch)
                        let t = MonotonicClock.now
                        _ = search.search(typed, near: near, limit: 8)
                        times.append(MonotonicClock.now - t)
                    }
                }
            }
            rows += [
                Row(name: "streets \(name): per keystroke p50 (\(times.count) keystrokes, index + built-in places)",
                    value: FrameStats.percentile(times, 50) * 1000, unit: "ms", target: ""),
                Row(name: "streets \(name): per keystroke p99", value: FrameStats.percentile(times, 99) * 1000, unit: "ms", target: "≤ 5 ms"),
            ]
        }
        return rows
    }

    /// A copy of `path` whose deepest tiles are laid again over a `grid` × `grid` field of
    /// their own extent (their bytes are relative to their address: each copy is a town).
    static func repeated(_ path: String, in folder: String, grid: Int) throws -> String {
        let out = folder + "/repeated-\(grid)x\(grid).mbtiles"
        let db = try SQLiteDatabase(path: out, writable: true)
        try db.run("ATTACH DATABASE ? AS src", [.text(path)])
        try db.exec("""
            CREATE TABLE metadata AS SELECT * FROM src.metadata;
            CREATE TABLE tiles(zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, tile_data BLOB);
            CREATE TEMP TABLE deepest AS SELECT * FROM src.tiles WHERE zoom_level = (SELECT max(zoom_level) FROM src.tiles);
            """)
        let span = try db.rows("SELECT max(tile_column) - min(tile_column) + 1, max(tile_row) - min(tile_row) + 1 FROM deepest") {
            (SQLiteDatabase.int($0, 0), SQLiteDatabase.int($0, 1))
        }.first ?? (1, 1)
        try db.exec("BEGIN")
        for dx in 0..<grid {
            for dy in 0..<grid {
                try db.run("INSERT INTO tiles SELECT zoom_level, tile_column + ?, tile_row + ?, tile_data FROM deepest",
                           [.int(Int64(dx) * span.0), .int(Int64(dy) * span.1)])
            }
        }
        try db.exec("COMMIT; DETACH DATABASE src")
        return out
    }
}
