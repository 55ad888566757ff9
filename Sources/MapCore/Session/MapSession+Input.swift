import FoundationEssentials
import MapGeometry
import Platform

/// Input through the session, in the order things are drawn, top first: a layer being typed in
/// (a search box, a pin's title) takes keys and text before all; a press on a button drawn
/// over the map is the button's; then each layer in z-order (the notice, the pins, measuring…),
/// then the keyboard's focus; what no layer took is the camera's own, the bottom of the stack
/// (`MapController`: pan, zoom, the key table). What the camera leaves — a click, a command —
/// goes back to the layers top first, then to the session.
extension MapSession {
    /// Handles one event at time `t`; returns what the host must do (`.redraw` among them
    /// when the picture may have changed).
    public mutating func handle(_ event: InputEvent, at t: Double) -> [SessionEffect] {
        advance(to: t)
        let before = controller.camera
        if let actions = route(event, at: t) { run(actions, at: t) }
        if controller.camera != before || isAnimating(at: t) { pending.append(.redraw) }
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
            case let .keepAsPin(c, title): changePins { $0.add(at: c, title: title, at: t) }
            case let .dropPin(c): changePins { $0.add(at: c, title: nil, at: t) }
            case let .zoomBy(levels): controller.zoom(by: levels, at: t)
            case let .zoom(levels, p): controller.zoom(by: levels, around: p, at: t)
            case .holdCamera: controller.hold(at: t)
            case .turnNorth: controller.turnNorth(at: t)
            case .dismissNotice: dismissNotice()
            case let .notice(text): post(notice: text)
            case let .setOverlay(name, visible, opacity): setOverlay(name, visible: visible, opacity: opacity)
            case let .effect(e): pending.append(e)
            }
        }
        pending.append(.redraw)
    }

    /// Changes the first layer of a kind and carries out what it asks (a box given its
    /// places, a worker's result).
    public mutating func update<L: MapLayer>(_ kind: L.Type, at t: Double, _ body: (inout L) -> [LayerAction]) {
        guard let i = scene.index(of: kind), let actions = scene.change(at: i, as: kind, body) else { return }
        run(actions, at: t)
    }

    /// Every key this session answers: the controller's table, then its layers' own keys (as
    /// the help lists them).
    public var keyTable: [KeyBinding] { controller.keys + scene.layers.flatMap(\.keyBindings) }

    private func inputContext(at t: Double) -> InputContext {
        var context = InputContext(camera: controller.camera, time: t, lastFrame: lastFrame, facts: facts,
                                   pinsBusy: scene.layer(PinsLayer.self)?.isBusy ?? false, focused: focused)
        context.keys = controller.keyTable
        let pinsLayer = scene.layer(PinsLayer.self)
        context.pins = pinsLayer?.pins.pins ?? []
        context.carryingPin = pinsLayer?.pins.drag.isActive ?? false
        return context
    }

    /// The layers' indices, the one drawn on top first (by its highest level, then its place).
    private var inputOrder: [Int] {
        // Each layer's top level once, not once per comparison (a drag asks per event).
        let top = scene.layers.map { $0.levels.max() ?? .base }
        return top.indices.sorted { a, b in top[a] != top[b] ? top[a] > top[b] : a > b }
    }

    /// Offers `ask` to the layers at `indices` in turn; returns the first answer.
    private mutating func offer(_ indices: [Int], _ ask: (inout any MapLayer) -> [LayerAction]?) -> [LayerAction]? {
        for i in indices {
            if let actions = ask(&scene.layers[i]) { return actions }
        }
        return nil
    }

    /// Offers `ask` to every layer, top first.
    private mutating func offer(_ ask: (inout any MapLayer) -> [LayerAction]?) -> [LayerAction]? {
        offer(inputOrder, ask)
    }

    /// Who takes `event`; nil when nobody needs anything done.
    private mutating func route(_ event: InputEvent, at t: Double) -> [LayerAction]? {
        // The layers' own keys, as the scene has them now (a layer added or taken out): before
        // a key is looked up, and before a button is pressed (the help's ? lists them).
        switch event {
        case .keyDown, .pointerUp: controller.layerKeys = scene.layers.flatMap(\.keyBindings)
        default: break
        }
        let context = inputContext(at: t)
        let typing = inputOrder.filter { scene.layers[$0].wantsText }
        if let actions = offer(typing, { $0.take(event, context: context) }) { return actions }
        if let actions = turnInput(event, context: context, typing: typing, at: t) { return actions }
        return route(event, context: context, typing: typing, at: t)
    }

    /// The right button turns the map when it drags: its press is held back from the layers
    /// until it is known to be a click (released before the pointer moved away), and then
    /// handed to them with its release — the menu, a pin dropped. Nil for what is not a
    /// right-drag's.
    private mutating func turnInput(_ event: InputEvent, context: InputContext, typing: [Int], at t: Double) -> [LayerAction]? {
        switch event {
        case let .pointerDown(.right, p, _, _):
            // A pin carried is put back by the right button at once (the pins' own rule).
            guard !context.carryingPin else { return nil }
            controller.holdRightPress(event, at: p)
            return []
        case .pointerMoved:
            guard controller.rightPress != nil || controller.isTurning else { return nil }
            controller.handle(event, at: t)
            return []
        case .pointerUp(.right, _):
            if controller.isTurning {
                controller.handle(event, at: t)
                return [.changed]
            }
            guard let press = controller.takeRightPress() else { return nil }
            let down = route(press.event, context: context, typing: typing, at: t) ?? []
            let up = route(event, context: inputContext(at: t), typing: typing, at: t) ?? []
            return down + up
        default:
            return nil
        }
    }

    /// Who takes `event` below what is being typed in and the turning right button.
    private mutating func route(_ event: InputEvent, context: InputContext, typing: [Int], at t: Double) -> [LayerAction]? {
        let order = inputOrder
        if let actions = buttonInput(event, context: context) { return actions }
        let rest = typing.isEmpty ? order : order.filter { !typing.contains($0) }
        if let actions = offer(rest, { $0.take(event, context: context) }) { return actions }
        if let actions = focusInput(event, context: context) { return actions }
        // Typed text only matters to what is being typed in, which took it above.
        if case .text = event { return nil }
        var actions: [LayerAction] = []
        for a in controller.handle(event, at: t) {
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

    /// A click on the map: the layers top first until one takes it; every other layer puts its
    /// selection away (a click on a track puts the selected pin away, a click on nothing both).
    private mutating func click(at p: ScreenPoint, context: InputContext) -> [LayerAction] {
        var taken: [LayerAction]?, taker: Int?
        for i in inputOrder {
            taken = scene.layers[i].click(at: p, context: context)
            if taken != nil { taker = i; break }
        }
        var cleared = false
        for i in scene.layers.indices where i != taker { cleared = scene.layers[i].clearSelection() || cleared }
        return (taken ?? []) + (cleared ? [.changed] : [])
    }

    /// A press on a button drawn over the map is the button's, whatever lies beneath (a pin
    /// under the + button is not lifted by a press on +): the button is pressed when the
    /// pointer is released over it, and nothing under it sees the press, the moves or the
    /// release. Nil for what is not a button's.
    private mutating func buttonInput(_ event: InputEvent, context: InputContext) -> [LayerAction]? {
        switch event {
        case let .pointerDown(.left, p, _, _):
            pressedButton = lastFrame.button(at: p)
            return pressedButton == nil ? nil : []
        case .pointerMoved:
            return pressedButton == nil ? nil : []
        case let .pointerUp(.left, p):
            guard let id = pressedButton else { return nil }
            pressedButton = nil
            guard lastFrame.button(at: p) == id else { return [.changed] }
            return offer { $0.press(id, context: context) } ?? [.changed]
        case .focusLost:
            pressedButton = nil
            return nil
        default:
            return nil
        }
    }

    /// A command of the key table: the layers' first, then the session's own.
    private mutating func perform(_ command: KeyBinding.Command, key: Key, at t: Double, context: InputContext) -> [LayerAction] {
        // Esc stops long work under way before it closes a list or puts a selection away.
        if command == .cancel, status != nil { return [.effect(.cancelWork)] }
        if let actions = offer({ $0.perform(command, key: key, context: context) }) { return actions }
        switch command {
        case .follow: return [.toggleFollow]
        case .copyPosition: return [.effect(.copy(copiedPosition))]
        case .focusNext: moveFocus(forward: true); return [.changed]
        case .focusPrevious: moveFocus(forward: false); return [.changed]
        // An app's own command no layer took is the app's: `request.as(KeyBinding.Command.self)`.
        case .custom: return [.effect(.layer(LayerRequest(command)))]
        default: return []
        }
    }

    /// The selected pin's point, else the one under the pointer, else the centre's: what a
    /// command about "here" is about (Ctrl+C, an app's "what is here").
    public var pointedAt: Coordinate {
        let pins = scene.pins
        if let id = pins.selected, let pin = pins.pin(id) { return pin.coordinate }
        if let p = pointer { return controller.camera.coordinate(for: p) }
        return controller.camera.centerCoordinate
    }

    /// Ctrl+C: the selected pin's coordinates (after what is there, when known: "Aleksanterinkatu
    /// 52, Kluuvi (60.168673, 24.941931)"), else those under the pointer, else the centre's.
    private var copiedPosition: String {
        let c = pointedAt
        let at = String(cFormat: "%.6f, %.6f", c.latitude, c.longitude)
        let pins = scene.pins
        guard let id = pins.selected, pins.pin(id) != nil, let w = pins.whereabouts[c], !w.isEmpty else { return at }
        return w + " (" + at + ")"
    }

    /// Key F and the locate button, in turn: follow the location, then with its course up,
    /// then stop (the map turning back north-up, as it was before the course turned it).
    mutating func toggleFollow(at t: Double) {
        switch controller.followMode {
        case .follow:
            controller.followMode = .headingUp
        case .headingUp:
            controller.followMode = .off
            controller.turnNorth(at: t)
        case .off:
            if let loc = scene.location {
                controller.startFollowing(loc.point(at: t), at: t)
            } else {
                post(notice: position.noFixYet ?? tr("No position yet: the map follows it once a fix arrives"))
            }
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
