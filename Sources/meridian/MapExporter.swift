import FoundationEssentials
import Glibc
import MapChrome
import MapCore
import MapGeometry
import MapRender
import MapWindow
import MeridianKit
import Platform

/// Ctrl+E and Ctrl+P in the window. Export saves the view as it is on screen (its size, its
/// centre and zoom, without the buttons) to a file chosen in the desktop's file chooser, as
/// PDF, SVG or PNG by the name's extension. Print lays the view on an A4 sheet (turned to the
/// window's shape, with the stated scale and a north arrow) and hands it to the desktop's
/// print dialog, or, with no print service, offers to save that PDF. The page is drawn on a
/// worker: the window goes on, a notice says when the file is there.
final class MapExporter: @unchecked Sendable { // `busy` under `lock`; `host` on the frame thread only, workers use `handle`
    /// Touched on the frame thread only (export and print start there); workers and the
    /// portal's answers reach the map through `handle`.
    private unowned let host: MapHost
    private let handle: MapHostHandle
    private let lock = Lock()
    private var busy = false

    init(host: MapHost) {
        self.host = host
        handle = host.handle
    }

    /// The file chooser's formats: (what, glob).
    static var filters: [(String, String)] {
        [
            // TRANSLATORS: a kind of file in the file chooser's list of formats (filters).
            (tr("PDF document"), "*.pdf"),
            // TRANSLATORS: a kind of file in the file chooser's list of formats (filters).
            (tr("SVG drawing"), "*.svg"),
            // TRANSLATORS: a kind of file in the file chooser's list of formats (filters).
            (tr("PNG picture"), "*.png"),
        ]
    }

    /// Ctrl+E: where to, then the page.
    func export() {
        guard begin() else { return }
        ask(name: "map.pdf", sheet: false)
    }

    /// Ctrl+P: the sheet as a PDF, then the print dialog; with no print service, the PDF is
    /// offered to be saved instead.
    func print() {
        guard begin() else { return }
        let runtime = ProcessInfo.processInfo.environment["XDG_RUNTIME_DIR"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? "/tmp"
        let temporary = runtime + "/meridian-print-\(getpid()).pdf"
        draw(to: temporary, sheet: true) { [self] ok in
            guard ok else { end(); return }
            // TRANSLATORS: the title of the printed document (the print dialog and the printer's queue show it).
            PortalPrint.print(title: trc("print job", "Map"), pdf: temporary) { [self] outcome in
                handle.perform { [self] host in
                    switch outcome {
                    case .printed: host.showNotice(tr("The map went to the printer"))
                    case .cancelled: break
                    case let .unavailable(reason):
                        // TRANSLATORS: %@ is the system's reason (from D-Bus), said on the terminal.
                        warn(tr("no print service: %@", reason))
                        host.showNotice(tr("There is no print service here: save the page as a PDF and print that"))
                        unlink(temporary)
                        ask(name: "map.pdf", sheet: true)
                        return
                    }
                    unlink(temporary)
                    end()
                }
            }
        }
    }

    private func begin() -> Bool {
        lock.lock(); defer { lock.unlock() }
        if busy { host.showNotice(tr("A page is being made already")); return false }
        busy = true
        return true
    }

    private func end() {
        lock.lock(); busy = false; lock.unlock()
    }

    /// The file chooser, then the page into the file chosen; with no chooser, a file in the
    /// home folder, said where.
    private func ask(name: String, sheet: Bool) {
        let title = sheet
            // TRANSLATORS: the file chooser's title: where to save the page to print (there is no print service).
            ? tr("Save the page")
            // TRANSLATORS: the file chooser's title: where to export the map (Ctrl+E).
            : tr("Export the map")
        let filters = Self.filters
        PortalFileChooser.save(title: title, name: name, filters: sheet ? [filters[0]] : filters) { [self] outcome in
            handle.perform { [self] host in
                switch outcome {
                case let .chosen(paths):
                    guard let chosen = paths.first else { end(); return }
                    let path = PagePrinter.Format(path: chosen) == nil ? chosen + ".pdf" : chosen
                    draw(to: path, sheet: sheet) { [self] ok in
                        // TRANSLATORS: %1$@ is the file's path, %2$@ its size (“1.2 MB”).
                        if ok { handle.perform { $0.showNotice(tr("Saved the map as %1$@ (%2$@)", path, SaveAreaLayer.bytes(UInt64(max(0, FileIO.fileSize(path)))))) } }
                        end()
                    }
                case let .unavailable(reason):
                    // TRANSLATORS: %@ is the system's reason (from D-Bus), said on the terminal.
                    warn(tr("no file chooser: %@", reason))
                    let path = FileIO.homeDirectory + "/map-\(Int(saturating: WallClock.now)).pdf"
                    draw(to: path, sheet: sheet) { [self] ok in
                        if ok { handle.perform { $0.showNotice(tr("There is no file chooser here: the map is saved as %@", path)) } }
                        end()
                    }
                }
            }
        }
    }

    /// Draws the page on a worker from the session as it is now (called on the window's
    /// thread); `done` hears whether the file is there.
    private func draw(to path: String, sheet: Bool, done: @escaping @Sendable (Bool) -> Void) {
        var session = host.session
        session.removeChrome()
        // The page places its labels with a labels layer of its own: the copy would otherwise
        // share the window's memory of what it placed and faded.
        if session.scene.showsLabels { session.scene.modify(LabelsLayer.self, default: LabelsLayer()) { $0.detach() } }
        let view = session.camera.viewportSize
        let layout: PrintLayout
        if sheet {
            layout = (try? PrintLayout(paper: view.width > view.height ? "a4,landscape" : "a4")) ?? PrintLayout(width: view.width, height: view.height)
        } else {
            layout = PrintLayout(width: view.width, height: view.height)
        }
        let format = PagePrinter.Format(path: path) ?? .pdf
        let k = format == .png ? session.camera.pixelRatio : 1
        session.resize(to: ScreenSize(width: layout.mapFrame.width, height: layout.mapFrame.height), pixelRatio: k)
        // The host's tile layers as the session shows them (the session's copy says which show).
        let stack = host.stack, t = host.clock.now
        host.showNotice(tr("Making the page… (loading the map)"))
        // The session is this thread's copy (a value); the host is reached only by notices.
        let job = UncheckedSendable(session), host = host.handle
        startThread(name: "export") {
            var session = job.value
            do {
                let r = try OffscreenRenderer(pixelWidth: Int(saturating: (layout.mapFrame.width * k).rounded()),
                                              pixelHeight: Int(saturating: (layout.mapFrame.height * k).rounded()), pixelRatio: k)
                try r.render(&session, stack: stack, at: t, timeout: 60)
                let page = PageRenderer(stack: stack, overlays: session.tileOverlays)
                // The share drawn, a few times a second at most (a dense sheet takes a while).
                var said = MonotonicClock.now
                try PagePrinter.write(r.lastDrawList, with: page, layout: layout, format: format, pixelRatio: k,
                                      camera: session.camera, to: path) { share in
                    guard MonotonicClock.now - said > 0.25, share < 1 else { return }
                    said = MonotonicClock.now
                    // TRANSLATORS: %d is the share of the page drawn, in percent.
                    host.showNotice(tr("Making the page… %d %%", Int(saturating: share * 100)))
                }
                done(true)
            } catch {
                host.showNotice(tr("Cannot make the page: %@", error))
                done(false)
            }
        }
    }
}
