import FoundationEssentials
import Glibc
import MapGeometry
import Platform

/// The camera and its gestures: drag to pan with momentum, wheel and double-click to zoom
/// around the cursor, keys to pan, zoom and turn, a right-drag (or Ctrl+drag) or two fingers to
/// turn about the view's centre. The camera's one owner, and the bottom of the input
/// stack: the session offers it what no layer above took (`MapSession.handle`). Pure: time
/// comes with every call.
public struct MapController: Sendable {
    public var camera: Camera
    public internal(set) var animator = CameraAnimator()
    /// The scale bar in miles and feet instead of kilometres and metres (key U).
    public var imperialUnits = false
    /// The keys this map answers: the app's whole table, or only the map's own
    /// (`KeyBindings.map`) in an app that binds the rest itself.
    public var keys = KeyBindings.all
    /// The keys the scene's layers bind (`MapLayer.keyBindings`), after `keys`: kept up to
    /// date by the session.
    public var layerKeys: [KeyBinding] = []
    /// Every key this map answers: the app's table, then the layers'.
    public var keyTable: [KeyBinding] { layerKeys.isEmpty ? keys : keys + layerKeys }
    private var drag: Drag?
    private var velocity = VelocityTracker()
    /// A turn by hand under way (right-drag, Ctrl+drag, two fingers).
    private var turning: Turning?
    /// A right-button press not yet known to be a click or the start of a turn.
    public private(set) var rightPress: RightPress?
    /// The position's course, smoothed, for heading-up following.
    public private(set) var heading = HeadingFollower()
    /// When the last frame followed (for the heading-up turn's pace), and whether it had a
    /// location to follow (without one, nothing turns).
    private var lastFollow: Double?
    private var hadLocation = false

    /// One wheel notch, in zoom levels.
    public static let wheelStep = 0.5
    public static let wheelDuration = 0.2
    public static let doubleClickDuration = 0.3
    public static let keyZoomDuration = 0.25
    /// Arrow keys move the map by this many points.
    public static let keyPanDistance = 128.0
    /// Shift+arrows turn the map by this many degrees.
    public static let keyTurnStep = 15.0
    public static let turnDuration = 0.3
    /// A turn by hand let go this near north (degrees) ends north-up.
    public static let northSnap = 7.0
    /// A right-button press becomes a turn once the pointer moves this far (points).
    public static let turnSlop = 4.0

    private struct Drag: Sendable {
        var pressScreen: ScreenPoint
        var pressMap: MapPoint
        var moved: Bool
    }

    /// A right-button press held back from the layers until it is known to be a click.
    public struct RightPress: Hashable, Sendable {
        public var point: ScreenPoint
        /// The press as it came (with its clicks and modifiers), for the layers if it is a click.
        public var event: InputEvent
    }

    private struct Turning: Sendable {
        /// The pointer's direction from the view's centre (degrees, clockwise from the
        /// right), where the last move left it; nil for a turn by fingers.
        var angle: Double?
        /// The left button's drag (Ctrl+drag) rather than the right's.
        var left: Bool
        /// The pointer has moved since the press (a Ctrl+click that did not is a click).
        var moved = false
        /// Fingers turn it (a touchscreen's gesture), not the pointer: the pointer moves its
        /// first finger makes are not a sweep, and it ends when the fingers lift.
        var fingers = false
    }

    /// Degrees two fingers must turn before the map turns: a pinch or a two-finger pan
    /// turns a little by accident, and must not set the map drifting.
    static let fingerTurnThreshold = 10.0
    /// What the fingers turned so far, until it passes the threshold.
    private var fingerSweep = 0.0

    /// How the camera follows the location (key F, the locate button, in turn).
    public enum FollowMode: Hashable, Sendable {
        case off
        /// The location stays at the centre.
        case follow
        /// …and the map turns with the location's course (north-up while it is unknown).
        case headingUp
    }

    public var followMode = FollowMode.off

    /// Follow mode (key F, the locate button): the camera keeps the location at the centre;
    /// a hand pan ends it (the bearing stays as it is).
    public var following: Bool {
        get { followMode != .off }
        set { followMode = newValue ? (followMode == .off ? .follow : followMode) : .off }
    }

