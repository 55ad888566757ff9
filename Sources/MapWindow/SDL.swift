import CSDL2
import CXlib
import FoundationEssentials
import Glibc
import MapTiles
import Dispatch
import MapRender
import Platform

public struct SDLError: Error, CustomStringConvertible {
    public let description: String
    public init(_ what: String) {
        description = "\(what): \(String(cString: SDL_GetError()))"
    }

    public init(message: String) { description = message }
}

/// SDL's process-wide state: initialised once, with the video driver chosen as DESIGN.md says.
public enum SDL {
    // SDL's state is touched by the thread that runs SDL only (the main thread, SDL's rule).
    nonisolated(unsafe) private static var videoReady = false
    /// Who the program is to the desktop, and whether SDL may take its signals: the app's to
    /// decide, before its first window (`identity`).
    public struct Identity: Sendable {
        /// The application id: the .desktop file's name, the Wayland app_id and the X11 window
        /// class, so that docks and task switchers show the app's icon for its window (nil:
        /// SDL's default).
        public var appID: String?
        /// The name SDL gives the app (its audio and screensaver requests).
        public var name: String?
        /// SIGTERM (logout) and SIGINT quit the frame loop the normal way (an SDL_QUIT event),
        /// so the app saves; false leaves the signals alone.
        public var quitsOnSignals: Bool

        public init(appID: String? = nil, name: String? = nil, quitsOnSignals: Bool = false) {
            self.appID = appID
            self.name = name
            self.quitsOnSignals = quitsOnSignals
        }
    }

    /// Set by the app before its first window; the library claims no name and no signal.
    nonisolated(unsafe) public static var identity = Identity() // set by the app before its first window, on SDL's thread

    /// The drivers to try, in order: the user's choice, else Wayland inside a Wayland session
    /// (SDL 2.26 would pick X11 there), else X11. Never SDL's invisible fallbacks (offscreen,
    /// dummy), which would leave a window nobody can see running forever.
    public static func videoDriverCandidates(environment env: [String: String]) -> [String] {
        if let chosen = env["SDL_VIDEODRIVER"], !chosen.isEmpty { return [chosen] }
        var out: [String] = []
        if let wl = env["WAYLAND_DISPLAY"], !wl.isEmpty { out.append("wayland") }
        if let x = env["DISPLAY"], !x.isEmpty { out.append("x11") }
        return out
    }

    public static func initVideo() throws {
        guard !videoReady else { return }
        SDL_SetHint(SDL_HINT_RENDER_SCALE_QUALITY, "linear")
        SDL_SetHint(SDL_HINT_NO_SIGNAL_HANDLERS, "1")
        if let name = identity.name { SDL_SetHint("SDL_APP_NAME", name) }
        if let appID = identity.appID {
            // SDL 2.26 reads these two from the environment (as hints they are ignored).
            setenv("SDL_VIDEO_WAYLAND_WMCLASS", appID, 0)
            setenv("SDL_VIDEO_X11_WMCLASS", appID, 0)
        }
        let candidates = videoDriverCandidates(environment: ProcessInfo.processInfo.environment)
        guard !candidates.isEmpty else {
            // TRANSLATORS: WAYLAND_DISPLAY and DISPLAY are environment variables' names.
            throw SDLError(message: tr("no display to open a window on (neither WAYLAND_DISPLAY nor DISPLAY is set)"))
        }
        var failures: [String] = []
        for driver in candidates {
            SDL_SetHint(SDL_HINT_VIDEODRIVER, driver)
            // Before SDL_Init: SDL keeps the handler it finds and hands it every error after
            // its own safety net, and puts it back at SDL_Quit — which is when a stale
            // wake-up's error is finally read (closing SDL's second X connection).
            if driver == "x11" { meridian_tolerate_stale_wakeups() }
            if SDL_Init(UInt32(SDL_INIT_VIDEO | SDL_INIT_EVENTS | SDL_INIT_TIMER)) == 0 {
                videoReady = true
                if identity.quitsOnSignals { quitOnSignals() }
                return
            }
            failures.append("\(driver): \(String(cString: SDL_GetError()))")
            SDL_Quit()
        }
        // TRANSLATORS: %@ lists each video driver tried with SDL's reason ("wayland: …; x11: …").
        throw SDLError(message: tr("cannot open a display (%@)", failures.joined(separator: "; ")))
    }

    nonisolated(unsafe) private static var signalSources: [DispatchSourceSignal] = [] // SDL's thread only (made once, before the first window)

    /// SIGTERM (logout) and SIGINT become an SDL_QUIT event, so the app quits the normal way
    /// and saves. SDL's own handlers are off: the signal may land on a tile worker, which
    /// would leave the frame loop asleep in SDL_WaitEvent; SDL_PushEvent wakes it.
    private static func quitOnSignals() {
        guard signalSources.isEmpty else { return }
        for sig in [SIGTERM, SIGINT] {
            signal(sig, SIG_IGN)
            let src = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            src.setEventHandler {
                var e = SDL_Event()
                e.type = SDL_QUIT.rawValue
                SDL_PushEvent(&e)
            }
            src.resume()
            signalSources.append(src)
        }
    }

    public static var videoDriver: String {
        SDL_GetCurrentVideoDriver().map { String(cString: $0) } ?? "none"
    }

    public static func quit() {
        XRenderFrame.closeAll()
        if videoReady { SDL_Quit(); videoReady = false }
    }
}

/// An SDL renderer: the window's GPU one. It keeps the window alive (`target`), so SDL
/// objects always die in the right order: textures (each keeps its device), then the
/// renderer, then the window. What it does with textures is in SDLRenderer+Textures.swift.
public final class SDLRenderer {
    public let raw: OpaquePointer
    private let target: AnyObject?

    /// The channel order its textures keep: OpenGL stores RGBA bytes and would convert
    /// ARGB pixels one by one inside every upload.
    public let textureOrder: Bitmap.ChannelOrder
    /// The SDL pixel format of `textureOrder`.
    let textureFormat: UInt32

    init(raw: OpaquePointer, target: AnyObject?) {
        self.raw = raw
        self.target = target
        var info = SDL_RendererInfo()
        SDL_GetRendererInfo(raw, &info)
        let name = info.name.map { String(cString: $0) } ?? ""
        textureOrder = name.hasPrefix("opengl") ? .abgr : .argb
        textureFormat = textureOrder == .abgr ? SDL_PIXELFORMAT_ABGR8888.rawValue : SDL_PIXELFORMAT_ARGB8888.rawValue
    }

    deinit { SDL_DestroyRenderer(raw) }

    public var name: String {
        var info = SDL_RendererInfo()
        SDL_GetRendererInfo(raw, &info)
        return info.name.map { String(cString: $0) } ?? "?"
    }

    public var outputSize: (width: Int, height: Int) {
        var w: Int32 = 0, h: Int32 = 0
        SDL_GetRendererOutputSize(raw, &w, &h)
        return (Int(w), Int(h))
    }
}
