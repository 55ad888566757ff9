import CSDL2
import Foundation

public struct SDLError: Error, CustomStringConvertible {
    public let description: String
    public init(_ what: String) {
        description = "\(what): \(String(cString: SDL_GetError()))"
    }
}

/// SDL's process-wide state: initialised once, with the video driver chosen as DESIGN.md says.
public enum SDL {
    private static var videoReady = false

    /// Prefers Wayland inside a Wayland session (SDL 2.26 would pick X11), unless the user chose.
    public static func initVideo() throws {
        guard !videoReady else { return }
        let env = ProcessInfo.processInfo.environment
        SDL_SetHint(SDL_HINT_VIDEO_X11_NET_WM_BYPASS_COMPOSITOR, "0")
        SDL_SetHint(SDL_HINT_RENDER_SCALE_QUALITY, "linear")
        SDL_SetHint("SDL_APP_NAME", "Meridian")
        SDL_SetHint("SDL_VIDEO_WAYLAND_WMCLASS", "meridian")
        SDL_SetHint("SDL_VIDEO_X11_WMCLASS", "meridian")
        if env["SDL_VIDEODRIVER"] == nil, let wl = env["WAYLAND_DISPLAY"], !wl.isEmpty {
            if SDL_VideoInit("wayland") == 0 {
                SDL_VideoQuit()
                SDL_SetHint(SDL_HINT_VIDEODRIVER, "wayland")
            } else {
                SDL_SetHint(SDL_HINT_VIDEODRIVER, "x11")
            }
        }
        guard SDL_Init(UInt32(SDL_INIT_VIDEO | SDL_INIT_EVENTS | SDL_INIT_TIMER)) == 0 else {
            throw SDLError("cannot open a display (is DISPLAY or WAYLAND_DISPLAY set?)")
        }
        videoReady = true
    }

    public static var videoDriver: String {
        SDL_GetCurrentVideoDriver().map { String(cString: $0) } ?? "none"
    }

    public static func quit() {
        if videoReady { SDL_Quit(); videoReady = false }
    }
}

/// An SDL texture, destroyed with its owner.
public final class SDLTexture {
    public let raw: OpaquePointer
    public let width: Int
    public let height: Int
    public var byteCount: Int { width * height * 4 }

    init(raw: OpaquePointer, width: Int, height: Int) {
        self.raw = raw
        self.width = width
        self.height = height
    }

    deinit { SDL_DestroyTexture(raw) }
}

/// An SDL renderer: the window's (GPU or software) or one drawing into a surface.
public final class SDLRenderer {
    public let raw: OpaquePointer
    private let owned: Bool

    init(raw: OpaquePointer, owned: Bool = true) {
        self.raw = raw
        self.owned = owned
    }

    deinit { if owned { SDL_DestroyRenderer(raw) } }

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

    /// Uploads ARGB pixels (straight alpha) as a blendable, linearly scaled texture.
    public func makeTexture(width: Int, height: Int, pixels: UnsafeRawPointer) throws -> SDLTexture {
        guard let t = SDL_CreateTexture(raw, SDL_PIXELFORMAT_ARGB8888.rawValue,
                                        Int32(SDL_TEXTUREACCESS_STATIC.rawValue), Int32(width), Int32(height)) else {
            throw SDLError("SDL_CreateTexture \(width)×\(height)")
        }
        SDL_UpdateTexture(t, nil, pixels, Int32(width * 4))
        SDL_SetTextureBlendMode(t, SDL_BLENDMODE_BLEND)
        SDL_SetTextureScaleMode(t, SDL_ScaleModeLinear)
        return SDLTexture(raw: t, width: width, height: height)
    }
}
