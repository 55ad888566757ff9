import FoundationEssentials
import MapCore
import MapGeometry
import Platform

/// How directions look: the waypoints as pins (green start, grey vias, red end; a dragged one
/// lifted over the mark where it will land), the right-click menu, and the panel on the left:
/// the points, the mode, the summary and the steps.
extension DirectionsLayer {
    static let panelWidth = 340.0
    static let rowHeight = 26.0
    static let buttonFill = Color(hex: 0xFFFFFF, alpha: 0.16)
    static let panelFill = Color(hex: 0x1C1C1E, alpha: 0.94)

    public func compose(at level: LayerLevel, into list: inout DrawList, context: LayerContext) {
        if level == .callout { composePins(into: &list, context: context); return }
        if context.facts.selectedPin != nil, let callout = list.calloutFrame { composeCalloutButtons(above: callout, into: &list, context: context) }
        if isOpen { composePanel(into: &list, context: context) }
        if let menu { composeMenu(menu.at, onPin: menu.onPin, into: &list, context: context) }
    }

    public func labelExclusions(_ context: LayerContext) -> [ScreenRect] {
        isOpen ? [panelFrame(context.camera, steps: steps.count)] : []
    }

    private func composePins(into list: inout DrawList, context: LayerContext) {
        let cam = context.camera
        for (i, w) in waypoints.enumerated() {
            guard let w else { continue }
            let tip = cam.screenPoint(for: w)
            let ink = i == 0 ? Self.startInk : i == waypoints.count - 1 ? Self.endInk : Self.viaInk
            let lifted = drag?.index == i
            let s = Pin.imageSize, lift = lifted ? 14.0 : 0
            if lifted {
                let g = Pin.groundMarkSize
                context.place(.pinGroundMark, rect: ScreenRect(x: tip.x - g / 2, y: tip.y - g / 2, width: g, height: g), opacity: 1, into: &list)
            }
            context.place(.pinShadow, rect: ScreenRect(x: tip.x - Pin.shadowTip.x, y: tip.y - Pin.shadowTip.y,
                                                      width: Pin.shadowSize.width, height: Pin.shadowSize.height), opacity: lifted ? 0.5 : 1, into: &list)
            context.place(.pin(ink), rect: ScreenRect(x: tip.x - s.width / 2, y: tip.y - s.height - lift, width: s.width, height: s.height),
                          opacity: 1, into: &list)
        }
    }

    private func composeMenu(_ at: ScreenPoint, onPin: Bool, into list: inout DrawList, context: LayerContext) {
        // On a pin, the menu is about it: no second pin over it.
        // TRANSLATORS: the items of the menu a right-click on the map opens.
        var items: [(Button, String)] = (onPin ? [] : [(Button.menuPin, tr("Drop a pin here"))]) + [(.menuFrom, tr("Directions from here")), (.menuTo, tr("Directions to here"))]
        if waypoints[0] != nil && waypoints[waypoints.count - 1] != nil { items.append((.menuVia, tr("Add a via point here"))) }
        let keys = items.map { SpriteKey.text($0.1, .chrome) }
        let missing = keys.filter { context.sprites.size(of: $0) == nil }
        guard missing.isEmpty else { for k in missing { list.want(k) }; return }
        let width = (keys.map { context.sprites.size(of: $0)!.width }.max() ?? 100) + 24
        let v = context.camera.viewportSize
        let height = Double(items.count) * 28 + 8
        let frame = ScreenRect(x: min(at.x, v.width - width - 4), y: min(at.y, v.height - height - 4), width: width, height: height)
        list.commands.append(.fillRect(frame.outset(1), Color(hex: 0x000000, alpha: 0.25)))
        list.commands.append(.fillRect(frame, Color(hex: 0xFFFFFF)))
        for (n, ((id, _), key)) in zip(items, keys).enumerated() {
            let s = context.sprites.size(of: key)!
            let row = ScreenRect(x: frame.x, y: frame.y + 4 + Double(n) * 28, width: width, height: 28)
            list.place(key, rect: ScreenRect(x: row.x + 12, y: row.y + (28 - s.height) / 2, width: s.width, height: s.height), opacity: 1, sprites: context.sprites)
            list.button(id, frame: row, focusStop: true)
        }
    }

