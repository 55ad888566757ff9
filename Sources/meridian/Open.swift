import ArgumentParser
import Foundation
import MapCore
import MapData
import MapGeometry
import MapWindow

/// Opens the map window (the default command).
struct Open: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "open", abstract: "Open the map window (default).")

    @OptionGroup var view: ViewOptions
    @OptionGroup var overlays: OverlayOptions

    @Option(name: .long, help: ArgumentHelp("Window size in points.", valueName: "WxH"))
    var size = WindowSize(width: 1280, height: 800)

    @Option(name: .long, help: ArgumentHelp("The GeoJSON file pins are loaded from and saved to (default: $XDG_DATA_HOME/meridian/pins.geojson).", valueName: "FILE"))
    var pins: String?

    @Flag(name: .long, help: .hidden)
    var exitAfterFirstPresent = false

    @Flag(name: .long, help: .hidden)
    var exitWhenDrawn = false

    /// Bench runs leave no state behind.
    private var isBenchRun: Bool { exitAfterFirstPresent || exitWhenDrawn }

    func run() throws {
        let stateURL = ViewState.defaultURL()
        var saved: ViewState?
        do { saved = try ViewState.load(from: stateURL) } catch { warn("\(error); starting from the default view") }
        let center = view.center ?? saved?.coordinate ?? ViewOptions.defaultCenter
        let zoom = view.zoom ?? saved?.zoom ?? ViewOptions.defaultZoom
        let last = try showWindow(camera: Camera(center: center, zoom: zoom, viewportSize: size.screenSize))
        // Every SDL object is gone by now; only then may SDL shut down.
        SDL.quit()
        if !isBenchRun {
            do { try ViewState(center: last.centerCoordinate, zoom: last.zoom).save(to: stateURL) } catch {
                warn("could not save the view: \(error)")
            }
        }
    }

    /// Loads the pins file into the window and saves it after every change; returns the saver
    /// (nil when the file must not be written: it could not be read nor moved aside).
    private func loadPins(into host: MapHost) -> PinSaver? {
        let file = PinFile(url: pins.map { URL(fileURLWithPath: $0) } ?? PinFile.defaultURL())
        let loaded = file.load()
        host.pins = loaded.pins
        if let first = loaded.problems.first {
            for p in loaded.problems.dropFirst() { warn(p) }
            let more = loaded.problems.count > 1 ? " (and \(loaded.problems.count - 1) more problems, listed on stderr)" : ""
            host.showNotice(first + more)
        }
        let frameLog = ProcessInfo.processInfo.environment["MERIDIAN_FRAME_LOG"] != nil
        guard !loaded.mustNotSave else { return nil }
        let saver = PinSaver(file: file, onError: { [weak host] in host?.showNotice($0) })
        host.onPinEvent = { [unowned host] event in
            if frameLog { FileHandle.standardError.write(Data("pin \(event)\n".utf8)) }
            if event.changesPins { saver.save(host.pins) }
        }
        return saver
    }

    /// Runs the window until the user quits; returns the last camera.
    private func showWindow(camera: Camera) throws -> Camera {
        let window: SDLWindow
        do {
            window = try SDLWindow(title: "Meridian", width: size.width, height: size.height)
        } catch {
            warn("\(error)")
            throw ExitCode(1)
        }
        if ProcessInfo.processInfo.environment["MERIDIAN_REPORT_DRIVER"] != nil {
            warn("video driver: \(SDL.videoDriver), renderer: \(window.renderer.name)")
        }
        let source = try view.makeSource()
        let host = try MapHost(window: window, camera: camera, source: source, background: view.background(for: source))
        host.circles = overlays.circles
        // The demo location (no overlay options) sits where the window first looks.
        host.location = overlays.location(demoAt: camera.centerCoordinate)
        let saver = loadPins(into: host)
        if exitAfterFirstPresent { host.onFirstPresent = { [unowned host] in host.requestQuit() } }
        if exitWhenDrawn { host.onFullyDrawn = { [unowned host] in host.requestQuit() } }
        host.run()
        saver?.flush()
        return host.camera
    }
}
