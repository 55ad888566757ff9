import FoundationEssentials
import Glibc

public struct FileWriteError: Error, CustomStringConvertible {
    public let path: String
    public let reason: String
    public var description: String { "\(path): \(reason)" }
    public init(path: String, reason: String) { self.path = path; self.reason = reason }
}

/// Writes a file so that readers see the old version or the new one, never a torn mix:
/// a temporary file in the same directory, fsync, rename over the target, fsync the directory.
public enum AtomicFile {
    public static func write(_ data: Data, to url: URL) throws {
        let dir = url.deletingLastPathComponent()
        if let problem = FileIO.makeDirectories(dir.path) {
            // TRANSLATORS: after a folder's path; %@ is the system's reason.
            throw FileWriteError(path: dir.path, reason: tr("cannot create directory (%@)", problem))
        }
        let tmp = dir.appendingPathComponent(".\(url.lastPathComponent).\(getpid()).tmp")
        let fd = open(tmp.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw FileWriteError(path: tmp.path, reason: String(cString: strerror(errno))) }
        var ok = data.withUnsafeBytes { FileIO.writeAll(fd, $0) }
        var reason = ok ? "" : String(cString: strerror(errno))
        if ok && fsync(fd) != 0 { ok = false; reason = "fsync: " + String(cString: strerror(errno)) }
        close(fd)
        guard ok else {
            unlink(tmp.path)
            throw FileWriteError(path: url.path, reason: reason)
        }
        try publish(tmp.path, as: url.path)
    }

    /// A hidden name beside `path` for writing it before `publish` (same folder, so the
    /// rename is atomic; "/" for a file at the root).
    public static func temporaryName(for path: String) -> String {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        let folder = parts.dropLast().joined(separator: "/")
        let prefix = parts.count == 1 ? "" : folder.isEmpty ? "/" : folder + "/"
        return prefix + ".\(parts.last ?? "").\(getpid()).tmp"
    }

    /// Renames the finished, synced file `temporary` to `path` (same directory) and syncs the
    /// directory, so the new name survives a power cut; `temporary` is removed on failure.
    public static func publish(_ temporary: String, as path: String) throws {
        guard rename(temporary, path) == 0 else {
            let r = String(cString: strerror(errno))
            unlink(temporary)
            throw FileWriteError(path: path, reason: "rename: " + r)
        }
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        let dir = parts.count == 1 ? "." : parts.dropLast().joined(separator: "/")
        let dfd = open(dir.isEmpty ? "/" : dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if dfd >= 0 { fsync(dfd); close(dfd) }
    }
}
