import FoundationEssentials
import Glibc
import MapGeometry
import Platform

/// The camera and its gestures: drag to pan with momentum, wheel and double-click to zoom
/// around the cursor, keys to pan and zoom. The camera's one owner, and the bottom of the input
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

    /// One wheel notch, in zoom levels.
    public static let wheelStep = 0.5
    public static let wheelDuration = 0.2
    public static let doubleClickDuration = 0.3
    public static let keyZoomDuration = 0.25
    /// Arrow keys move the map by this many points.
    public static let keyPanDistance = 128.0

    private struct Drag: Sendable {
        var pressScreen: ScreenPoint
        var pressMap: MapPoint
        var moved: Bool
    }

    /// Follow mode (key F, the locate button): the camera keeps the location at the centre;
    /// a hand pan ends it.
    public var following = false

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

    /// Keeps the camera on the location (where its glide is at this frame) while following.
    public mutating func follow(_ point: MapPoint?, at t: Double) {
        guard following, let point, animator.flight == nil else { return }
        camera.setCenter(point)
    }

    /// True while the camera moves by itself: the host must keep producing frames.
    public func isAnimating(at t: Double) -> Bool { animator.isAnimating(at: t) }

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
                animator.zoom(by: mods.contains(.shift) ? -1 : 1, around: p, camera: camera,
                              at: t, duration: Self.doubleClickDuration)
                return []
            }
            animator.stopAll()
            drag = Drag(pressScreen: p, pressMap: camera.mapPoint(for: p), moved: false)
            velocity.reset()
            velocity.add(p, at: t)
        case let .pointerMoved(p):
            guard var d = drag else { return [.hovered(p)] }
            d.moved = d.moved || (p - d.pressScreen).length > 0
            drag = d
            if d.moved { following = false }
            // The point grabbed stays under the pointer: exact, no accumulated error.
            camera.keep(d.pressMap, at: p)
            velocity.add(p, at: t)
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
