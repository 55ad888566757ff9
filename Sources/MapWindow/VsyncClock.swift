import CSDL2
import FoundationEssentials
import Glibc
import Platform

/// The frame clock of DESIGN.md: presents are stamped with the performance counter, the period
/// is the median of recent present intervals (the display's refresh rate is only a hint), and
/// frames are timed for when they will be seen: last present + period.
///
/// Where presents come back at once (no real vsync: the software renderer, Xvfb, some
/// drivers) the clock paces the loop itself, on a grid of slots one period apart: a frame is
/// presented at its slot (`beforePresent`), a late one at once, and the grid does not move,
/// so one slow frame costs one slot, not the phase of every frame after it.
public final class VsyncClock {
    private let frequency = Double(SDL_GetPerformanceFrequency())
    private let origin = SDL_GetPerformanceCounter()
    private var lastPresent: Double?
    private var intervals: [Double] = []
    private let hint: Double
    /// Presents that block until the display takes the frame (real vsync). Until five
    /// presents tell, they are taken to block (no pacing of ours on top of the driver's).
    public private(set) var presentsBlock = true
    private var presentWalls: [Double] = []
    /// The self-paced grid's origin: slots are anchor + k · period.
    private var anchor: Double?

    public init(refreshRateHint: Double = 0) {
        hint = refreshRateHint >= 24 && refreshRateHint <= 360 ? 1 / refreshRateHint : 1 / 60.0
    }

    public var now: Double { Double(SDL_GetPerformanceCounter() - origin) / frequency }

    /// Seconds between presents: median of recent intervals (the hint until there are five,
    /// and always when the loop paces itself: what it measures then is its own pacing).
    public var period: Double {
        guard presentsBlock, intervals.count >= 5 else { return hint }
        let m = intervals.sorted()[intervals.count / 2]
        return min(max(m, 1 / 360.0), 1 / 24.0)
    }

    /// The slot of the frame being built: the next one after now.
    public func frameTime() -> Double {
        let t = now, p = period
        if !presentsBlock, let a = anchor, let last = lastPresent {
            // A frame begun a little after its slot (a late wake-up) is still that slot's,
            // presented at once, rather than held back a whole period.
            let k = max(((last - a) / p).rounded() + 1, ((t - a) / p - 0.25).rounded(.up))
            return a + k * p
        }
        guard let last = lastPresent else { return t + p }
        // Keep the vsync phase even after idling: the next slot after now.
        let k = max(1, ((t - last) / p).rounded(.up))
        return last + k * p
    }

    /// When the next frame should start being built so that it is ready `margin` before its
    /// slot: what arrives until then (a fix, the pointer) is in it.
    public func latchTime(margin: Double) -> Double? {
        guard let last = lastPresent else { return nil }
        let p = period
        if !presentsBlock, let a = anchor {
            // The slot after the one just presented.
            return a + (((last - a) / p).rounded(.down) + 1) * p - margin
        }
        return last + p - margin
    }

    /// Converts an SDL event timestamp (ms since SDL_Init) to this clock.
    public func eventTime(sdlTicks: UInt32) -> Double {
        let ticksNow = Double(SDL_GetTicks()) / 1000
        return now - max(0, ticksNow - Double(sdlTicks) / 1000)
    }

    /// Just before presenting the frame built for `slot`: where presents do not wait for
    /// vsync, waits until the slot.
    public func beforePresent(slot: Double) {
        guard !presentsBlock else { return }
        let wait = slot - now
        if wait > 0.0002 { usleep(useconds_t(saturating: min(wait, 0.1) * 1_000_000)) }
    }

    /// `wall`: how long the present call took.
    public func didPresent(wall: Double) {
        let t = now
        presentWalls.append(wall)
        if presentWalls.count > 15 { presentWalls.removeFirst() }
        if presentWalls.count >= 5 { presentsBlock = presentWalls.sorted()[presentWalls.count / 2] > 0.25 * hint }
        if let last = lastPresent {
            let interval = t - last
            // Gaps after idling are not intervals between consecutive frames.
            if interval < 4 * hint {
                intervals.append(interval)
                if intervals.count > 31 { intervals.removeFirst() }
            } else {
                anchor = nil
            }
        }
        // After idling (or at the start), the grid starts at this present.
        if anchor == nil { anchor = t }
        lastPresent = t
    }
}
