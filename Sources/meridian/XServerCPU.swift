import FoundationEssentials
import Glibc
import Platform

/// The CPU the X server of $DISPLAY has used (a local Xvfb, Xorg or Xwayland the bench can
/// read in /proc): where the software path's frames are drawn now that the server draws
/// them, so the bench reports it beside the app's own.
struct XServerCPU {
    let pid: Int32

    /// nil when there is no local X server for $DISPLAY to be found.
    init?() {
        guard let display = ProcessInfo.processInfo.environment["DISPLAY"], display.hasPrefix(":") else { return nil }
        // ":99.0" → ":99"
        let name = String(display.split(separator: ".").first ?? Substring(display))
        let servers: Set<String> = ["Xvfb", "Xorg", "X", "Xwayland"]
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        for entry in entries {
            guard let pid = Int32(entry), let data = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline") else { continue }
            let args = data.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
            guard let first = args.first, servers.contains(String(first.split(separator: "/").last ?? "")), args.contains(name) else { continue }
            self.pid = pid
            return
        }
        return nil
    }

    /// User and system seconds so far; nil once it cannot be read.
    var seconds: Double? {
        guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/stat") else { return nil }
        let text = String(decoding: data, as: UTF8.self)
        // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
        guard let close = text.lastIndex(of: ")") else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 12, let u = Double(fields[11]), let s = Double(fields[12]) else { return nil }
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        return ticks > 0 ? (u + s) / ticks : nil
    }
}
