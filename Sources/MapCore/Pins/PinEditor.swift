import FoundationEssentials
import Glibc
import Platform
import MapGeometry

/// The pins and everything a user does to them: select, drag, add, delete, rename, undo.
/// Pure: time and the camera come with every call; what happened comes back as `PinEvent`s.
/// Pins are kept in paint order, north to south, so a pin further south (nearer the viewer on
/// a map seen from the south) overlaps the ones behind it.
public struct PinEditor: Sendable {
    public private(set) var pins: [Pin] = []
    /// Each pin's Web Mercator point, projected once (drawing 10,000 pins costs no trigonometry).
    public private(set) var points: [MapPoint] = []
    public private(set) var selected: String?
    public private(set) var drag = PinDragMachine()
    public private(set) var history = PinHistory()
    /// New pins falling into place: id → when the drop began.
    public private(set) var drops: [String: Double] = [:]
    /// The title being typed (F2, or a double-click on the callout's title).
    public private(set) var renameText: String?
    /// Renaming has just begun: the old title is selected, and typing replaces it.
    public private(set) var renameSelectsAll = false
    /// The colour and title of pins added with a right-click.
    public var newPinColor = Color(hex: 0xFF3B30)
    // TRANSLATORS: the title of a pin dropped with a right-click (until it is renamed).
    public var newPinTitle = tr("Dropped Pin")
    /// What is at a pin's point (the nearest address or street, and the district), as the
    /// host looked it up in the street maps' indexes: the callout shows it, Ctrl+C copies it.
    public private(set) var whereabouts: [Coordinate: String] = [:]

    /// Says what is at `c` (nil: nothing known). Only the last few hundred are kept.
    public mutating func setWhereabouts(_ text: String?, at c: Coordinate) {
        if whereabouts.count >= 256 { whereabouts.removeAll() }
        whereabouts[c] = text
    }

    public init(pins: [Pin] = []) {
        for p in pins { insert(p) }
    }

    public func index(of id: String) -> Int? { pins.firstIndex { $0.id == id } }
    public func pin(_ id: String) -> Pin? { index(of: id).map { pins[$0] } }

    /// The topmost pin whose hit area holds `p`; of `pressable` only, when given (the pins the
    /// last frame drew standing alone, while others were gathered into bubbles).
    public func hit(_ p: ScreenPoint, camera: Camera, pressable: Set<String>? = nil) -> Pin? {
        for i in pins.indices.reversed() {
            let tip = camera.screenPoint(for: points[i])
            if Pin.hitRect(tip: tip).contains(p), pressable?.contains(pins[i].id) ?? true { return pins[i] }
        }
        return nil
    }

    /// True while anything about the pins moves by itself.
    public func isAnimating(at t: Double) -> Bool {
        drag.isActive || drops.values.contains { t - $0 < PinDragMachine.dropDuration }
    }

    // MARK: Editing

    /// Applies an edit without recording it; returns what changed.
    @discardableResult
    mutating func apply(_ edit: PinEdit) -> [PinEvent] {
        switch edit {
        case let .add(p):
            guard index(of: p.id) == nil else { return [] }
            insert(p)
            return [.added(p)]
        case let .delete(p):
            guard let i = index(of: p.id) else { return [] }
            let gone = remove(at: i)
            var events: [PinEvent] = [.deleted(gone)]
            if selected == p.id { selected = nil; renameText = nil; events.append(.selected(pin: nil)) }
            return events
        case let .move(id, from, to):
            guard let i = index(of: id) else { return [] }
            var p = remove(at: i)
            p.coordinate = to
            insert(p)
            return [.moved(p, from: from)]
        case let .rename(id, from, to):
            guard let i = index(of: id) else { return [] }
            pins[i].title = to
            return [.renamed(pins[i], from: from)]
        }
    }

    /// Does and records an edit.
    mutating func perform(_ edit: PinEdit) -> [PinEvent] {
        let events = apply(edit)
        if !events.isEmpty { history.record(edit) }
        return events
    }

    /// A new pin at `coordinate`, falling into place from t, selected.
    public mutating func add(at coordinate: Coordinate, title: String? = nil, t: Double) -> [PinEvent] {
        let p = Pin(coordinate: coordinate, title: title ?? newPinTitle, color: newPinColor)
        drops[p.id] = t
        return perform(.add(p)) + select(p.id)
    }