    public init(camera: Camera) { self.camera = camera }

    /// Starts following the location at `point`: a flight there (to street level when the
    /// view is wider than a town), then the centre stays on it.
    public mutating func startFollowing(_ point: MapPoint, at t: Double) {
        following = true
        animator.fly(to: point, zoom: camera.zoom < 12 ? 15 : camera.zoom, camera: camera, at: t)
    }

    /// Flies to `coordinate`, landing at `zoom` (a search result, a geo: link).
    public mutating func fly(to coordinate: Coordinate, zoom: Double, at t: Double) {
        following = false
        animator.fly(to: WebMercator.project(coordinate), zoom: zoom, camera: camera, at: t)
    }

    /// One step of zoom about the centre (the zoom buttons, + and −).
    public mutating func zoom(by levels: Double, at t: Double) {
        advance(to: t)
        animator.zoom(by: levels, around: camera.screenCenter, camera: camera, at: t, duration: Self.keyZoomDuration)
    }

    /// Zooms by `levels` about `p` (a bubble of pins spread).
    public mutating func zoom(by levels: Double, around p: ScreenPoint, at t: Double) {
        advance(to: t)
        animator.zoom(by: levels, around: p, camera: camera, at: t, duration: Self.doubleClickDuration)
    }

    /// Stops where it is now (a pin was taken hold of: the map stays under it).
    public mutating func hold(at t: Double) {
        advance(to: t)
        animator.stopAll()
    }

    /// Keeps the camera on the location (where its glide is at this frame) while following;
    /// heading-up, turns it a step towards the course.
    public mutating func follow(_ point: MapPoint?, at t: Double) {
        defer { lastFollow = t; hadLocation = point != nil }
        guard following, let point, animator.flight == nil else { return }
        camera.setCenter(point)
        guard followMode == .headingUp, turning == nil, animator.turn == nil else { return }
        let dt = min(max(t - (lastFollow ?? t), 0), 0.25)
        camera.setBearing(heading.step(from: camera.bearing, toward: heading.target(at: t) ?? 0, seconds: dt))
    }

    /// A fix's course (nil: unknown, as when standing still) for heading-up following.
    public mutating func takeCourse(_ course: Double?, at t: Double) {
        heading.take(course, at: t)
    }

    /// True while the camera moves by itself: the host must keep producing frames.
    public func isAnimating(at t: Double) -> Bool {
        animator.isAnimating(at: t) || (followMode == .headingUp && hadLocation && heading.isTurning(camera.bearing, at: t))
    }

    /// Turns the view by `degrees` (clockwise: the top of the view faces further east),
    /// animated about its centre; a turn by hand ends heading-up following.
    public mutating func turn(by degrees: Double, at t: Double) {
        advance(to: t)
        if followMode == .headingUp { followMode = .follow }
        animator.turn(by: degrees, camera: camera, at: t, duration: Self.turnDuration)
    }

    /// Turns the view back to north-up, animated (the compass).
    public mutating func turnNorth(at t: Double) {
        advance(to: t)
        if followMode == .headingUp { followMode = .follow }
        animator.turn(to: 0, camera: camera, at: t, duration: Self.turnDuration)
    }

    /// Holds a right-button press back: a click if released where it was pressed, a turn if
    /// the pointer moves away first.
    public mutating func holdRightPress(_ event: InputEvent, at p: ScreenPoint) {
        rightPress = RightPress(point: p, event: event)
    }

    /// A right-button press that turned out to be a click, handed over (and forgotten).
    public mutating func takeRightPress() -> RightPress? {
        defer { rightPress = nil }
        return rightPress
    }

    /// A turn by hand is under way.
    public var isTurning: Bool { turning != nil }

    /// The direction of `p` from the view's centre, degrees clockwise from the right; nil too
    /// near the centre, where it means nothing.
    private func angle(of p: ScreenPoint) -> Double? {
        let c = camera.screenCenter, dx = p.x - c.x, dy = p.y - c.y
        guard dx * dx + dy * dy > 64 else { return nil }
        return atan2(dy, dx) * 180 / .pi
    }

