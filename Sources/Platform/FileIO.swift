import FoundationEssentials
import CSystem
import Glibc

/// Why a file could not be read, in the C library's words ("No such file or directory").
public struct FileReadError: Error, CustomStringConvertible, Sendable {
    public let path: String
    public let reason: String
    public var description: String { "\(path): \(reason)" }
}

/// Reading files with POSIX calls: bounded (a tile or a track file is never allowed to be
/// 50 GB in memory) and with errno's reasons, which full Foundation's NSError used to carry.
public enum FileIO {
    public static func reason(_ code: Int32 = errno) -> String { String(cString: strerror(code)) }

    /// The whole file, at most `limit` bytes (more is an error, not a truncation).
    public static func read(_ path: String, limit: Int = 1 << 30) throws -> Data {
        try withOpenFile(path) { fd, st in try read(fd, st, path: path, limit: limit) }
    }

    /// Opens `path` for reading and gives `body` the descriptor and what fstat says of it.
    private static func withOpenFile<T>(_ path: String, _ body: (Int32, stat) throws -> T) throws -> T {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw FileReadError(path: path, reason: reason()) }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw FileReadError(path: path, reason: reason()) }
        return try body(fd, st)
    }

    /// The rest of the open file `fd` (`st` its fstat), at most `limit` bytes.
    private static func read(_ fd: Int32, _ st: stat, path: String, limit: Int) throws -> Data {
        // TRANSLATORS: after a path ("/home/me/maps: is a directory").
        guard (st.st_mode & S_IFMT) != S_IFDIR else { throw FileReadError(path: path, reason: tr("is a directory")) }
        // TRANSLATORS: after a file's path; %@ is a whole number of mebibytes.
        guard st.st_size <= limit else { throw FileReadError(path: path, reason: tr("larger than %@ MiB", limit >> 20)) }
        // A regular file is read straight into a buffer of its size: a 100 MB track read in
        // 64 KB pieces appended one by one was copied again and again as the buffer grew.
        var out = Data(count: st.st_size > 0 && (st.st_mode & S_IFMT) == S_IFREG ? Int(st.st_size) : 0)
        /// One read(2) into `buffer`, retried when a signal interrupts it; 0 at the end.
        func readSome(_ buffer: UnsafeMutableRawBufferPointer) throws -> Int {
            while true {
                let n = Glibc.read(fd, buffer.baseAddress, buffer.count)
                if n >= 0 { return n }
                if errno != EINTR { throw FileReadError(path: path, reason: reason()) }
            }
        }
        var filled = 0
        while filled < out.count {
            let n = try out.withUnsafeMutableBytes { try readSome(UnsafeMutableRawBufferPointer(rebasing: $0[filled...])) }
            if n == 0 { break }
            filled += n
        }
        if filled < out.count { out.removeSubrange(filled...) }
        // Whatever is left (a file that grew, or one that has no size: a pipe, /proc).
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = try chunk.withUnsafeMutableBytes { try readSome($0) }
            if n == 0 { return out }
            guard out.count + n <= limit else { throw FileReadError(path: path, reason: tr("larger than %@ MiB", limit >> 20)) }
            out.append(contentsOf: chunk[0..<n])
        }
    }

    /// The whole file, at most `limit` bytes; a regular file of `mapFrom` bytes or more is
    /// mapped, not copied (a 100 MB track is there in 10 ms instead of 130). Should the file
    /// shrink while mapped, the vanished part reads as zeros and `changedWhileMapped` says so.
    public static func readOrMap(_ path: String, limit: Int = 1 << 30, mapFrom: Int = 1 << 20) throws -> Data {
        try withOpenFile(path) { fd, st in
            // The same open file either way: mapped, or read when it cannot or need not be.
            guard (st.st_mode & S_IFMT) == S_IFREG, st.st_size >= mapFrom, st.st_size <= limit,
                  let base = meridian_map_file(fd, Int(st.st_size)) else { return try read(fd, st, path: path, limit: limit) }
            return Data(bytesNoCopy: base, count: Int(st.st_size), deallocator: .custom { p, n in meridian_unmap_file(p, n) })
        }
    }

    /// Whether the file under `data` (from `readOrMap`) shrank while it was mapped.
    public static func changedWhileMapped(_ data: Data) -> Bool {
        data.withUnsafeBytes { $0.baseAddress.map { meridian_mapping_changed($0) != 0 } ?? false }
    }

    /// Lets go of `range` of `data` (from `readOrMap`) once it has been read, when it is a
    /// mapping: it stops counting as resident and comes back from the file if touched again.
    public static func releaseMapped(_ base: UnsafeRawPointer, _ range: Range<Int>) {
        meridian_release_mapped(base, range.lowerBound, range.upperBound)
    }

    /// Bytes free for this user on the file system holding `path` (made or not: its nearest
    /// existing parent is asked); nil if it cannot be known.
    public static func freeBytes(at path: String) -> UInt64? {
        var p = path
        while !p.isEmpty, !exists(p) { p = String(p[..<(p.lastIndex(of: "/") ?? p.startIndex)]) }
        var st = statvfs()
        guard statvfs(p.isEmpty ? "/" : p, &st) == 0 else { return nil }
        return UInt64(st.f_bavail).multipliedReportingOverflow(by: UInt64(st.f_frsize)).partialValue
    }

    /// The size of the file at `path` in bytes, 0 if it cannot be known.
    public static func fileSize(_ path: String) -> Int {
        var st = stat()
        return stat(path, &st) == 0 ? Int(st.st_size) : 0
    }

    /// Removes `path` and everything under it (not following links); true when it is gone.
    @discardableResult
    public static func removeTree(_ path: String) -> Bool {
        _ = meridian_remove_tree(path)
        return !exists(path)
    }

    /// This process's resident memory now (Linux: /proc/self/statm), 0 if unknown.
    public static func residentBytes() -> Int {
        guard let text = try? read("/proc/self/statm", limit: 4096) else { return 0 }
        let fields = String(decoding: text, as: UTF8.self).split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]), pages >= 0, pages < Int.max / 65536 else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    public static func isDirectory(_ path: String) -> Bool {
        var st = stat()
        return stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR
    }

    public static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    /// `path` from the root: relative ones are taken from the working directory (for a
    /// program that runs elsewhere, or a key that must not depend on where it was said).
    public static func absolute(_ path: String) -> String {
        if path.hasPrefix("/") { return path }
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard let cwd = getcwd(&buffer, buffer.count) else { return path }
        return String(cString: cwd) + "/" + path
    }

    /// Creates `path` and its missing parents (mode 0755); nil on success, else errno's reason.
    public static func makeDirectories(_ path: String) -> String? {
        if isDirectory(path) { return nil }
        let parent = path.split(separator: "/", omittingEmptySubsequences: true).dropLast().joined(separator: "/")
        if !parent.isEmpty, let problem = makeDirectories((path.hasPrefix("/") ? "/" : "") + parent) { return problem }
        if mkdir(path, 0o755) == 0 || (errno == EEXIST && isDirectory(path)) { return nil }
        return reason()
    }

    /// An XDG base directory: `$variable` when it is an absolute path, else `fallback` in the
    /// home folder (`$HOME` when absolute, else the password database's). For example
    /// `userFolder("XDG_CACHE_HOME", else: ".cache", environment:)`.
    public static func userFolder(_ variable: String, else fallback: String, environment env: [String: String]) -> String {
        if let v = env[variable], v.hasPrefix("/") { return v }
        return home(environment: env) + "/" + fallback
    }

    /// The user's home: $HOME when it is absolute, else the password database's.
    public static func home(environment env: [String: String]) -> String {
        env["HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? homeDirectory
    }

    /// The user's home from the password database, for when $HOME is not set.
    public static var homeDirectory: String {
        guard let pw = getpwuid(getuid()), let dir = pw.pointee.pw_dir else { return "/" }
        return String(cString: dir)
    }

    /// Writes `text` to `path` (replacing it); false on failure. For diagnostics, not user data
    /// (that goes through MapData's AtomicFile).
    @discardableResult
    public static func writeText(_ text: String, to path: String) -> Bool {
        guard let f = fopen(path, "w") else { return false }
        defer { fclose(f) }
        return fputs(text, f) >= 0
    }

    /// Writes `bytes` to `path` (replacing it); false on failure. For tests and tools.
    public static func writeBytes(_ bytes: UnsafeRawBufferPointer, to path: String) -> Bool {
        guard let f = fopen(path, "wb") else { return false }
        defer { fclose(f) }
        return bytes.isEmpty || fwrite(bytes.baseAddress, 1, bytes.count, f) == bytes.count
    }

    /// Writes all of `bytes` to `fd`, going on after interruptions; false (with errno set)
    /// when the system refuses (a full disk).
    public static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Bool {
        var off = 0
        while off < bytes.count {
            let n = Glibc.write(fd, bytes.baseAddress! + off, bytes.count - off)
            if n < 0 { if errno == EINTR { continue }; return false }
            off += n
        }
        return true
    }

    /// Writes a line to standard error (messages for whoever started the app).
    public static func printError(_ line: String) {
        let text = line.hasSuffix("\n") ? line : line + "\n"
        // Straight to the descriptor: C's `stderr` is a global variable Swift 6 will not share.
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { writeAll(2, $0) }
    }
}