    public mutating func deleteSelected() -> [PinEvent] {
        guard let id = selected, !drag.isActive, let p = pin(id) else { return [] }
        return perform(.delete(p))
    }

    public mutating func undo() -> [PinEvent] {
        guard !drag.isActive, renameText == nil, let e = history.undo() else { return [] }
        return apply(e)
    }

    public mutating func redo() -> [PinEvent] {
        guard !drag.isActive, renameText == nil, let e = history.redo() else { return [] }
        return apply(e)
    }

    public mutating func select(_ id: String?) -> [PinEvent] {
        guard id != selected else { return [] }
        var events = commitRename()
        selected = id
        events.append(.selected(pin: id))
        return events
    }

    // MARK: Renaming

    public mutating func beginRename() {
        guard let id = selected, let p = pin(id), !drag.isActive else { return }
        renameText = p.title
        renameSelectsAll = true
    }

    public mutating func type(_ text: String) {
        guard renameText != nil else { return }
        if renameSelectsAll { renameText = ""; renameSelectsAll = false }
        // Titles are one line: typed or pasted line breaks become spaces.
        renameText! += String(text.map { $0.isNewline ? " " : $0 })
    }

    public mutating func backspace() {
        guard renameText != nil else { return }
        if renameSelectsAll { renameText = ""; renameSelectsAll = false; return }
        if renameText?.isEmpty == false { renameText!.removeLast() }
    }

    public mutating func cancelRename() { renameText = nil }

    public mutating func commitRename() -> [PinEvent] {
        guard let text = renameText else { return [] }
        renameText = nil
        guard let id = selected, let p = pin(id) else { return [] }
        let title = text.trimmed
        guard title != p.title else { return [] }
        return perform(.rename(pin: id, from: p.title, to: title))
    }

    // MARK: Dragging

    public mutating func press(_ pin: Pin, at p: ScreenPoint, camera: Camera, t: Double) -> [PinEvent] {
        let tip = camera.screenPoint(for: WebMercator.project(pin.coordinate))
        return convert(drag.press(pin: pin.id, at: p, tip: tip, coordinate: pin.coordinate, t: t))
    }

    public mutating func move(to p: ScreenPoint, camera: Camera, t: Double) -> [PinEvent] {
        convert(drag.move(to: p, t: t, coordinateAt: { camera.coordinate(for: $0) }))
    }

    public mutating func release(t: Double) -> [PinEvent] { convert(drag.release(t: t)) }
    public mutating func cancelDrag(t: Double) -> [PinEvent] { convert(drag.cancel(t: t)) }

    /// Time passes: a held press lifts, drops land, finished drop animations are forgotten.
    public mutating func tick(_ t: Double) -> [PinEvent] {
        drops = drops.filter { t - $0.value < PinDragMachine.dropDuration }
        return convert(drag.tick(t))
    }

    /// Brings every gesture to its end at once (the window is closing): a drop lands, a drag
    /// in the air floats back, a rename is kept.
    public mutating func finishAll(t: Double) -> [PinEvent] {
        var events = commitRename()
        if drag.state == .starting || drag.state == .dragging { events += cancelDrag(t: t) }
        if drag.armedPin != nil { events += convert(drag.cancel(t: t)) }
        events += tick(t + PinDragMachine.dropDuration)
        return events
    }

    private mutating func convert(_ events: [PinDragEvent]) -> [PinEvent] {
        var out: [PinEvent] = []
        for e in events {
            switch e {
            case let .stateChanged(id, state):
                out.append(.dragStateChanged(pin: id, state))
                // A lifted pin is the one the user is working with.
                if state == .starting { out += select(id) }
            case let .clicked(id):
                out += select(id)
            case let .moved(id, from, to):
                if from != to { out += perform(.move(pin: id, from: from, to: to)) }
            }
        }
        return out
    }

    // MARK: Storage in paint order

    private mutating func insert(_ p: Pin) {
        let point = WebMercator.project(p.coordinate)
        // Binary search for the first pin further south (larger y): keep north-to-south order.
        var lo = 0, hi = points.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if points[mid].y <= point.y { lo = mid + 1 } else { hi = mid }
        }
        pins.insert(p, at: lo)
        points.insert(point, at: lo)
    }

    private mutating func remove(at i: Int) -> Pin {
        points.remove(at: i)
        return pins.remove(at: i)
    }
}
