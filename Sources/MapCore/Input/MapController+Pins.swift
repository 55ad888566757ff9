import FoundationEssentials
import Glibc
import MapGeometry
import Platform

/// Pins come first: a press on a pin never pans the map, keys act on the selected pin, and
/// while a title is being typed the keyboard belongs to it.
extension MapController {
    /// Within this many points of a window edge, a carried pin pans the map…
    public static let autoPanMargin = 40.0
    /// …at up to this many points per second, faster the closer to the edge.
    public static let autoPanSpeed = 700.0

    /// What happened to the pins since the last call.
    public mutating func takePinEvents() -> [PinEvent] {
        defer { pinEvents.removeAll() }
        return pinEvents
    }

    /// Ends every pin gesture now (the window is closing).
    public mutating func finishPinGestures(at t: Double) { pinEvents += pins.finishAll(t: t) }

    /// Handles `event` if it is about pins; nil lets the map have it.
    mutating func handlePinInput(_ event: InputEvent, at t: Double) -> [ControllerAction]? {
        switch event {
        case let .pointerDown(.left, p, clicks, _):
            advance(to: t)
            if let callout = pins.calloutFrame, callout.contains(p) {
                if clicks >= 2, pins.calloutTitleFrame?.contains(p) == true { pins.beginRename() }
                return []
            }
            pinEvents += pins.commitRename()
            guard let pin = pins.hit(p, camera: camera) else {
                // A click on a bubble of crowded pins zooms in two levels to spread them.
                guard let bubble = pins.clusterFrames.first(where: { $0.contains(p) }) else { return nil }
                let c = ScreenPoint(x: bubble.x + bubble.width / 2, y: bubble.y + bubble.height / 2)
                animator.zoom(by: 2, around: c, camera: camera, at: t, duration: Self.doubleClickDuration)
                return []
            }
            animator.stopAll()
            pinPointer = p
            pinEvents += pins.press(pin, at: p, camera: camera, t: t)
            return []
        case let .pointerDown(button, p, _, _):
            // Another button while a pin is held puts it back where it was.
            if pins.drag.isActive { pinEvents += pins.cancelDrag(t: t); return [] }
            guard button == .right else { return nil }
            pinEvents += pins.add(at: camera.coordinate(for: p), t: t)
            return [.redraw]
        case let .pointerMoved(p):
            guard pins.drag.isActive else { return nil }
            pinPointer = p
            pinEvents += pins.move(to: p, camera: camera, t: t)
            return []
        case .pointerUp(.left, _):
            guard pins.drag.isActive else { return nil }
            pinEvents += pins.release(t: t)
            pinPointer = nil
            return [.redraw]
        case .focusLost:
            // A release we will never see: the carried pin goes back (MapKit: canceling).
            if pins.drag.isActive { pinEvents += pins.cancelDrag(t: t) }
            pinPointer = nil
            return nil
        case let .text(s):
            pins.type(s)
            return [.redraw]
        case let .keyDown(key, mods):
            return handlePinKey(key, mods, at: t)
        default:
            return nil
        }
    }

    private mutating func handlePinKey(_ key: Key, _ mods: KeyModifiers, at t: Double) -> [ControllerAction]? {
        if pins.renameText != nil {
            switch key {
            case .letter("q") where mods.contains(.control): return nil
            case .enter: pinEvents += pins.commitRename()
            case .escape: pins.cancelRename()
            case .backspace: pins.backspace()
            default: break // typed characters arrive as text
            }
            return [.redraw]
        }
        switch KeyBindings.command(for: key, mods, in: keys) {
        case .cancel?:
            if pins.drag.isActive { pinEvents += pins.cancelDrag(t: t); return [.redraw] }
            guard pins.selected != nil else { return nil }
            pinEvents += pins.select(nil)
        case .deletePin?:
            pinEvents += pins.deleteSelected()
        case .renamePin?:
            pins.beginRename()
        case .undo?:
            pinEvents += pins.undo()
        case .redo?:
            pinEvents += pins.redo()
        default:
            return nil
        }
        return [.redraw]
    }

    /// Pin gestures advance with the clock; a pin carried near an edge pans the map under it.
    mutating func advancePins(to t: Double) {
        pinEvents += pins.tick(t)
        guard pins.drag.state == .starting || pins.drag.state == .dragging, let p = pinPointer else {
            lastAutoPan = nil
            return
        }
        let v = autoPanVelocity(at: p)
        let dt = min(max(t - (lastAutoPan ?? t), 0), 0.05)
        lastAutoPan = t
        guard v != ScreenPoint(x: 0, y: 0), dt > 0 else { return }
        camera.pan(byScreen: -v.x * dt, -v.y * dt)
        pinEvents += pins.move(to: p, camera: camera, t: t)
    }

    /// Points per second the view travels for a pointer at `p`: towards the nearby edges.
    public func autoPanVelocity(at p: ScreenPoint) -> ScreenPoint {
        let m = Self.autoPanMargin, size = camera.viewportSize
        func axis(_ v: Double, _ extent: Double) -> Double {
            guard extent > 4 * m else { return 0 }
            if v < m { return -Self.autoPanSpeed * min((m - v) / m, 1) }
            if v > extent - m { return Self.autoPanSpeed * min((v - (extent - m)) / m, 1) }
            return 0
        }
        return ScreenPoint(x: axis(p.x, size.width), y: axis(p.y, size.height))
    }

    /// While a pin is carried near an edge the map keeps moving: the host must keep drawing.
    public var isAutoPanning: Bool {
        guard pins.drag.state == .starting || pins.drag.state == .dragging, let p = pinPointer else { return false }
        return autoPanVelocity(at: p) != ScreenPoint(x: 0, y: 0)
    }
}
