import FoundationEssentials
import Platform

/// What draws the window: SDL's OpenGL renderer, or software: the X server with RENDER
/// (`XRenderCompositor`) where there is one, else the app itself (`PixelCompositor`).
///
/// Without a GPU, OpenGL is Mesa's llvmpipe: it compiles shaders with LLVM (some 55 MiB
/// resident) and rasterizes on extra threads, so a pulse over a still map costs ~10 s of CPU
/// every 10 s at 1920×1080 on a two-core machine where the software compositor, presenting
/// only what changed, needs ~1 s and ~70 MiB less. With a GPU, OpenGL wins.
public enum RendererChoice: String, CaseIterable, Sendable {
    /// The software compositor when there is no GPU to draw with, else OpenGL.
    case auto
    case gpu
    case software
    /// Software, always in the app's own memory (the X server only shows it).
    case pixels

    /// Whether the window draws in software. `hasRenderNode`: a DRM render node exists (a GPU
    /// Mesa can use). SDL 2.26 presents a software window by itself only on X11; on Wayland it
    /// would go through OpenGL anyway, so there auto keeps OpenGL.
    public func drawsInSoftware(videoDriver: String, hasRenderNode: Bool) -> Bool {
        switch self {
        case .gpu: return false
        case .software, .pixels: return true
        case .auto: return videoDriver == "x11" && !hasRenderNode
        }
    }

    /// A DRM render node (/dev/dri/renderD*) is present.
    public static var hasRenderNode: Bool {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/dev/dri")) ?? []
        return names.contains { $0.hasPrefix("renderD") }
    }
}
