import Platform

/// When the window draws its next frame (DESIGN.md "The frame", step 5): one policy for the
/// host's own loop (`MapHost.run`) and an app's that drives it (`MapHost.update`). Pure: the
/// host tells it what happened and what the workers are doing, and it answers draw now, wait,
/// or sleep. Times are the host's frame clock's seconds.
///
/// | situation | decision |
/// |---|---|
/// | the window hidden | sleep (frames wait until it shows) |
/// | in motion, before its latch | latch: the next frame starts then, input waiting for it |
/// | in motion, latch come (or none) | draw |
/// | a change (input, posted work) | draw, unless in motion before the latch |
/// | still, pictures arriving, more on the way | settle: pictures are taken in together, until the interval ends, the tiles in view are in, or a change comes |
/// | pictures arriving, the map not on screen yet, or none on the way | draw: each tile shows as it comes |
/// | nothing to draw, a wake due (retry, stale position, zoom settling, progress) | wait until it, then draw |
/// | nothing to draw, nothing due | sleep: idle means idle, no wake-up |
public struct FrameSchedule: Equatable, Sendable {
    public enum Decision: Equatable, Sendable {
        /// Draw a frame now; `takeInTiles`: first take in the tiles that arrived (the view
        /// has just filled while pictures were held back), so that this frame shows them.
        case draw(takeInTiles: Bool)
        /// In motion: the next frame starts at `until`, as late as it safely can, so that
        /// what arrives meanwhile (a fix, the pointer) is in it; events wait for it.
        case latch(until: Double)
        /// Still, with pictures on their way: the next frame waits until `until` so that what
        /// arrives meanwhile shows in one frame, not one frame per tile. A change ends it.
        case settle(until: Double)
        /// Nothing to draw until an event or `until`, when something is due by itself.
        case wait(until: Double)
        /// Nothing to draw and nothing due: no frame and no wake-up until an event.
        case sleep

        /// How long from `now` an app may wait for events before the map's next turn: 0 to
        /// draw at once, nil for until an event comes.
        public func seconds(from now: Double) -> Double? {
            switch self {
            case .draw: return 0
            case let .latch(until), let .settle(until), let .wait(until): return max(0, until - now)
            case .sleep: return nil
            }
        }
    }

    /// What the host knows at a turn.
    public struct Situation: Equatable, Sendable {
        public var now: Double
        public var hidden = false
        /// Tiles are on their way (the rings around the view among them).
        public var tilesComing = false
        /// Tiles in view are on their way.
        public var viewTilesComing = false
        /// Sprites (labels, symbols) are being drawn by the worker.
        public var spritesComing = false
        /// The last frame drew some of the map's tiles: until then each tile shows as it comes.
        public var mapOnScreen = true
        /// Long work under way whose progress the window shows (drawn again every
        /// `progressInterval`).
        public var busy = false
        /// The earliest time something must be drawn again by itself: a failed tile asked for
        /// again, a stand-in coming due, a live position turning stale, a zoom settling.
        public var wake: Double?

        public init(now: Double, hidden: Bool = false, tilesComing: Bool = false, viewTilesComing: Bool = false,
                    spritesComing: Bool = false, mapOnScreen: Bool = true, busy: Bool = false, wake: Double? = nil) {
            self.now = now
            self.hidden = hidden
            self.tilesComing = tilesComing
            self.viewTilesComing = viewTilesComing
            self.spritesComing = spritesComing
            self.mapOnScreen = mapOnScreen
            self.busy = busy
            self.wake = wake
        }
    }

    /// How long a still map holds arriving pictures back to show them together.
    public var settleInterval = 0.08
    /// How often long work's progress is drawn again.
    public static let progressInterval = 0.25
    /// A time this close counts as come: SDL waits whole milliseconds, and a wait cut short
    /// by its rounding must not spin for the rest of one.
    public static let tolerance = 0.001