    private mutating func beginTurn(from p: ScreenPoint?, left: Bool, fingers: Bool = false, at t: Double) {
        advance(to: t)
        animator.stopAll()
        if followMode == .headingUp { followMode = .follow }
        // The press that began it (a first finger's, a Ctrl+press) is no pan and no click.
        drag = nil
        turning = Turning(angle: p.flatMap(angle(of:)), left: left, fingers: fingers)
    }

    /// The pointer swept about the centre to `p`: the map turns with it (what was under the
    /// pointer's direction stays under it).
    private mutating func turnDrag(to p: ScreenPoint) {
        guard var g = turning else { return }
        g.moved = true
        turning = g
        guard let a = angle(of: p) else { return }
        if let last = g.angle { camera.setBearing(camera.bearing - TurnTransition.shortestTurn(from: last, to: a)) }
        g.angle = a
        turning = g
    }

    /// Fingers turned by `degrees` clockwise on the screen: so does the map.
    private mutating func turnByFingers(_ degrees: Double, at t: Double) {
        if turning?.fingers != true {
            guard turning == nil else { return } // a turn by the pointer is under way
            fingerSweep += degrees
            guard abs(fingerSweep) >= Self.fingerTurnThreshold else { return }
            beginTurn(from: nil, left: false, fingers: true, at: t)
            camera.setBearing(camera.bearing - fingerSweep)
            fingerSweep = 0
            return
        }
        camera.setBearing(camera.bearing - degrees)
    }

    /// The turn by hand is let go: near north it ends north-up.
    private mutating func endTurn(at t: Double) {
        turning = nil
        let b = camera.bearing
        if b != 0, min(b, 360 - b) <= Self.northSnap { animator.turn(to: 0, camera: camera, at: t, duration: Self.turnDuration) }
    }

    /// Advances the camera's animations to time t.
    public mutating func advance(to t: Double) {
        animator.apply(to: &camera, at: t)
    }

    /// The zoom that shows `rect` with a margin, no closer than a street (a single point
    /// or a short walk is not shown at the deepest zoom).
    public func zoomToShow(_ rect: MapRect) -> Double { min(camera.zoomToFit(rect, padding: 48), 16) }

    /// Flies the camera to show `rect` (what was just opened), or jumps there when
    /// `animated` is false (the window opened for it and shows nothing else yet).
    public mutating func show(_ rect: MapRect, animated: Bool, at t: Double) {
        let z = zoomToShow(rect)
        if animated {
            animator.fly(to: rect.center, zoom: z, camera: camera, at: t)
        } else {
            animator.stopAll()
            camera.setZoom(z)
            camera.setCenter(rect.center)
        }
    }

    public mutating func resize(to size: ScreenSize, pixelRatio: Double) {
        camera.viewportSize = size
        camera.pixelRatio = pixelRatio
    }

