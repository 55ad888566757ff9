import FoundationEssentials
import Glibc
import MapCore
import Platform

/// Geocoder answers kept for a week (Nominatim's policy asks for results to be cached), so
/// that a search made again is answered without a request: a few in memory, all on disk under
/// `$XDG_CACHE_HOME/meridian/geocoder/`, one file per request named by a hash of its key. A
/// file holds a header (format, when it was stored, the whole key, to tell a hash's
/// collision from a hit) and the answer's bytes as the service sent them, which are read
/// again by the same checked reader: a damaged or foreign file is deleted and counts as a
/// miss. Only answers that were read into results are stored. Thread-safe.
final class GeocoderCache: @unchecked Sendable {
    /// The folder, or nil to keep answers in memory only.
    let directory: String?
    static let lifetime = 7 * 86_400.0
    static let memoryEntries = 64
    /// Files kept at most: a week of searches is far fewer.
    static let maxFiles = 2000
    private static let magic = "meridian-geocoder 1"
    /// Every cache's writes, one at a time: AtomicFile's temporary name is one per process.
    private static let writeLock = Lock()

    private let lock = Lock()
    private var memory: [String: (results: [SearchResult], stored: Double)] = [:]
    private var order: [String] = []
    private var pruned = false

    init(directory: String?) { self.directory = directory }

    /// The default folder: `$XDG_CACHE_HOME/meridian/geocoder`, else `~/.cache/meridian/geocoder`.
    static func defaultDirectory(environment env: [String: String]) -> String {
        FileIO.userFolder("XDG_CACHE_HOME", else: ".cache", environment: env) + "/meridian/geocoder"
    }

    /// The results kept for `request`, read with `kind`'s reader and credited to `credit`;
    /// `now`: wall-clock seconds since 1970 (the entry's age outlives the process).
    func results(for request: GeocoderRequest, kind: GeocoderConfig.Kind, credit: String, now: Double) -> [SearchResult]? {
        lock.lock()
        if let hit = memory[request.key] {
            if Self.isFresh(stored: hit.stored, now: now) { lock.unlock(); return hit.results }
            memory[request.key] = nil
        }
        lock.unlock()
        guard let path = path(for: request.key), let data = try? FileIO.read(path, limit: GeocoderAnswer.maxBytes + 8192) else { return nil }
        guard let (stored, key, body) = Self.split(data), key == request.key else {
            // Not one of ours, or damaged: the next answer takes its place. (A hash collision
            // with another key is as rare as it is harmless: one more request.)
            unlink(path)
            return nil
        }
        guard Self.isFresh(stored: stored, now: now), let results = try? GeocoderAnswer.read(body, kind: kind, credit: credit) else {
            unlink(path)
            return nil
        }
        remember(request.key, results, stored: stored)
        return results
    }

    /// Keeps an answer that was read into `results` (`body`: its bytes as sent).
    func store(_ body: Data, results: [SearchResult], for request: GeocoderRequest, now: Double) {
        remember(request.key, results, stored: now)
        guard let path = path(for: request.key), body.count <= GeocoderAnswer.maxBytes else { return }
        let stamp = Int(saturating: now.rounded(.down))
        var file = Data("\(Self.magic)\n\(stamp)\n\(Self.oneLine(request.key))\n".utf8)
        file.append(body)
        Self.writeLock.lock(); defer { Self.writeLock.unlock() }
        pruneOnce(now: now)
        // A full or read-only disk costs a request next time, nothing more.
        try? AtomicFile.write(file, to: URL(fileURLWithPath: path))
    }

    private func remember(_ key: String, _ results: [SearchResult], stored: Double) {
        lock.lock(); defer { lock.unlock() }
        if memory.updateValue((results, stored), forKey: key) == nil { order.append(key) }
        while order.count > Self.memoryEntries { memory[order.removeFirst()] = nil }
    }

    private static func isFresh(stored: Double, now: Double) -> Bool {
        // A little in the future is a clock set back; far in the future is not a real time.
        let age = now - stored
        return age < lifetime && age > -86_400
    }

    /// The entry's file: a 64-bit FNV-1a hash of the key, in hex.
    func path(for key: String) -> String? {
        guard let directory else { return nil }
        let hash = FNV1a.hash(key)
        let hex = String(hash, radix: 16)
        return directory + "/" + String(repeating: "0", count: 16 - hex.count) + hex + ".answer"
    }

    /// The key as the header's one line (its parts are joined by line breaks).
    private static func oneLine(_ key: String) -> String { key.replacing("\n", with: "\t") }

    /// A file's stored time, key and body; nil when the header is not ours.
    private static func split(_ data: Data) -> (Double, String, Data)? {
        var lines: [Data.Index] = []
        var i = data.startIndex
        while lines.count < 3, i < data.endIndex, i - data.startIndex < 8192 {
            if data[i] == 0x0A { lines.append(i) }
            i += 1
        }
        guard lines.count == 3 else { return nil }
        let text = { (a: Data.Index, b: Data.Index) in String(decoding: data[a..<b], as: UTF8.self) }
        guard text(data.startIndex, lines[0]) == magic, let stamp = Int(text(lines[0] + 1, lines[1])) else { return nil }
        let key = text(lines[1] + 1, lines[2]).replacing("\t", with: "\n")
        return (Double(stamp), key, Data(data[(lines[2] + 1)...]))
    }

    /// Once a run, before the first write: entries past their week go, and the oldest beyond
    /// `maxFiles`. (Under `writeLock`.)
    private func pruneOnce(now: Double) {
        guard !pruned, let directory else { return }
        pruned = true
        guard let dir = opendir(directory) else { return }
        var entries: [(path: String, time: Double)] = []
        while let e = readdir(dir) {
            let name = withUnsafeBytes(of: e.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard name.hasSuffix(".answer"), name.utf8.count == 23 else { continue }
            let path = directory + "/" + name
            var st = stat()
            guard stat(path, &st) == 0 else { continue }
            entries.append((path, Double(st.st_mtim.tv_sec)))
        }
        closedir(dir)
        entries.sort { $0.time > $1.time }
        for (i, e) in entries.enumerated() where i >= Self.maxFiles || !Self.isFresh(stored: e.time, now: now) {
            unlink(e.path)
        }
    }
}
