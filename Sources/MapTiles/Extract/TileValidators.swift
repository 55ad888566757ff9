import FoundationEssentials
import Glibc
import Platform

/// What a saved area's tiles were when fetched, by tile id: the server's ETag ("E …") or
/// else its Last-Modified date ("D …"). An update asks the server with them whether each
/// tile changed (If-None-Match, If-Modified-Since) and fetches only those that did.
///
/// They live beside the archive, in `AREA.pmtiles.validators`: a first line naming the
/// archive's token (a random word the archive's metadata also holds), then "id validator"
/// lines in hexadecimal. A file whose token is not the archive's belongs to another version
/// of it (a crash between the two renames) and is not used: the update then fetches all.
public enum TileValidators {
    static let magic = "meridian-validators 1 "

    /// Where the validators of the archive at `path` are kept.
    public static func file(for path: String) -> String { path + ".validators" }

    /// A response's validator as kept: "E " and its ETag, else "D " and its Last-Modified
    /// date (an ETag need not be quoted, so its kind is kept rather than guessed).
    public static func validator(etag: String?, lastModified: String?) -> String? {
        if let e = checked(etag) { return "E " + e }
        if let d = checked(lastModified) { return "D " + d }
        return nil
    }

    /// The header that asks whether a tile changed since `validator`.
    public static func condition(_ validator: String) -> String? {
        if validator.hasPrefix("E ") { return "If-None-Match: " + validator.dropFirst(2) }
        if validator.hasPrefix("D ") { return "If-Modified-Since: " + validator.dropFirst(2) }
        return nil
    }

    /// A validator as kept: printable ASCII, no spaces at the ends, at most 256 bytes.
    static func checked(_ v: String?) -> String? {
        guard let v, !v.isEmpty, v.utf8.count <= 256, v.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }),
              v.first != " ", v.last != " " else { return nil }
        return v
    }

    /// "id validator\n" lines, ids in hexadecimal.
    static func lines(_ validators: [UInt64: String]) -> [UInt8] {
        var out = [UInt8]()
        for (id, v) in validators.sorted(by: { $0.key < $1.key }) { append(id, v, to: &out) }
        return out
    }

    /// Appends the line of one tile (what the journal adds per tile, with no sorting).
    static func append(_ id: UInt64, _ v: String, to out: inout [UInt8]) {
        out += Array(String(id, radix: 16).utf8)
        out.append(0x20)
        out += Array(v.utf8)
        out.append(0x0A)
    }

    /// The whole lines of `data` whose id is in `known` (all, when nil); a torn last line and
    /// malformed ones are left out.
    public static func parse(_ data: Data, known: Set<UInt64>?) -> [UInt64: String] {
        var out = [UInt64: String]()
        let bytes = [UInt8](data)
        var start = 0
        while let end = bytes[start...].firstIndex(of: 0x0A) {
            let line = bytes[start..<end]
            start = end + 1
            guard let space = line.firstIndex(of: 0x20), space > line.startIndex, space - line.startIndex <= 16,
                  let id = UInt64(String(decoding: line[line.startIndex..<space], as: UTF8.self), radix: 16),
                  known?.contains(id) ?? true,
                  let v = checked(String(decoding: line[(space + 1)...], as: UTF8.self)) else { continue }
            out[id] = v
        }
        return out
    }

    /// The validators kept beside the archive at `path`, if they are the archive's (`token`).
    public static func read(for path: String, token: String?) -> [UInt64: String] {
        guard let token, let data = try? FileIO.read(file(for: path), limit: 1 << 30),
              let newline = data.firstIndex(of: 0x0A),
              String(decoding: data[data.startIndex..<newline], as: UTF8.self) == magic + token else { return [:] }
        return parse(data[(newline + 1)...], known: nil)
    }

    /// Writes `validators` beside the archive that will be at `path`, under `token`, before
    /// the archive itself is renamed into place. Nothing (and any old file gone) when empty.
    public static func write(_ validators: [UInt64: String], for path: String, token: String) throws {
        guard !validators.isEmpty else { unlink(file(for: path)); return }
        let data = Data(Array((magic + token + "\n").utf8) + lines(validators))
        do { try AtomicFile.write(data, to: URL(fileURLWithPath: file(for: path))) } catch {
            let text = "\(error)"
            throw text.contains(String(cString: strerror(ENOSPC))) ? ExtractError.diskFull(text) : ExtractError.failed(text)
        }
    }

    /// A fresh token: 16 hex digits from the system's randomness.
    public static func newToken() -> String { String(UInt64.random(in: 1...UInt64.max), radix: 16) }
}
