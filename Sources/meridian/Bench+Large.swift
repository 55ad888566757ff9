import MapWindow
import Platform

extension Bench {
    /// The zoom script in large windows drawn in software (no GPU): a 1440p and a 4K screen,
    /// drawn as `software` chooses (the app itself, above `SDLWindow.serverDrawnLimit`), and
    /// by the X server (RENDER) regardless, for comparison.
    /// The display must be at least as large (make bench's private Xvfb is 3840×2160).
    func largeWindowRows() throws -> [Row] {
        var rows: [Row] = []
        for (w, h) in [(2560, 1440), (3840, 2160)] {
            for forced in [false, true] {
                let (host, start) = try benchWindow(width: w, height: h, renderer: .software)
                if forced { host.window.serverDrawnLimit = .max }
                let run = zoomScript(host, from: start)
                let by = host.window.serverDraws ? "X server" : "app"
                rows += frameRows("zoom script \(w)×\(h) software (\(by)\(forced ? ", forced" : "")):", run, period: host.clock.period, withIntervals: true)
            }
        }
        return rows
    }
}
