import CSDL2
import FoundationEssentials
import Glibc
import MapCore

/// The frame clock of DESIGN.md: presents are stamped with the performance counter, the period
/// is the median of recent present intervals (the display's refresh rate is only a hint), and
/// frames are timed for when they will be seen: last present + period. Where presents come
/// back at once (no real vsync: software renderer, some drivers) it paces the loop itself.
public final class VsyncClock: FrameClock {
    private let frequency = Double(SDL_GetPerformanceFrequency())
    private let origin = SDL_GetPerformanceCounter()
    private var lastPresent: Double?
    private var intervals: [Double] = []
    private let hint: Double

    public init(refreshRateHint: Double = 0) {
        hint = refreshRateHint >= 24 && refreshRateHint <= 360 ? 1 / refreshRateHint : 1 / 60.0
    }

    public var now: Double { Double(SDL_GetPerformanceCounter() - origin) / frequency }

    /// Seconds between presents: median of recent intervals, else the hint.
    public var period: Double {
        guard intervals.count >= 5 else { return hint }
        let m = intervals.sorted()[intervals.count / 2]
        return min(max(m, 1 / 360.0), 1 / 24.0)
    }

    public func frameTime() -> Double {
        let t = now, p = period
        guard let last = lastPresent else { return t + p }
        // Keep the vsync phase even after idling: the next slot after now.
        let k = max(1, ((t - last) / p).rounded(.up))
        return last + k * p
    }

    /// Converts an SDL event timestamp (ms since SDL_Init) to this clock.
    public func eventTime(sdlTicks: UInt32) -> Double {
        let ticksNow = Double(SDL_GetTicks()) / 1000
        return now - max(0, ticksNow - Double(sdlTicks) / 1000)
    }

    public func didPresent() {
        var t = now
        if let last = lastPresent {
            let dt = t - last
            // Presents that return almost at once mean no vsync: sleep to the period ourselves.
            if dt < hint * 0.5 {
                let wait = hint - dt
                if wait > 0 { usleep(useconds_t(wait * 1_000_000)) }
                t = now
            }
            let interval = t - last
            // Gaps after idling are not intervals between consecutive frames.
            if interval < 4 * hint {
                intervals.append(interval)
                if intervals.count > 31 { intervals.removeFirst() }
            }
        }
        lastPresent = t
    }

}