    /// "Directions from" and "to" on a selected pin's callout, just above it (the pin's own
    /// place, named by its title).
    private func composeCalloutButtons(above callout: ScreenRect, into list: inout DrawList, context: LayerContext) {
        // TRANSLATORS: two small buttons side by side above a selected pin: "Directions from" the pin, and "to" it.
        let items: [(Button, String)] = [(.calloutFrom, tr("Directions from")), (.calloutTo, trc("directions to a pin", "to"))]
        let keys = items.map { SpriteKey.text($0.1, .chrome) }
        let missing = keys.filter { context.sprites.size(of: $0) == nil }
        guard missing.isEmpty else { for k in missing { list.want(k) }; return }
        let widths = keys.map { context.sprites.size(of: $0)!.width + 16 }
        // Centred over the callout, as its pin is under it.
        var x = callout.x + (callout.width - widths.reduce(0, +) - 4 * Double(widths.count - 1)) / 2, y = max(4, callout.y - 26)
        if y + 24 > callout.y { y = callout.maxY + 2 }
        for ((id, _), (key, w)) in zip(items, zip(keys, widths)) {
            let s = context.sprites.size(of: key)!, r = ScreenRect(x: x, y: y, width: w, height: 22)
            list.commands.append(.fillRect(r.outset(1), Self.ink))
            list.commands.append(.fillRect(r, Color(hex: 0xFFFFFF)))
            list.place(key, rect: ScreenRect(x: r.x + 8, y: r.y + (22 - s.height) / 2, width: s.width, height: s.height), opacity: 1, sprites: context.sprites)
            list.button(id, frame: r, focusStop: true)
            x += w + 4
        }
    }

    /// The panel's place: the left side, below the search box, as tall as its steps need.
    func panelFrame(_ cam: Camera, steps: Int) -> ScreenRect {
        let v = cam.viewportSize
        let fixed = 10 + Double(waypoints.count) * Self.rowHeight + 10 + Self.rowHeight + 10 + 44 + profileHeight + 10
        let wanted = fixed + Double(min(steps, 40)) * Self.rowHeight + 10
        let top = 60.0
        return ScreenRect(x: 10, y: top, width: min(Self.panelWidth, v.width - 20), height: max(120, min(wanted, v.height - top - 50)))
    }

    /// Where the steps are listed in the panel (the wheel scrolls them there).
    func stepsFrame(_ cam: Camera) -> ScreenRect {
        let f = panelFrame(cam, steps: steps.count)
        let top = f.y + 10 + Double(waypoints.count) * Self.rowHeight + 10 + Self.rowHeight + 10 + 44 + profileHeight
        return ScreenRect(x: f.x, y: top, width: f.width, height: max(0, f.maxY - top - 6))
    }

    /// "60.1700, 24.9390" (four decimals: about 10 m).
    static func text(_ c: Coordinate?) -> String {
        guard let c else { return "—" }
        return String(cFormat: "%.4f, %.4f", c.latitude, c.longitude)
    }

    /// The arrow a step is shown with.
    static func icon(_ m: Maneuver) -> String {
        switch m {
        case .depart: "●"
        case .straight: "↑"
        case .slightLeft: "↖"
        case .left: "←"
        case .sharpLeft: "↙"
        case .slightRight: "↗"
        case .right: "→"
        case .sharpRight: "↘"
        case .uTurn: "↶"
        case let .roundabout(exit): exit > 0 ? "↻\(exit)" : "↻"
        case .via: "◆"
        case .arrive: "⚑"
        }
    }

