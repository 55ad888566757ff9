import FoundationEssentials
import Glibc
import Platform

/// Opens web pages in the desktop's browser (`xdg-open`), when there is one.
enum Browser {
    /// The opener: `$MERIDIAN_BROWSER` (tests point it at a script), else xdg-open on the PATH.
    static func opener(environment env: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        if let b = env["MERIDIAN_BROWSER"], b.hasPrefix("/") { return FileIO.exists(b) ? b : nil }
        let dirs = (env["PATH"] ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":")
        return dirs.map { "\($0)/xdg-open" }.first { access($0, X_OK) == 0 }
    }

    /// Opens `url` (http or https only) without waiting for the browser; `fail` hears, on
    /// another thread, what went wrong.
    static func open(_ url: String, fail: @escaping @Sendable (String) -> Void) {
        let lower = url.lowercased()
        guard lower.hasPrefix("https://") || lower.hasPrefix("http://") else { fail(tr("not a web address: %@", url)); return }
        guard let opener = opener() else { fail(tr("No browser found to open %@", url)); return }
        let env = ProcessInfo.processInfo.environment
        startThread(name: "browser") {
            // The child is reaped here, so it never lingers as a zombie.
            do {
                let status = try spawnAndWait(opener, [url], env: env)
                // TRANSLATORS: %1$@ is a web address, %2$@ the program that opens it (xdg-open), %3$@ its exit status (a number).
                if status != 0 { fail(tr("The browser could not open %1$@ (%2$@ exited with %3$@)", url, opener, status)) }
            } catch {
                fail(tr("The browser could not open %1$@: %2$@", url, error))
            }
        }
    }
}
