import FoundationEssentials
import Glibc
import MapGeometry
import Platform

/// The pins take what is theirs, in their place among the layers: a press on a pin (or its
/// callout, or a bubble of pins) never pans the map, a carried pin follows the pointer, keys
/// act on the selected pin, and while a title is being typed the keyboard belongs to it.
/// What happened is kept as `PinEvent`s until the session takes them (`takeEvents`).
extension PinsLayer {
    /// Within this many points of a window edge, a carried pin pans the map…
    public static let autoPanMargin = 40.0
    /// …at up to this many points per second, faster the closer to the edge.
    public static let autoPanSpeed = 700.0

    /// A title is being typed: the keyboard's text is the pins'.
    public var wantsText: Bool { pins.renameText != nil }

    /// A pin is carried, being renamed or selected: Esc is the pins' first.
    public var isBusy: Bool { pins.drag.isActive || pins.renameText != nil || pins.selected != nil }

    /// What happened to the pins since the last call.
    public mutating func takeEvents() -> [PinEvent] {
        defer { events.removeAll() }
        return events
    }

    /// Ends every pin gesture now (the window is closing).
    public mutating func finishGestures(at t: Double) { events += pins.finishAll(t: t) }

    /// A pin at `coordinate` named `title` (the search's mark kept), undoable as any other.
    public mutating func add(at coordinate: Coordinate, title: String?, at t: Double) {
        events += pins.add(at: coordinate, title: title, t: t)
    }

    public mutating func take(_ event: InputEvent, context: InputContext) -> [LayerAction]? {
        let camera = context.camera, t = context.time, drawn = context.lastFrame
        switch event {
        case let .pointerDown(.left, p, clicks, _):
            if let callout = drawn.calloutFrame, callout.contains(p) {
                if clicks >= 2, drawn.calloutTitleFrame?.contains(p) == true { pins.beginRename() }
                return [.changed]
            }
            events += pins.commitRename()
            guard let pin = pins.hit(p, camera: camera, pressable: drawn.pressablePins) else {
                // A click on a bubble of crowded pins zooms in two levels to spread them.
                guard let bubble = drawn.pinClusters.first(where: { $0.frame.contains(p) })?.frame else { return nil }
                return [.zoom(by: 2, around: ScreenPoint(x: bubble.x + bubble.width / 2, y: bubble.y + bubble.height / 2))]
            }
            pointer = p
            events += pins.press(pin, at: p, camera: camera, t: t)
            return [.holdCamera]
        case let .pointerDown(button, p, _, _):
            // Another button while a pin is held puts it back where it was.
            if pins.drag.isActive { events += pins.cancelDrag(t: t); return [.changed] }
            guard button == .right else { return nil }
            events += pins.add(at: camera.coordinate(for: p), t: t)
            return [.changed]
        case let .pointerMoved(p):
            guard pins.drag.isActive else { return nil }
            pointer = p
            events += pins.move(to: p, camera: camera, t: t)
            return [.changed]
        case .pointerUp(.left, _):
            guard pins.drag.isActive else { return nil }
            events += pins.release(t: t)
            pointer = nil
            return [.changed]
        case .focusLost:
            // A release we will never see: the carried pin goes back (MapKit: canceling). The
            // camera below lets go of its drag too.
            if pins.drag.isActive { events += pins.cancelDrag(t: t) }
            pointer = nil
            return nil
        case let .text(s):
            guard pins.renameText != nil else { return nil }
            pins.type(s)
            return [.changed]
        case let .keyDown(key, mods):
            return keyDown(key, mods, context: context)
        default:
            return nil
        }
    }

    /// A click went elsewhere: the selected pin is put away.
    public mutating func clearSelection() -> Bool {
        guard pins.selected != nil else { return false }
        events += pins.select(nil)
        return true
    }

    private mutating func keyDown(_ key: Key, _ mods: KeyModifiers, context: InputContext) -> [LayerAction]? {
        if pins.renameText != nil {
            switch key {
            case .letter("q") where mods.contains(.control): return nil
            case .enter: events += pins.commitRename()
            case .escape: pins.cancelRename()
            case .backspace: pins.backspace()
            default: break // typed characters arrive as text
            }
            return [.changed]
        }
        switch KeyBindings.command(for: key, mods, in: context.keys) {
        case .cancel?:
            if pins.drag.isActive { events += pins.cancelDrag(t: context.time); return [.changed] }
            guard pins.selected != nil else { return nil }
            events += pins.select(nil)
        case .deletePin?:
            events += pins.deleteSelected()
        case .renamePin?:
            pins.beginRename()
        case .undo?:
            events += pins.undo()
        case .redo?:
            events += pins.redo()
        default:
            return nil
        }
        return [.changed]
    }

    /// Gestures advance with the clock; a pin carried near an edge pans the map under it.
    public mutating func advance(to t: Double, camera: inout Camera) {
        events += pins.tick(t)
        guard pins.drag.state == .starting || pins.drag.state == .dragging, let p = pointer else {
            lastAutoPan = nil
            return
        }
        let v = Self.autoPanVelocity(at: p, in: camera.viewportSize)
        let dt = min(max(t - (lastAutoPan ?? t), 0), 0.05)
        lastAutoPan = t
        guard v != ScreenPoint(x: 0, y: 0), dt > 0 else { return }
        camera.pan(byScreen: -v.x * dt, -v.y * dt)
        events += pins.move(to: p, camera: camera, t: t)
    }

    /// Points per second the view travels for a pointer at `p`: towards the nearby edges.
    public static func autoPanVelocity(at p: ScreenPoint, in size: ScreenSize) -> ScreenPoint {
        let m = autoPanMargin
        func axis(_ v: Double, _ extent: Double) -> Double {
            guard extent > 4 * m else { return 0 }
            if v < m { return -autoPanSpeed * min((m - v) / m, 1) }
            if v > extent - m { return autoPanSpeed * min((v - (extent - m)) / m, 1) }
            return 0
        }
        return ScreenPoint(x: axis(p.x, size.width), y: axis(p.y, size.height))
    }

    /// While a pin is carried near an edge the map keeps moving: the host must keep drawing.
    public func isAutoPanning(in size: ScreenSize) -> Bool {
        guard pins.drag.state == .starting || pins.drag.state == .dragging, let p = pointer else { return false }
        return Self.autoPanVelocity(at: p, in: size) != ScreenPoint(x: 0, y: 0)
    }

    /// Something about the pins moves by itself at `t`.
    public func isAnimating(at t: Double) -> Bool { pins.isAnimating(at: t) }
}