    private func composePanel(into list: inout DrawList, context: LayerContext) {
        let cam = context.camera, sprites = context.sprites
        let f = panelFrame(cam, steps: steps.count)
        var wanted: [SpriteKey] = []
        func size(_ key: SpriteKey) -> ScreenSize? {
            if let s = sprites.size(of: key) { return s }
            wanted.append(key)
            return nil
        }
        list.commands.append(.fillRect(f, Self.panelFill))
        func text(_ string: String, at p: ScreenPoint, maxWidth: Double, opacity: Double = 1) {
            var key = SpriteKey.text(string, .notice)
            guard var s = size(key) else { return }
            // Too long a line is cut short with an ellipsis (measured once drawn: the shorter
            // line is drawn from the next frame on), never squeezed.
            if s.width > maxWidth {
                let keep = max(1, Int(saturating: (Double(string.count) * maxWidth / s.width).rounded(.down)) - 2)
                key = SpriteKey.text(String(string.prefix(keep)) + "…", .notice)
                guard let short = size(key) else { return }
                s = short
            }
            list.place(key, rect: ScreenRect(x: p.x, y: p.y, width: min(s.width, maxWidth), height: s.height), opacity: opacity, sprites: sprites)
        }
        func button(_ id: Button, _ title: String, _ r: ScreenRect, on: Bool = false) {
            list.commands.append(.fillRect(r, on ? Self.ink : Self.buttonFill))
            let key = SpriteKey.text(title, .notice)
            if let s = size(key) {
                list.place(key, rect: ScreenRect(x: r.x + (r.width - s.width) / 2, y: r.y + (r.height - s.height) / 2, width: min(s.width, r.width), height: s.height),
                           opacity: 1, sprites: sprites)
            }
            list.button(id, frame: r, focusStop: true)
        }
        let pad = 12.0
        var y = f.y + 10
        // The points: From, the vias (each with ✕), To.
        for (i, w) in waypoints.enumerated() {
            // TRANSLATORS: labels of the directions panel's rows: the start, the end, a point between (about 40 points wide).
            let name = i == 0 ? trc("route point", "From") : i == waypoints.count - 1 ? trc("route point", "To") : trc("route point", "Via")
            let ink = i == 0 ? Self.startInk : i == waypoints.count - 1 ? Self.endInk : Self.viaInk
            list.commands.append(.fillRect(ScreenRect(x: f.x + pad, y: y + 8, width: 10, height: 10), ink))
            text(name, at: ScreenPoint(x: f.x + pad + 18, y: y + 4), maxWidth: 40, opacity: 0.7)
            let field = ScreenRect(x: f.x + pad + 56, y: y + 1, width: f.width - 2 * pad - 56 - (i > 0 && i < waypoints.count - 1 ? 32 : 0), height: Self.rowHeight - 2)
            if editing == i {
                list.commands.append(.fillRect(field, Color(hex: 0xFFFFFF, alpha: 0.18)))
                text(typed.isEmpty ? tr("Type a place or coordinates") + "▏" : typed + "▏", at: ScreenPoint(x: field.x + 4, y: y + 4), maxWidth: field.width - 8,
                     opacity: typed.isEmpty ? 0.6 : 1)
            } else {
                text(names[safe: i].flatMap { $0 } ?? Self.text(w), at: ScreenPoint(x: field.x + 4, y: y + 4), maxWidth: field.width - 8)
            }
            list.button(Button.row(i), frame: field, focusStop: true)
            if i > 0 && i < waypoints.count - 1 {
                button(.removeVia(i), "✕", ScreenRect(x: f.maxX - pad - 26, y: y + 1, width: 26, height: Self.rowHeight - 2))
            }
            y += Self.rowHeight
        }
        y += 10
        // The mode, swap and clear.
        var x = f.x + pad
        // TRANSLATORS: a travel mode, on a button 56 points wide.
        let modes = [(TravelMode.car, trc("travel mode", "Car")),
                     // TRANSLATORS: a travel mode (by bicycle), on a button 56 points wide.
                     (.bike, trc("travel mode", "Bike")),
                     // TRANSLATORS: a travel mode (walking), on a button 56 points wide.
                     (.foot, trc("travel mode", "Foot"))]
        for (m, title) in modes {
            button(.mode(m), title, ScreenRect(x: x, y: y, width: 56, height: Self.rowHeight), on: m == mode)
            x += 60
        }
        button(.swap, "⇅", ScreenRect(x: x + 8, y: y, width: 34, height: Self.rowHeight))
        // TRANSLATORS: a button 60 points wide: forgets the route and its points.
        button(.clear, tr("Clear"), ScreenRect(x: f.maxX - pad - 60, y: y, width: 60, height: Self.rowHeight))
        y += Self.rowHeight + 10
        // The summary (or what is happening), the engine and its credit.
        if let route {
            var total = TrackStatistics.distanceText(route.distance, imperial: context.facts.imperialUnits) + " · "
                + Self.duration(route.duration)
            if let up = route.ascent, let down = route.descent {
                total += " · ↑ " + TrackStatistics.heightText(up, imperial: context.facts.imperialUnits)
                    + " ↓ " + TrackStatistics.heightText(down, imperial: context.facts.imperialUnits)
            }
            text(total, at: ScreenPoint(x: f.x + pad, y: y), maxWidth: f.width - 2 * pad)
        }
        if let status {
            // What is happening, or why there is no route (in place of the credit).
            text(status, at: ScreenPoint(x: f.x + pad, y: route == nil ? y : y + 22), maxWidth: f.width - 2 * pad, opacity: 0.85)
        } else if let route {
            text(route.engine + " · " + route.credit, at: ScreenPoint(x: f.x + pad, y: y + 22), maxWidth: f.width - 2 * pad - (route.online ? 120 : 0), opacity: 0.65)
            // TRANSLATORS: a small button (116 points) under an online route: opens OpenStreetMap's page to report an error in the map.
            if route.online { button(.reportError, tr("Report a map error"), ScreenRect(x: f.maxX - pad - 116, y: y + 20, width: 116, height: 20)) }
        }
        y += 44
        // The heights along the route (the terrain's), as the tracks' profile shows them.
        if profileHeight > 0, let route,
           let (graph, lo, hi) = composeProfile(route, in: ScreenRect(x: f.x + pad, y: y, width: f.width - 2 * pad, height: profileHeight - 8), into: &list) {
            text(TrackStatistics.heightText(Double(hi), imperial: context.facts.imperialUnits), at: ScreenPoint(x: graph.maxX + 8, y: graph.y), maxWidth: 62, opacity: 0.7)
            text(TrackStatistics.heightText(Double(lo), imperial: context.facts.imperialUnits), at: ScreenPoint(x: graph.maxX + 8, y: graph.maxY - 16), maxWidth: 62, opacity: 0.7)
        }
        y += profileHeight
        // The steps: icon, instruction, distance; a click flies there.
        let area = stepsFrame(cam)
        let fits = max(0, Int(saturating: (area.height / Self.rowHeight).rounded(.down)))
        let first = min(firstStep, max(0, steps.count - fits))
        for (n, step) in steps.enumerated().dropFirst(first).prefix(fits) {
            let row = ScreenRect(x: f.x + 6, y: area.y + Double(n - first) * Self.rowHeight, width: f.width - 12, height: Self.rowHeight)
            if (n - first) % 2 == 1 { list.commands.append(.fillRect(row, Color(hex: 0xFFFFFF, alpha: 0.04))) }
            text(Self.icon(step.maneuver), at: ScreenPoint(x: row.x + 6, y: row.y + 4), maxWidth: 28)
            let distance = step.maneuver == .arrive ? "" : TrackStatistics.distanceText(step.distance, imperial: context.facts.imperialUnits)
            text(step.instruction, at: ScreenPoint(x: row.x + 36, y: row.y + 4), maxWidth: row.width - 36 - 64)
            if !distance.isEmpty, let s = size(SpriteKey.text(distance, .notice)) {
                text(distance, at: ScreenPoint(x: row.maxX - 6 - s.width, y: row.y + 4), maxWidth: 64, opacity: 0.7)
            }
            list.button(Button.step(n), frame: row)
        }
        button(.close, "✕", ScreenRect(x: f.maxX - 30, y: f.y + 6, width: 24, height: 22))
        // Why what is typed is not a place.
        if let i = editing, let problem = typingProblem {
            let row = ScreenRect(x: f.x + pad + 56, y: f.y + 10 + Double(i + 1) * Self.rowHeight, width: f.width - 2 * pad - 56, height: 26)
            list.commands.append(.fillRect(row, Color(hex: 0x5A2A2A)))
            text(problem, at: ScreenPoint(x: row.x + 6, y: row.y + 4), maxWidth: row.width - 12)
        }
        // The places found for the row typed in, dropped over what is below it.
        if let i = editing, !choices.isEmpty {
            let top = f.y + 10 + Double(i + 1) * Self.rowHeight
            for (k, c) in choices.enumerated() {
                let row = ScreenRect(x: f.x + pad + 56, y: top + Double(k) * 40, width: f.width - 2 * pad - 56, height: 40)
                list.commands.append(.fillRect(row, k == 0 ? Color(hex: 0x2C4A7A) : Color(hex: 0x2C2C2E)))
                text(c.title, at: ScreenPoint(x: row.x + 6, y: row.y + 3), maxWidth: row.width - 12)
                text(c.detail, at: ScreenPoint(x: row.x + 6, y: row.y + 20), maxWidth: row.width - 12, opacity: 0.6)
                list.button(Button.choice(k), frame: row)
            }
        }
        for k in wanted { list.want(k) }
    }

