import FoundationEssentials
import Glibc
import Platform
import MapGeometry

/// The pieces pins are drawn with.
public enum PinSprite: SpriteSpec {
    /// A pin's image, head and needle, its tip at the bottom centre (`Pin.imageSize`).
    case pin(Color)
    /// The soft shadow a pin casts on the ground (`Pin.shadowSize`, tip at `Pin.shadowTip`).
    case shadow
    /// A bubble standing for many crowded pins, with their count.
    case cluster(String)
    /// The mark on the ground where a carried pin will land.
    case groundMark
    /// A selected pin's bubble: title (with a caret while `editing`) over its coordinates.
    case callout(title: String, detail: String, editing: CalloutEditing)
}

extension SpriteKey {
    public static func pin(_ c: Color) -> SpriteKey { SpriteKey(PinSprite.pin(c)) }
    public static let pinShadow = SpriteKey(PinSprite.shadow)
    public static func pinCluster(_ label: String) -> SpriteKey { SpriteKey(PinSprite.cluster(label)) }
    public static let pinGroundMark = SpriteKey(PinSprite.groundMark)
    public static func callout(title: String, detail: String, editing: CalloutEditing) -> SpriteKey {
        SpriteKey(PinSprite.callout(title: title, detail: detail, editing: editing))
    }
}

/// Pins: all shadows first (they lie on the ground), then the pins north to south, then the
/// carried pin above the rest with its ground mark; the selected pin's callout at the callout
/// level, above all map content. Off-screen pins cost one comparison, and a pin whose tip
/// falls in the same few-point cell as a pin drawn over it is left out: it would be hidden
/// anyway, and 10,000 pins seen from afar stay cheap.
public struct PinsLayer: MapLayer {
    /// The pins themselves: this layer is their one owner.
    public var pins: PinEditor
    /// What happened to the pins since the session last asked (`takeEvents`).
    var events: [PinEvent] = []
    /// The pointer, while a pin is carried (auto-pan near the edges needs it between events).
    var pointer: ScreenPoint?
    var lastAutoPan: Double?

    public init(pins: PinEditor = PinEditor()) { self.pins = pins }

    public var levels: [LayerLevel] { [.overlay, .callout] }

    /// Pins whose tips share a cell this many points wide look like one pin.
    static let pinCell = 4.0
    /// Beyond this many pins on screen, crowded pins gather into clusters: every pin costs
    /// its pixels on a software renderer, and a carpet of thousands of pins says nothing.
    public static let pinBudget = 500
    /// Cluster cells, in points at the zoom level below the current one (fixed on the map,
    /// so panning never reshuffles them; they change only when the zoom crosses a level).
    static let clusterCell = 48.0

    public func labelExclusions(_ context: LayerContext) -> [ScreenRect] {
        Composer(pins: pins, camera: context.camera).pinRectsForLabels()
    }

    public func compose(at level: LayerLevel, into list: inout DrawList, context: LayerContext) {
        let c = Composer(pins: pins, camera: context.camera)
        if level == .overlay { c.composePins(into: &list, at: context.time, sprites: context.sprites) }
        else { c.composeSelectedCallout(into: &list, at: context.time, sprites: context.sprites) }
    }

    /// Pins seen through one camera.
    struct Composer {
        let pins: PinEditor
        let camera: Camera
    }
}

extension PinsLayer.Composer {