    /// Takes `event` as the map's own gesture; what it leaves (a click, a command of the key
    /// table) comes back as actions.
    @discardableResult
    public mutating func handle(_ event: InputEvent, at t: Double) -> [ControllerAction] {
        switch event {
        case let .pointerDown(.left, p, clicks, mods):
            advance(to: t)
            if clicks >= 2 {
                drag = nil
                turning = nil
                animator.zoom(by: mods.contains(.shift) ? -1 : 1, around: p, camera: camera,
                              at: t, duration: Self.doubleClickDuration)
                return []
            }
            if mods.contains(.control) {
                // Ctrl+drag turns, as a right-drag does.
                beginTurn(from: p, left: true, at: t)
                return []
            }
            animator.stopAll()
            drag = Drag(pressScreen: p, pressMap: camera.mapPoint(for: p), moved: false)
            velocity.reset()
            velocity.add(p, at: t)
        case let .pointerMoved(p):
            if let press = rightPress, turning == nil {
                guard (p - press.point).length > Self.turnSlop else { return [] }
                rightPress = nil
                beginTurn(from: press.point, left: false, at: t)
            }
            if let g = turning {
                if !g.fingers { turnDrag(to: p) }
                return []
            }
            guard var d = drag else { return [.hovered(p)] }
            d.moved = d.moved || (p - d.pressScreen).length > 0
            drag = d
            if d.moved { following = false }
            // The point grabbed stays under the pointer: exact, no accumulated error.
            camera.keep(d.pressMap, at: p)
            velocity.add(p, at: t)
        case .pointerUp where turning?.fingers == true:
            // The first finger's release as a mouse's: the fingers' lift ends the turn.
            return []
        case let .pointerUp(button, p) where turning != nil && (button == .left) == turning?.left:
            let still = turning?.left == true && turning?.moved == false
            // Drawn once more at rest (what is painted for a bearing follows it then).
            endTurn(at: t)
            // A Ctrl+click that did not move is a click on the map, as it was before.
            return still ? [.clicked(p)] : [.redraw]
        case let .pointerUp(.left, p):
            guard let d = drag else { return [] }
            drag = nil
            // A click on the map (no drag): the layers may take it (select what lies there).
            guard d.moved else { return [.clicked(p)] }
            camera.keep(d.pressMap, at: p)
            animator.fling(velocity: velocity.velocity(releasedAt: t), at: t)
        case .pointerLeft:
            return [.hovered(nil)]
        case .focusLost:
            // A drag whose release we will never see must not stick to the pointer.
            drag = nil
            rightPress = nil
            if turning != nil { endTurn(at: t) }
        case let .rotate(degrees):
            advance(to: t)
            turnByFingers(degrees, at: t)
        case .rotateEnded:
            fingerSweep = 0
            guard turning?.fingers == true else { return [] }
            endTurn(at: t)
            return [.redraw]
        case let .wheel(dy, precise, pointer):
            advance(to: t)
            // While following, zoom keeps the location where it is: at the centre.
            let p = following ? camera.screenCenter : pointer
            if precise {
                // Touchpads scroll continuously: zoom in proportion, at once.
                if animator.zoom != nil { animator.zoom(by: dy * Self.wheelStep, around: p, camera: camera, at: t, duration: Self.wheelDuration) }
                else { camera.zoom(to: camera.zoom + dy * Self.wheelStep, around: p) }
            } else {
                animator.zoom(by: dy * Self.wheelStep, around: p, camera: camera, at: t, duration: Self.wheelDuration)
            }
        case let .keyDown(key, mods):
            return handleKey(key, mods, at: t)
        case .quitRequested:
            return [.quit]
        case let .fileDropped(path):
            return [.open(path)]
        default:
            break
        }
        return []
    }

    /// A key, by the bindings table (`KeyBindings`, which the help lists).
    private mutating func handleKey(_ key: Key, _ mods: KeyModifiers, at t: Double) -> [ControllerAction] {
        advance(to: t)
        guard let command = KeyBindings.command(for: key, mods, in: keyTable) else { return [] }
        switch command {
        case .units: imperialUnits.toggle(); return [.redraw]
        case .panLeft, .panRight, .panUp, .panDown:
            following = false
            return panKey(key, at: t)
        case .turn:
            turn(by: key == .left ? -Self.keyTurnStep : Self.keyTurnStep, at: t)
        case .zoomIn: zoom(by: 1, at: t)
        case .zoomOut: zoom(by: -1, at: t)
        case .deletePin, .renamePin, .undo, .redo: return [] // the pins' own, offered to them before
        default: return [.command(command, key)]
        }
        return []
    }

    private mutating func panKey(_ key: Key, at t: Double) -> [ControllerAction] {
        let d = Self.keyPanDistance
        switch key {
        case .left: animator.pan(byScreen: ScreenPoint(x: -d, y: 0), at: t)
        case .right: animator.pan(byScreen: ScreenPoint(x: d, y: 0), at: t)
        case .up: animator.pan(byScreen: ScreenPoint(x: 0, y: -d), at: t)
        case .down: animator.pan(byScreen: ScreenPoint(x: 0, y: d), at: t)
        default: break
        }
        return []
    }
}
