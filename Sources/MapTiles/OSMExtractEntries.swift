import FoundationEssentials
import Platform

/// The OpenStreetMap extracts a sources.json names for offline directions:
///
///     {"sources": [{"name": "finland", "type": "osm", "path": "/data/finland-latest.osm.pbf"}]}
///
/// Such an entry is no map: `OnlineSource.catalog` passes over it, and the routing reads it
/// here (a path starting `~/` is the home folder's). Each problem names the entry.
public enum OSMExtractEntries {
    public static let type = "osm"

    private struct Entry: Decodable {
        var name: String?
        var type: String?
        var path: String?
    }

    private struct Document: Decodable {
        var sources: [Lenient]
        struct Lenient: Decodable {
            var entry: Entry?
            init(from decoder: Decoder) throws { entry = try? Entry(from: decoder) }
        }
    }

    /// Whether a sources.json entry (decoded as an `OnlineSource` entry would be) is an extract's.
    static func isExtract(_ decoder: Decoder) -> Bool {
        (try? Entry(from: decoder))?.type == type
    }

    /// The extracts' absolute paths, in the file's order, and what is wrong with the others.
    /// `home` expands a leading `~/`.
    public static func read(_ data: Data, file: String, home: String) -> (paths: [String], problems: [String]) {
        guard data.count <= 1 << 20, let document = try? JSONDecoder().decode(Document.self, from: data) else { return ([], []) }
        var paths: [String] = [], problems: [String] = []
        for (i, item) in document.sources.enumerated() {
            guard let e = item.entry, e.type == type else { continue }
            let at = "\(file): sources[\(i)]"
            guard var path = e.path, !path.isEmpty, path.utf8.count <= 4096, !path.contains("\0") else {
                // TRANSLATORS: %@ is where in sources.json (FILE: sources[2].path); FILE.osm.pbf stands for a file's name.
                problems.append(tr("%@: missing (an OpenStreetMap extract, FILE.osm.pbf)", at + ".path"))
                continue
            }
            if path.hasPrefix("~/") { path = home + path.dropFirst(1) }
            guard path.hasPrefix("/") else {
                // TRANSLATORS: %1$@ is where in sources.json (FILE: sources[2].path), %2$@ the path given there.
                problems.append(tr("%1$@: %2$@ is not an absolute path", at + ".path", shownInMessage(path)))
                continue
            }
            guard path.lowercased().hasSuffix(".osm.pbf") || path.lowercased().hasSuffix(".pbf") else {
                problems.append(tr("%1$@: %2$@ is not an OpenStreetMap extract (.osm.pbf)", at + ".path", shownInMessage(path)))
                continue
            }
            if !paths.contains(path) { paths.append(path) }
        }
        return (paths, problems)
    }
}