    /// Something changed (input, posted work, the map changed from outside): draw at the next
    /// chance.
    private(set) var wanted: Bool
    /// More to draw that may be held back: motion goes on, pictures arrived or are ready.
    private(set) var pending = false
    /// In motion: when the next frame starts.
    private(set) var latchUntil: Double?
    /// Still with pictures on their way: until when they are held back.
    private(set) var settleUntil: Double?
    /// The settle began with tiles in view on their way: it ends once they are in, without
    /// waiting for the ring around the view.
    private(set) var settlingView = false
    /// When the last frame began: a wake at or before it was that frame's to see to.
    private(set) var lastFrame = -Double.infinity
    /// The map has said it rests since the last frame.
    private(set) var rested = false

    /// `drawFirst`: the first turn draws a frame.
    public init(drawFirst: Bool = true) { wanted = drawFirst }

    /// A change that wants a frame: input the map took, work posted to it, the window shown
    /// or resized.
    public mutating func wantFrame() { wanted = true }

    /// A worker woke the loop: its pictures are ready. They are drawn, but a settle may hold
    /// them back to show them with the others on their way.
    public mutating func woken() { pending = true }

    /// A frame begins at `now`: what was asked for so far is in it. (What changes while it is
    /// drawn, in a callback or an effect's handler, asks for the next.)
    public mutating func frameBegins(at now: Double) {
        lastFrame = now
        rested = false
        wanted = false
    }

    /// The frame was drawn: `moving` (something animates, the camera moves), `more`
    /// (pictures made ready for the next frame) and, in motion, when the next frame is to
    /// start (`latch`). `after` is the situation once the frame is drawn.
    public mutating func frameDrawn(moving: Bool, more: Bool, latch: Double?, after s: Situation) {
        pending = moving || more
        latchUntil = moving ? latch : nil
        // A map not on screen yet shows each tile as it comes: the first picture at once.
        let settles = more && !moving && (s.tilesComing || s.spritesComing) && s.mapOnScreen
        settleUntil = settles ? s.now + settleInterval : nil
        settlingView = settles && s.viewTilesComing
    }

    /// What to do now.
    public func decide(_ s: Situation) -> Decision {
        // Hidden, nothing is drawn until the window shows again (an event).
        if s.hidden { return .sleep }
        if wanted || pending {
            // Input waits for the latch too: taken in all at once, it is in the frame it
            // would have been in.
            if let l = latchUntil, l - s.now > Self.tolerance { return .latch(until: l) }
            if let u = settleUntil {
                // Tiles in view do not wait for the ring around it: once every one of them
                // is in, the frame is drawn.
                let coming = (settlingView ? s.viewTilesComing : s.tilesComing) || s.spritesComing
                if !wanted, coming, u - s.now > Self.tolerance { return .settle(until: u) }
                return .draw(takeInTiles: settlingView && !s.viewTilesComing)
            }
            return .draw(takeInTiles: false)
        }
        guard let due = nextDue(s) else { return .sleep }
        return due - s.now > Self.tolerance ? .wait(until: due) : .draw(takeInTiles: false)
    }

    /// When something is due by itself. A wake at or before the last frame's start is not:
    /// that frame saw to it, and waking for it again would wake for nothing, again and again.
    private func nextDue(_ s: Situation) -> Double? {
        let progress = s.busy ? max(lastFrame + Self.progressInterval, s.now) : nil
        let wake = s.wake.flatMap { $0 > lastFrame ? $0 : nil }
        return [progress, wake].compactMap { $0 }.min()
    }

    /// Whether the map comes to rest with `decision` (nothing due, nothing to draw) for the
    /// first time since its last frame: what it does once when resting (lets go of memory,
    /// tells the embedder), not at each event that changes nothing.
    public mutating func comesToRest(_ decision: Decision) -> Bool {
        guard decision == .sleep, !rested else { return false }
        rested = true
        return true
    }
}
