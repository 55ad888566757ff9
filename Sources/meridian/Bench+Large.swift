import MapWindow

extension Bench {
    /// The zoom script in large windows drawn in software (no GPU): a 1440p and a 4K screen.
    /// The display must be at least as large (make bench's private Xvfb is 3840×2160).
    func largeWindowRows() throws -> [Row] {
        var rows: [Row] = []
        for (w, h) in [(2560, 1440), (3840, 2160)] {
            let (host, start) = try benchWindow(width: w, height: h, renderer: .software)
            let run = zoomScript(host, from: start)
            rows += frameRows("zoom script \(w)×\(h) software", run, period: host.clock.period, withIntervals: true)
        }
        return rows
    }
}
