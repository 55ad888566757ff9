import MapWindow

extension Bench {
    /// The zoom script in large windows drawn in software (no GPU): a 1440p and a 4K screen,
    /// drawn by the X server (RENDER) and by the app itself.
    /// The display must be at least as large (make bench's private Xvfb is 3840×2160).
    func largeWindowRows() throws -> [Row] {
        var rows: [Row] = []
        for (w, h) in [(2560, 1440), (3840, 2160)] {
            for renderer in [RendererChoice.software, .pixels] {
                let (host, start) = try benchWindow(width: w, height: h, renderer: renderer)
                let run = zoomScript(host, from: start)
                let by = host.window.serverFrame != nil ? "X server" : "app"
                rows += frameRows("zoom script \(w)×\(h) software (\(by)):", run, period: host.clock.period, withIntervals: true)
            }
        }
        return rows
    }
}
