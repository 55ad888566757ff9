import CSystem
import Glibc

/// Why a program could not be started.
public struct SubprocessError: Error, CustomStringConvertible, Sendable {
    public let program: String
    public let reason: String
    /// The errno posix_spawn gave.
    public let code: Int32
    // TRANSLATORS: %1$@ is a program's name, %2$@ the system's reason.
    public var description: String { tr("cannot start %1$@: %2$@", program, reason) }
    /// The program is not there (or may not be run): not installed, rather than the system
    /// out of processes or files.
    public var isMissing: Bool { code == ENOENT || code == EACCES || code == ENOTDIR }
}

/// A program run as a process of its own (posix_spawn): the field's programs — Routino's,
/// osmium — are run rather than linked, so that their licences stay theirs and a crash of
/// theirs is not ours. Its output goes to files (the caller reads them once it has ended),
/// its working directory is the caller's choice (programs that write beside themselves
/// write there), and only this object signals it, by its own id.
public final class Subprocess: @unchecked Sendable { // `status` and `ended` under `lock`
    public let pid: pid_t
    private let lock = Lock()
    private var status: Int32?
    /// The program has ended (it may not be reaped yet): it is not to be signalled, whose id
    /// the system may give to another process once it is reaped.
    private var ended = false

    /// Starts `path` with `arguments` in `directory` (nil: this process's), its standard output
    /// and error written to the files named (nil: /dev/null), with this process's environment.
    public init(_ path: String, _ arguments: [String], directory: String? = nil, stdout: String? = nil, stderr: String? = nil) throws(SubprocessError) {
        func cStrings(_ list: [String]) -> [UnsafeMutablePointer<CChar>?] { list.map { strdup($0) } + [nil] }
        let argv = cStrings([path] + arguments)
        defer { for p in argv { free(p) } }
        var pid = pid_t()
        let rc = argv.withUnsafeBufferPointer { a in meridian_spawn(&pid, path, a.baseAddress, nil, directory, stdout, stderr) }
        guard rc == 0 else { throw SubprocessError(program: path, reason: FileIO.reason(rc), code: rc) }
        self.pid = pid
    }

    deinit {
        // A process never waited for would stay a zombie: end it and reap it.
        if status == nil { terminate(); wait() }
    }

    /// Waits for the program to end: its exit status, or 128 + the signal that ended it.
    @discardableResult
    public func wait() -> Int32 { waitMeasuring().status }

    /// As `wait`, with the peak resident memory of the program in bytes.
    public func waitMeasuring() -> (status: Int32, peakRSS: Int) {
        lock.lock()
        if let status { lock.unlock(); return (status, 0) }
        lock.unlock()
        // Waited for without reaping first, so that `terminate` never signals an id the system
        // has given to another process since.
        var info = siginfo_t()
        while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) < 0 && errno == EINTR {}
        lock.lock(); ended = true; lock.unlock()
        var raw: Int32 = 0
        var usage = rusage()
        var rc: pid_t
        repeat { rc = wait4(pid, &raw, 0, &usage) } while rc < 0 && errno == EINTR
        // WIFEXITED / WEXITSTATUS, spelled out (they are C macros).
        let code: Int32 = rc < 0 ? 127 : (raw & 0x7f == 0 ? (raw >> 8) & 0xff : 128 + (raw & 0x7f))
        lock.lock(); status = code; lock.unlock()
        return (code, usage.ru_maxrss * 1024)
    }

    /// Asks the program to end (SIGTERM), if it has not ended and been waited for already.
    public func terminate() {
        lock.lock(); defer { lock.unlock() }
        if !ended { kill(pid, SIGTERM) }
    }

    /// The full path of `program` on `PATH` (`environment`'s, else /usr/bin:/bin), or nil.
    public static func find(_ program: String, environment: [String: String]) -> String? {
        if program.contains("/") { return access(program, X_OK) == 0 ? program : nil }
        let path = environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for dir in path.split(separator: ":") where !dir.isEmpty {
            let candidate = "\(dir)/\(program)"
            if access(candidate, X_OK) == 0, !FileIO.isDirectory(candidate) { return candidate }
        }
        return nil
    }
}
