import Platform

/// A picture in a `TextureDevice`'s memory: pixels are uploaded into it, and frames draw
/// from it. A final class holding the device's own handle, so that a frame's loops read it
/// with no dispatch. It keeps its device alive: a texture goes before its device.
package final class DeviceTexture {
    /// The device's own (SDL's renderer: an SDL_Texture).
    package let handle: OpaquePointer
    package let width: Int
    package let height: Int
    private let device: any TextureDevice
    package var byteCount: Int { width * height * 4 }

    package init(handle: OpaquePointer, width: Int, height: Int, device: any TextureDevice) {
        self.handle = handle
        self.width = width
        self.height = height
        self.device = device
    }

    deinit { device.destroy(handle) }
}