    func composePins(into list: inout DrawList, at t: Double, sprites: SpriteAvailability) {
        guard !pins.pins.isEmpty else { return }
        let size = Pin.imageSize
        let w = camera.viewportSize.width, h = camera.viewportSize.height
        let carried = pins.drag.pin
        let carriedIndex = carried.flatMap { pins.index(of: $0) }
        let shadowReady = sprites.size(of: .pinShadow) != nil
        // Pins falling into place are rare: with none, the per-pin id lookups are skipped.
        let dropping = !pins.drops.isEmpty

        // Every pin on screen, topmost first.
        var visible: [(Int, ScreenPoint)] = []
        for i in pins.pins.indices.reversed() where i != carriedIndex {
            var tip = camera.screenPoint(for: pins.points[i])
            guard tip.x > -size.width, tip.x < w + size.width, tip.y > 0, tip.y < h + size.height else { continue }
            if dropping, let start = pins.drops[pins.pins[i].id] {
                tip.y -= size.height * PinDragMachine.dropHeight(progress: (t - start) / PinDragMachine.dropDuration)
                list.animating = true
            }
            visible.append((i, tip))
        }
        var shown: [(Int, ScreenPoint)]
        if visible.count > PinsLayer.pinBudget {
            let (singles, clusters) = cluster(visible)
            shown = singles
            // Pins inside bubbles cannot be pressed; the ones standing alone can.
            list.pressablePins = Set(singles.map { pins.pins[$0.0].id })
            for c in clusters { placeCluster(c, into: &list, sprites: sprites) }
        } else {
            shown = thin(visible, width: w, height: h)
        }
        shown.reverse()
        if !shadowReady { list.wantedSprites.append(.pinShadow) }
        // Pins share a few colours: look each one up once, not once per pin.
        var colors: [(Color, Bool)] = []
        func ready(_ c: Color) -> Bool {
            if let known = colors.first(where: { $0.0 == c }) { return known.1 }
            let ok = sprites.size(of: .pin(c)) != nil
            if !ok { list.wantedSprites.append(.pin(c)) }
            colors.append((c, ok))
            return ok
        }
        if shadowReady {
            for (i, tip) in shown {
                let ground = dropping && pins.drops[pins.pins[i].id] != nil ? camera.screenPoint(for: pins.points[i]) : tip
                list.commands.append(.sprite(.pinShadow, destination: shadowRect(ground, scale: 1), opacity: 1))
            }
        }
        for (i, tip) in shown where ready(pins.pins[i].color) {
            list.commands.append(.sprite(.pin(pins.pins[i].color), destination: pinRect(tip), opacity: 1))
        }
        list.pinsDrawn = shown.count

        if let i = carriedIndex, let groundAt = pins.drag.ground(at: t) {
            let pin = pins.pins[i]
            // The carried pin floats above the point where it will land, shown by its shadow
            // and a mark on the ground.
            let ground = camera.screenPoint(for: groundAt)
            let lift = pins.drag.lift(at: t)
            if lift > 0.05 { place(.pinGroundMark, centeredAt: ground, side: Pin.groundMarkSize, opacity: min(lift * 2, 1), into: &list, sprites: sprites) }
            let spread = 1 + 0.35 * max(lift, 0)
            list.place(.pinShadow, rect: shadowRect(ground, scale: spread), opacity: 1 - 0.45 * max(lift, 0), sprites: sprites)
            list.place(.pin(pin.color), rect: pinRect(ScreenPoint(x: ground.x, y: ground.y - size.height * lift)), opacity: 1, sprites: sprites)
            list.animating = list.animating || pins.drag.state != .dragging
            list.pinsDrawn += 1
        }
    }

    /// The selected pin's callout (none while a pin is carried).
    func composeSelectedCallout(into list: inout DrawList, at t: Double, sprites: SpriteAvailability) {
        if let carried = pins.drag.pin, pins.index(of: carried) != nil, pins.drag.ground(at: t) != nil { return }
        guard let id = pins.selected, let i = pins.index(of: id) else { return }
        let pin = pins.pins[i], tip = camera.screenPoint(for: pins.points[i])
        let key = PinCallout.sprite(for: pin, editing: pins.renameText, selectedAll: pins.renameSelectsAll,
                                    whereabouts: pins.whereabouts[pin.coordinate])
        guard let s = sprites.size(of: key) else {
            list.wantedSprites.insert(key, at: 0)
            return
        }
        let rect = ScreenRect(x: (tip.x - s.width / 2).rounded(), y: (tip.y - Pin.imageSize.height - PinCallout.gap - s.height).rounded(),
                              width: s.width, height: s.height)
        list.calloutFrame = rect
        list.calloutTitleFrame = ScreenRect(x: rect.x, y: rect.y, width: rect.width, height: PinCallout.padding + PinCallout.titleHeight)
        list.commands.append(.sprite(key, destination: rect, opacity: 1))
    }

    /// Where pins stand, for place labels to keep clear of (the carried pin moves, so it does
    /// not count; with crowds of pins, labels do not try).
    func pinRectsForLabels() -> [ScreenRect] {
        guard !pins.pins.isEmpty, pins.pins.count <= 4 * PinsLayer.pinBudget else { return [] }
        let w = camera.viewportSize.width, h = camera.viewportSize.height
        var rects: [ScreenRect] = []
        for i in pins.pins.indices where pins.pins[i].id != pins.drag.pin {
            let tip = camera.screenPoint(for: pins.points[i])
            guard tip.x > -40, tip.x < w + 40, tip.y > -10, tip.y < h + 40 else { continue }
            // The head, and the thin needle under it: a label may sit beside the needle.
            rects.append(ScreenRect(x: tip.x - 9, y: tip.y - Pin.imageSize.height, width: 18, height: 19))
            rects.append(ScreenRect(x: tip.x - 2, y: tip.y - Pin.imageSize.height + 19, width: 4, height: Pin.imageSize.height - 19))
            if rects.count > 2 * PinsLayer.pinBudget { return [] }
        }
        return rects
    }

