import FoundationEssentials
import Glibc
import Platform

public struct FileWriteError: Error, CustomStringConvertible {
    public let path: String
    public let reason: String
    public var description: String { "\(path): \(reason)" }
}

/// Writes a file so that readers see the old version or the new one, never a torn mix:
/// a temporary file in the same directory, fsync, rename over the target, fsync the directory.
public enum AtomicFile {
    public static func write(_ data: Data, to url: URL) throws {
        let dir = url.deletingLastPathComponent()
        if let problem = FileIO.makeDirectories(dir.path) {
            throw FileWriteError(path: dir.path, reason: "cannot create directory (\(problem))")
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
        guard rename(tmp.path, url.path) == 0 else {
            let r = String(cString: strerror(errno))
            unlink(tmp.path)
            throw FileWriteError(path: url.path, reason: "rename: " + r)
        }
        let dfd = open(dir.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if dfd >= 0 { fsync(dfd); close(dfd) }
    }
}
