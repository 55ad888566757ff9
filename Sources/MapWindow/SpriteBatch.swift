import CSDL2
import FoundationEssentials
import Glibc
import MapCore
import MapRender
import Platform

/// Sprites that share a texture, drawn with one SDL_RenderGeometry call instead of one copy
/// each: thousands of pins or labels cost one draw, not thousands (on llvmpipe every draw
/// call has a fixed price). Opacity rides on the vertex colour.
struct SpriteBatch {
    private var texture: DeviceTexture?
    private var vertices: [SDL_Vertex] = []
    private var indices: [Int32] = []
    /// Draw calls issued, for the bench and tests.
    private(set) var draws = 0

    init() {
        vertices.reserveCapacity(4096)
        indices.reserveCapacity(6144)
    }

    /// Adds the `part` (unit fractions) of the `source` pixels of `tex`, placed at `dest`
    /// (device pixels) with `opacity`; a different texture draws what is pending first.
    mutating func add(_ tex: DeviceTexture, source s: TextureRect, part: UnitRect, dest d: SDL_Rect, opacity: UInt8, renderer: OpaquePointer) {
        if let t = texture, t !== tex { flush(renderer) }
        texture = tex
        let w = Double(tex.width), h = Double(tex.height)
        let sx = Double(s.x) + part.x * Double(s.w), sy = Double(s.y) + part.y * Double(s.h)
        let u0 = Float(sx / w), v0 = Float(sy / h)
        let u1 = Float((sx + part.width * Double(s.w)) / w), v1 = Float((sy + part.height * Double(s.h)) / h)
        let x0 = Float(d.x), y0 = Float(d.y), x1 = Float(d.x + d.w), y1 = Float(d.y + d.h)
        let c = SDL_Color(r: 255, g: 255, b: 255, a: opacity)
        let n = Int32(vertices.count)
        vertices.append(SDL_Vertex(position: SDL_FPoint(x: x0, y: y0), color: c, tex_coord: SDL_FPoint(x: u0, y: v0)))
        vertices.append(SDL_Vertex(position: SDL_FPoint(x: x1, y: y0), color: c, tex_coord: SDL_FPoint(x: u1, y: v0)))
        vertices.append(SDL_Vertex(position: SDL_FPoint(x: x1, y: y1), color: c, tex_coord: SDL_FPoint(x: u1, y: v1)))
        vertices.append(SDL_Vertex(position: SDL_FPoint(x: x0, y: y1), color: c, tex_coord: SDL_FPoint(x: u0, y: v1)))
        indices += [n, n + 1, n + 2, n, n + 2, n + 3]
    }

    /// Draws what is pending (call before anything else is drawn, to keep paint order).
    mutating func flush(_ renderer: OpaquePointer) {
        guard let t = texture, !vertices.isEmpty else { texture = nil; return }
        vertices.withUnsafeBufferPointer { v in
            indices.withUnsafeBufferPointer { i in
                _ = SDL_RenderGeometry(renderer, t.handle, v.baseAddress, Int32(v.count), i.baseAddress, Int32(i.count))
            }
        }
        draws += 1
        vertices.removeAll(keepingCapacity: true)
        indices.removeAll(keepingCapacity: true)
        texture = nil
    }
}
