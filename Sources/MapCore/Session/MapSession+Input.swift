import FoundationEssentials
import MapGeometry
import Platform

/// Input through the session: the notice, then layers typing or using a tool, then the
/// keyboard's focus, then the map (pins first, then the camera); what the map leaves — a
/// click, a command of the key table — goes to the layers top first, then to the session.
extension MapSession {
    /// Handles one event at time `t`; returns what the host must do (`.redraw` among them
    /// when the picture may have changed).
    public mutating func handle(_ event: InputEvent, at t: Double) -> [SessionEffect] {
        let before = controller.camera
        if let actions = route(event, at: t) { run(actions, at: t) }
        if controller.camera != before || controller.isAnimating(at: t) { pending.append(.redraw) }
        return takeEffects()
    }

    /// Carries out what layers asked; whatever it was, the picture is drawn again.
    public mutating func run(_ actions: [LayerAction], at t: Double) {
        guard !actions.isEmpty else { return }
        for action in actions {
            switch action {
            case .changed: break
            case let .show(rect): controller.show(rect, animated: true, at: t)
            case .toggleFollow: toggleFollow(at: t)
            case let .goTo(c, zoom): controller.fly(to: c, zoom: zoom, at: t)
            case let .keepAsPin(c, title): controller.addPin(at: c, title: title, at: t)
            case let .zoomBy(levels): controller.zoom(by: levels, at: t)
            case let .notice(text): post(notice: text)
            case let .effect(e): pending.append(e)
            }
        }
        pending.append(.redraw)
    }

    /// Changes the first layer of a kind and carries out what it asks (a box given its
    /// places, a worker's result).
    public mutating func update<L: MapLayer>(_ kind: L.Type, at t: Double, _ body: (inout L) -> [LayerAction]) {
        guard let i = scene.index(of: kind), var layer = scene.layers[i] as? L else { return }
        let actions = body(&layer)
        scene.layers[i] = layer
        run(actions, at: t)
    }

    private func inputContext(at t: Double) -> InputContext {
        let pins = controller.pins
        return InputContext(camera: controller.camera, time: t, lastFrame: lastFrame, facts: facts,
                            pinsBusy: pins.drag.isActive || pins.renameText != nil || pins.selected != nil, focused: focused)
    }

    /// The layers' indices, the one drawn on top first (by its highest level, then its place).
    private var inputOrder: [Int] {
        // Each layer's top level once, not once per comparison (a drag asks per event).
        let top = scene.layers.map { $0.levels.max() ?? .base }
        return top.indices.sorted { a, b in top[a] != top[b] ? top[a] > top[b] : a > b }
    }

    /// Offers `ask` to each layer top first (those typing before the rest when `typingFirst`);
    /// returns the first answer.
    private mutating func offer(typingFirst: Bool = false, _ ask: (inout any MapLayer) -> [LayerAction]?) -> [LayerAction]? {
        var order = inputOrder
        if typingFirst { order = order.filter { scene.layers[$0].wantsText } + order.filter { !scene.layers[$0].wantsText } }
        for i in order {
            if let actions = ask(&scene.layers[i]) { return actions }
        }
        return nil
    }

    /// Who takes `event`; nil when nobody needs anything done.
    private mutating func route(_ event: InputEvent, at t: Double) -> [LayerAction]? {
        let context = inputContext(at: t)
        // The notice takes the click that closes it, and Esc when the pins want none.
        if let frame = lastFrame.noticeFrame {
            switch event {
            case let .pointerDown(_, p, _, _) where frame.contains(p):
                dismissNotice(); return [.changed]
            case .keyDown(.escape, _) where !context.pinsBusy:
                dismissNotice(); return [.changed]
            default: break
            }
        }
        if let actions = offer(typingFirst: true, { $0.take(event, context: context) }) { return actions }
        if let actions = focusInput(event, context: context) { return actions }
        // Typed text only matters while a title is being edited.
        if case .text = event, controller.pins.renameText == nil { return nil }
        var actions: [LayerAction] = []
        // A press on a button drawn over the map is the button's, not a pin's beneath it: it
        // becomes the click that presses the button (the map's gestures still start there).
        var overButton = false
        if case let .pointerDown(_, p, _, _) = event { overButton = lastFrame.button(at: p) != nil }
        for a in controller.handle(event, at: t, overButton: overButton) {
            switch a {
            case .redraw: actions.append(.changed)
            case .quit: pending.append(.quit)
            case let .open(path): pending.append(.open(path))
            case let .clicked(p): actions += click(at: p, context: context)
            case let .hovered(p):
                pointer = p
                var changed = false
                for i in scene.layers.indices { changed = scene.layers[i].hover(at: p, context: context) || changed }
                if changed { actions.append(.changed) }
            case let .command(command, key): actions += perform(command, key: key, at: t, context: context)
            }
        }
        return actions
    }