    /// Room for the route's height profile: there when the terrain's heights were at hand.
    var profileHeight: Double { (route?.heights.contains { $0.isFinite } ?? false) ? 48 : 0 }

    /// The profile: a column for each two points of width, the height of the line there
    /// (points spread by their distance along it), lowest to highest. Returns the graph's
    /// frame and the lowest and highest heights, to be said beside it.
    private func composeProfile(_ route: Route, in r: ScreenRect, into list: inout DrawList) -> (ScreenRect, Float, Float)? {
        let h = route.heights, along = profileAlong
        guard along.count == h.count, h.count >= 2 else { return nil }
        let finite = h.filter(\.isFinite)
        guard let lo = finite.min(), let hi = finite.max(), let total = along.last, total > 0 else { return nil }
        let span = max(Double(hi - lo), 10), graph = ScreenRect(x: r.x, y: r.y, width: r.width - 70, height: r.height)
        list.commands.append(.fillRect(graph, Color(hex: 0xFFFFFF, alpha: 0.06)))
        let columns = max(1, Int(saturating: (graph.width / 2).rounded(.down)))
        var k = 0
        for c in 0..<columns {
            let d = total * (Double(c) + 0.5) / Double(columns)
            while k + 1 < along.count - 1 && along[k + 1] < d { k += 1 }
            guard h[k].isFinite else { continue }
            let share = (Double(h[k] - lo)) / span
            let bar = max(1, graph.height * (0.1 + 0.9 * share))
            list.commands.append(.fillRect(ScreenRect(x: graph.x + Double(c) * 2, y: graph.maxY - bar, width: 2, height: bar), Color(hex: 0x4C8DFF, alpha: 0.8)))
        }
        return (graph, lo, hi)
    }

    /// "6 min", "1 h 05 min", "under a minute".
    static func duration(_ seconds: Double) -> String {
        guard seconds.isFinite, seconds >= 0 else { return "" }
        let minutes = Int(saturating: (seconds / 60).rounded())
        // TRANSLATORS: how long a route takes.
        if minutes < 1 { return tr("under a minute") }
        // TRANSLATORS: how long a route takes, in minutes (under an hour).
        if minutes < 60 { return tr("%@ min", minutes) }
        // TRANSLATORS: how long a route takes: hours, then minutes (two digits: "1 h 05 min").
        return tr("%@ h %@ min", minutes / 60, String(cFormat: "%02d", minutes % 60))
    }
}
