import CSystem
import FoundationEssentials
import Glibc
import Platform
import MapCore
import MapGraphics
import MapTiles

/// Rasterizes sprites (text with Pango, circles, pins with Cairo) on a worker thread, so the
/// frame thread only uploads finished pixels: a label costs ~0.3 ms to lay out and draw,
/// and a zoom into a new area wants dozens. The frame loop says what it wants each frame,
/// most important first; what it no longer wants is dropped from the queue; results wait
/// until the loop drains them, and `wake` tells an idle loop they are there.
package final class SpriteRasterizer: @unchecked Sendable {
    package struct Result {
        let key: SpriteKey
        /// Pixels in the atlas's channel order (straight alpha for a GPU atlas), or nil when the
        /// sprite cannot be drawn (not asked again).
        let bitmap: Bitmap?
    }

    private let pixelRatio: Double
    private let order: Bitmap.ChannelOrder
    private let straightAlpha: Bool
    private let wake: @Sendable () -> Void
    private let condition = Condition()
    private var queue: [SpriteKey] = []
    private var inFlight: SpriteKey?
    private var results: [Result] = []
    private var resultKeys = Set<SpriteKey>()
    private var started = false
    private var stopping = false

    /// `order`: the channel order of the atlas the sprites go into; `straightAlpha`: whether
    /// it blends straight alpha (SDL's textures) or premultiplied (the software compositor).
    init(pixelRatio: Double, order: Bitmap.ChannelOrder, straightAlpha: Bool, wake: @escaping @Sendable () -> Void) {
        self.pixelRatio = pixelRatio
        self.order = order
        self.straightAlpha = straightAlpha
        self.wake = wake
    }

    deinit { stop() }

    func stop() {
        condition.lock()
        stopping = true
        queue.removeAll()
        condition.broadcast()
        condition.unlock()
    }

    /// Starts the worker, which first loads fontconfig's configuration and caches (~100 ms,
    /// process-wide) while the first tiles load, so the first labels do not wait for it.
    package func start() {
        condition.lock(); defer { condition.unlock() }
        startLocked()
    }

    private func startLocked() {
        guard !started else { return }
        started = true
        startThread(name: "sprites") { [weak self] in
            // Sprites may wait a frame; frames may not wait for sprites (but the view's labels
            // must not starve on a busy desktop either).
            ThreadPriority.inView.apply()
            TextRasterizer.warmUp()
            self?.work()
        }
    }

    /// Replaces the queue with `keys` (minus what is being drawn or waits to be drained).
    package func want(_ keys: [SpriteKey]) {
        condition.lock()
        queue = keys.filter { $0 != inFlight && !resultKeys.contains($0) }
        if !queue.isEmpty {
            startLocked()
            condition.broadcast()
        }
        condition.unlock()
    }

    /// Sprites asked for are still queued or being drawn.
    package var isBusy: Bool {
        condition.lock(); defer { condition.unlock() }
        return !queue.isEmpty || inFlight != nil
    }

    package var hasResults: Bool {
        condition.lock(); defer { condition.unlock() }
        return !results.isEmpty
    }

    /// Takes the next finished sprite, oldest first.
    package func next() -> Result? {
        condition.lock(); defer { condition.unlock() }
        guard !results.isEmpty else { return nil }
        let r = results.removeFirst()
        resultKeys.remove(r.key)
        return r
    }

    private func work() {
        while true {
            condition.lock()
            while queue.isEmpty && !stopping { condition.wait() }
            if stopping { condition.unlock(); return }
            let key = queue.removeFirst()
            inFlight = key
            condition.unlock()

            var bitmap = try? SpritePainters.paint(key, pixelRatio: pixelRatio)
            if straightAlpha { bitmap?.unpremultiply() }
            bitmap?.convert(to: order)

            condition.lock()
            inFlight = nil
            results.append(Result(key: key, bitmap: bitmap))
            resultKeys.insert(key)
            condition.unlock()
            wake()
        }
    }
}