    /// A click no pin took: a button drawn there, else the layers top first.
    private mutating func click(at p: ScreenPoint, context: InputContext) -> [LayerAction] {
        if let id = lastFrame.button(at: p), let actions = offer({ $0.press(id, context: context) }) { return actions }
        return offer { $0.click(at: p, context: context) } ?? []
    }

    /// A command of the key table: the layers' first, then the session's own.
    private mutating func perform(_ command: KeyBinding.Command, key: Key, at t: Double, context: InputContext) -> [LayerAction] {
        // Esc stops long work under way before it closes a list or puts a selection away.
        if command == .cancel, status != nil { return [.effect(.cancelWork)] }
        if let actions = offer({ $0.perform(command, key: key, context: context) }) { return actions }
        switch command {
        case .quit: return [.effect(.quit)]
        case .fullscreen: return [.effect(.toggleFullscreen)]
        case .openFiles: return [.effect(.chooseFiles)]
        case .exportMap: return [.effect(.exportMap)]
        case .printMap: return [.effect(.printMap)]
        case .saveTrail: return [.effect(.saveTrail)]
        case .follow: return [.toggleFollow]
        case .copyPosition: return [.effect(.copy(copiedPosition))]
        case .whatIsHere: return [.effect(.whatIsHereOnline(pointedAt))]
        case .focusNext: moveFocus(forward: true); return [.changed]
        case .focusPrevious: moveFocus(forward: false); return [.changed]
        // An app's own command no layer took is the app's: `request.as(KeyBinding.Command.self)`.
        case .custom: return [.effect(.layer(LayerRequest(command)))]
        default: return []
        }
    }

    /// The selected pin's point, else the one under the pointer, else the centre's.
    private var pointedAt: Coordinate {
        if let id = controller.pins.selected, let pin = controller.pins.pin(id) { return pin.coordinate }
        if let p = pointer { return controller.camera.coordinate(for: p) }
        return controller.camera.centerCoordinate
    }

    /// Ctrl+C: the selected pin's coordinates (after what is there, when known: "Aleksanterinkatu
    /// 52, Kluuvi (60.168673, 24.941931)"), else those under the pointer, else the centre's.
    private var copiedPosition: String {
        let c = pointedAt
        let at = String(cFormat: "%.6f, %.6f", c.latitude, c.longitude)
        guard let id = controller.pins.selected, controller.pins.pin(id) != nil, let w = controller.pins.whereabouts[c], !w.isEmpty else { return at }
        return w + " (" + at + ")"
    }

    /// Key F and the locate button: follow the location, or stop.
    mutating func toggleFollow(at t: Double) {
        if controller.following {
            controller.following = false
        } else if let loc = scene.location {
            controller.startFollowing(loc.point(at: t), at: t)
        } else {
            post(notice: "No position yet: Meridian follows it once a fix arrives (gpsd, GeoClue, or --location-source)")
        }
    }

    /// Tab (Shift+Tab): the focus ring moves through the buttons the last frame drew that
    /// are stops, in the order drawn.
    private mutating func moveFocus(forward: Bool) {
        let ids = lastFrame.buttons.filter(\.focusStop).map(\.id)
        guard !ids.isEmpty else { focused = nil; return }
        let i = focused.flatMap { ids.firstIndex(of: $0) }
        focused = ids[((i ?? (forward ? -1 : 0)) + (forward ? 1 : ids.count - 1)) % ids.count]
    }

    /// Keys while a button has the focus: Enter or Space presses it; Esc, or any other key
    /// but Tab, lets go of it. Nil for what it leaves to the map.
    private mutating func focusInput(_ event: InputEvent, context: InputContext) -> [LayerAction]? {
        guard let id = focused, case let .keyDown(key, _) = event else { return nil }
        switch key {
        case .enter, .space: return offer { $0.press(id, context: context) } ?? [.changed]
        case .tab: return nil
        default:
            focused = nil
            return key == .escape ? [.changed] : nil
        }
    }
}
