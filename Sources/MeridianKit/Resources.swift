import FoundationEssentials
import Glibc
import MapCore
import MapSearch
import Platform

/// Finds the files the map ships with (the basemap, places, styles): installed under
/// /usr/share/meridian (the .deb), next to a relocated binary (BIN/../share/meridian), or in
/// the source tree's Resources/ for a development build (.build/CONFIG/NAME). An app that
/// keeps them elsewhere says where (`directory`).
public enum Resources {
    /// Looked in before all the others (the Meridian app sets it from $MERIDIAN_DATA_DIR).
    nonisolated(unsafe) public static var directory: String? // set once by the app before any thread reads it

    /// The file `name` (a path under the resources folder) where it is found first.
    public static func url(_ name: String) -> URL? {
        candidates(name).first { FileManager.default.isReadableFile(atPath: $0.path) }
    }

    /// The 34,000 built-in places (places.tsv), read and indexed (a tenth of a second: on a
    /// worker where a frame could wait); nil when the file is missing or unreadable.
    public static func places() -> PlaceIndex? {
        guard let url = url("places.tsv"), let data = try? FileIO.read(url.path) else { return nil }
        return PlaceIndex(reading: data)
    }

    /// The running binary's own path, from /proc/self/exe.
    public static var executablePath: String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        return n > 0 ? String(cBuffer: buffer) : CommandLine.arguments[0]
    }

    /// Where the app's message catalogues (LL/LC_MESSAGES/meridian.mo) may be, in order:
    /// beside an installed or relocated binary, then the build's (`.build/locale`, made by
    /// scripts/po.sh).
    public static var localeDirectories: [String] {
        let exe = URL(fileURLWithPath: executablePath).deletingLastPathComponent()
        var dirs = ["../share/locale", "../../locale", "../locale"].map { exe.appendingPathComponent($0).standardizedFileURL.path }
        if let d = directory, !d.isEmpty { dirs.insert(URL(fileURLWithPath: d).appendingPathComponent("../locale").standardizedFileURL.path, at: 0) }
        return dirs
    }

    /// Where `name` is looked for, in order.
    public static func candidates(_ name: String) -> [URL] {
        var dirs: [URL] = []
        if let d = directory, !d.isEmpty { dirs.append(URL(fileURLWithPath: d)) }
        // The running binary itself, wherever PATH found it (argv[0] may be a bare name).
        let exe = URL(fileURLWithPath: executablePath).deletingLastPathComponent()
        dirs.append(exe.appendingPathComponent("../share/meridian"))
        dirs.append(exe.appendingPathComponent("../../Resources"))      // .build/release/meridian
        dirs.append(exe.appendingPathComponent("../../../Resources"))   // .build/x86_64-…/release/meridian
        dirs.append(URL(fileURLWithPath: "/usr/share/meridian"))
        return dirs.map { $0.appendingPathComponent(name).standardizedFileURL }
    }
}