    /// Keeps the topmost pin of each few-point cell: the rest would be hidden under it.
    private func thin(_ visible: [(Int, ScreenPoint)], width w: Double, height h: Double) -> [(Int, ScreenPoint)] {
        let cols = Int(saturating: w / PinsLayer.pinCell) + 1, rows = Int(saturating: h / PinsLayer.pinCell) + 1
        var taken = [UInt64](repeating: 0, count: (cols * rows + 63) / 64)
        var shown: [(Int, ScreenPoint)] = []
        for (i, tip) in visible {
            let cx = Int(saturating: min(max(tip.x, 0), w) / PinsLayer.pinCell), cy = Int(saturating: min(max(tip.y, 0), h) / PinsLayer.pinCell)
            let cell = cy * cols + cx
            if taken[cell >> 6] & (1 << UInt64(cell & 63)) != 0 { continue }
            taken[cell >> 6] |= 1 << UInt64(cell & 63)
            shown.append((i, tip))
        }
        return shown
    }

    /// Groups pins by map cells: a cell holding one pin shows the pin, a crowded cell one
    /// bubble with the count at the pins' mean position.
    private func cluster(_ visible: [(Int, ScreenPoint)]) -> (singles: [(Int, ScreenPoint)], clusters: [PinCluster]) {
        let cell = PinsLayer.clusterCell / pow(2, camera.zoom.rounded(.down))
        var cells: [Int: PinCluster] = [:]
        cells.reserveCapacity(1024)
        for (i, tip) in visible {
            let p = pins.points[i]
            let key = Int(saturating: (p.y / cell).rounded(.down)) &* 1_000_003 &+ Int(saturating: (p.x / cell).rounded(.down))
            if var c = cells[key] {
                c.count += 1
                c.sum = c.sum + tip
                cells[key] = c
            } else {
                cells[key] = PinCluster(first: i, firstTip: tip, count: 1, sum: tip)
            }
        }
        var singles: [(Int, ScreenPoint)] = [], clusters: [PinCluster] = []
        for c in cells.values {
            if c.count == 1 { singles.append((c.first, c.firstTip)) } else { clusters.append(c) }
        }
        // Topmost first, like `visible`: by paint order, later pins over earlier ones.
        singles.sort { $0.0 > $1.0 }
        clusters.sort { $0.first < $1.first }
        return (singles, clusters)
    }

    private func placeCluster(_ c: PinCluster, into list: inout DrawList, sprites: SpriteAvailability) {
        let key = SpriteKey.pinCluster(PlacedPinCluster.label(c.count))
        let center = ScreenPoint(x: c.sum.x / Double(c.count), y: c.sum.y / Double(c.count) - 10)
        guard let s = sprites.size(of: key) else {
            list.want(key)
            return
        }
        let rect = ScreenRect(x: (center.x - s.width / 2).rounded(), y: (center.y - s.height / 2).rounded(), width: s.width, height: s.height)
        list.commands.append(.sprite(key, destination: rect, opacity: 1))
        list.pinClusters.append(PlacedPinCluster(frame: rect, count: c.count))
    }

    private func pinRect(_ tip: ScreenPoint) -> ScreenRect {
        ScreenRect(x: tip.x - Pin.imageSize.width / 2, y: tip.y - Pin.imageSize.height, width: Pin.imageSize.width, height: Pin.imageSize.height)
    }

    private func shadowRect(_ ground: ScreenPoint, scale: Double) -> ScreenRect {
        let s = Pin.shadowSize, a = Pin.shadowTip
        return ScreenRect(x: ground.x - a.x * scale, y: ground.y - a.y * scale, width: s.width * scale, height: s.height * scale)
    }

    private func place(_ key: SpriteKey, centeredAt c: ScreenPoint, side: Double, opacity: Double, into list: inout DrawList, sprites: SpriteAvailability) {
        list.place(key, rect: ScreenRect(x: c.x - side / 2, y: c.y - side / 2, width: side, height: side), opacity: opacity, sprites: sprites)
    }
}
