import FoundationEssentials
import Glibc
import MapGeometry
import Platform

/// MapKit's drag states for an annotation view.
public enum PinDragState: Hashable, Sendable {
    case none, starting, dragging, ending, canceling
}

/// What the drag tells whoever embeds the map (MapKit's "the map is told of every change").
public enum PinDragEvent: Hashable, Sendable {
    case stateChanged(pin: String, PinDragState)
    /// A press and release that never lifted the pin: select it.
    case clicked(pin: String)
    /// The drop finished: the pin now stands here.
    case moved(pin: String, from: Coordinate, to: Coordinate)
}

/// The floating-pin gesture as a pure state machine. A press on a pin arms it; holding it
/// 0.25 s or moving it 4 points lifts it (starting, while it rises for 0.3 s), moving carries
/// it (dragging), release drops it where its ground mark shows (ending, 0.3 s) and Esc, a lost
/// focus or a second button float it back to where it began (canceling, 0.3 s). Ending and
/// canceling always return to none. The pin keeps the offset at which it was grabbed: it
/// never jumps to the pointer.
public struct PinDragMachine: Sendable {
    public static let holdDelay = 0.25
    public static let moveThreshold = 4.0
    public static let liftDuration = 0.3
    public static let dropDuration = 0.3

    public private(set) var state: PinDragState = .none
    /// Set while a press is held on a pin that has not lifted yet.
    public private(set) var armedPin: String?
    public private(set) var pin: String?
    private var pressPoint = ScreenPoint(x: 0, y: 0)
    private var pressTime = 0.0
    /// Pointer minus the pin's tip at the press, kept for the whole drag.
    public private(set) var grabOffset = ScreenPoint(x: 0, y: 0)
    /// Where the pin began (for canceling) and where it will land.
    public private(set) var origin: Coordinate?
    public private(set) var landing: Coordinate?
    /// Where the ground mark stood when the drag was canceled: the float back starts there.
    public private(set) var cancelFrom: Coordinate?
    /// When the current lift, drop or float-back began.
    public private(set) var phaseStart = 0.0

    public init() {}

    public var isActive: Bool { armedPin != nil || state != .none }

    /// A press on `pin`, whose tip is at `tip` on screen, standing at `coordinate`.
    public mutating func press(pin id: String, at p: ScreenPoint, tip: ScreenPoint, coordinate: Coordinate, t: Double) -> [PinDragEvent] {
        guard state == .none else { return [] }
        armedPin = id
        pressPoint = p
        pressTime = t
        grabOffset = p - tip
        origin = coordinate
        landing = coordinate
        return []
    }

    /// The pointer moved. `coordinateAt` maps a tip position to the map.
    public mutating func move(to p: ScreenPoint, t: Double, coordinateAt: (ScreenPoint) -> Coordinate) -> [PinDragEvent] {
        var events: [PinDragEvent] = []
        if let id = armedPin, state == .none, (p - pressPoint).length >= Self.moveThreshold {
            events += lift(id, t)
        }
        guard state == .starting || state == .dragging, let id = pin else { return events }
        landing = coordinateAt(p - grabOffset)
        if state == .starting {
            state = .dragging
            events.append(.stateChanged(pin: id, .dragging))
        }
        return events
    }

    /// Time passes: a held press lifts; a lift, drop or float-back completes.
    public mutating func tick(_ t: Double) -> [PinDragEvent] {
        if let id = armedPin, state == .none, t - pressTime >= Self.holdDelay { return lift(id, t) }
        guard let id = pin else { return [] }
        switch state {
        case .ending where t - phaseStart >= Self.dropDuration:
            let from = origin!, to = landing!
            finish()
            return [.stateChanged(pin: id, .none), .moved(pin: id, from: from, to: to)]
        case .canceling where t - phaseStart >= Self.dropDuration:
            finish()
            return [.stateChanged(pin: id, .none)]
        default:
            return []
        }
    }

    /// The button came up (anywhere, even outside the window).
    public mutating func release(t: Double) -> [PinDragEvent] {
        if let id = armedPin, state == .none {
            finish()
            return [.clicked(pin: id)]
        }
        guard let id = pin, state == .starting || state == .dragging else { return [] }
        state = .ending
        phaseStart = t
        return [.stateChanged(pin: id, .ending)]
    }

    /// Esc, the window losing focus, or another button pressed mid-drag.
    public mutating func cancel(t: Double) -> [PinDragEvent] {
        if armedPin != nil && state == .none { finish(); return [] }
        guard let id = pin, state == .starting || state == .dragging else { return [] }
        state = .canceling
        cancelFrom = landing
        landing = origin
        phaseStart = t
        return [.stateChanged(pin: id, .canceling)]
    }

    /// How high the pin floats, 0 (on the ground) … 1 (lifted by its own height), at t.
    public func lift(at t: Double) -> Double {
        let p = (t - phaseStart) / Self.liftDuration
        switch state {
        case .none: return 0
        case .starting: return TimingCurve.easeOut.value(at: p)
        case .dragging: return 1
        case .ending, .canceling: return Self.dropHeight(progress: (t - phaseStart) / Self.dropDuration)
        }
    }

    /// A drop from its own height: down over the first 80 % of the time, then a small settle
    /// (a dip below the ground and back). `q` is 0 at the start and 1 at the end.
    public static func dropHeight(progress q: Double) -> Double {
        if q >= 1 { return 0 }
        if q < 0.8 { return 1 - TimingCurve.easeIn.value(at: max(q, 0) / 0.8) }
        return -0.08 * sin(.pi * (q - 0.8) / 0.2)
    }

    /// Where the dragged pin stands on the ground at t: under the pointer while dragging, on
    /// its way back to the origin while canceling.
    public func ground(at t: Double) -> Coordinate? {
        guard state == .canceling, let from = cancelFrom, let to = origin else { return landing }
        let q = TimingCurve.easeInEaseOut.value(at: min(max((t - phaseStart) / Self.dropDuration, 0), 1))
        let a = WebMercator.project(from), b = WebMercator.project(to)
        return WebMercator.unproject(MapPoint(x: a.x + (b.x - a.x) * q, y: a.y + (b.y - a.y) * q))
    }

    private mutating func lift(_ id: String, _ t: Double) -> [PinDragEvent] {
        armedPin = nil
        pin = id
        state = .starting
        phaseStart = t
        return [.stateChanged(pin: id, .starting)]
    }

    private mutating func finish() {
        armedPin = nil
        pin = nil
        state = .none
        origin = nil
        landing = nil
        cancelFrom = nil
    }
}
