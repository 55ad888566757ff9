import FoundationEssentials
import MapCore
import MapGeometry
import Platform

/// How "Save this area offline…" looks: the area outlined on the map (the rest dimmed while
/// choosing), and a dark panel at the bottom with the choice or the progress.
extension SaveAreaLayer {
    static let ink = Color(hex: 0x1F5FD6)
    static let buttonFill = Color(hex: 0xFFFFFF, alpha: 0.16)

    public func compose(at level: LayerLevel, into list: inout DrawList, context: LayerContext) {
        guard isChoosing || progress != nil else { return }
        if level == .overlay { composeOutline(into: &list, context: context) } else { composePanel(into: &list, context: context) }
    }

    private func composeOutline(into list: inout DrawList, context: LayerContext) {
        let v = context.viewRect
        if context.camera.isTurned {
            // The area keeps to north, south, east and west: on a turned map its outline is turned.
            let corners: [ScreenPoint]
            if isChoosing {
                corners = chosenCorners(context.camera)
                list.dimOutsideTurned(corners, view: context.camera.viewportSize, inset: 1, Color(hex: 0x000000, alpha: 0.22))
            } else if let area = progress?.area {
                corners = Self.screenCorners(of: area, context.camera)
            } else { return }
            list.outlineTurned(corners, width: 2, Self.ink, sprites: context.sprites)
            return
        }
        let r: ScreenRect
        if isChoosing {
            r = outline(context.camera)
            // The rest of the view dimmed: what is bright is what will be saved.
            let dim = Color(hex: 0x000000, alpha: 0.22)
            list.commands.append(.fillRect(ScreenRect(x: 0, y: 0, width: v.width, height: r.y), dim))
            list.commands.append(.fillRect(ScreenRect(x: 0, y: r.maxY, width: v.width, height: v.height - r.maxY), dim))
            list.commands.append(.fillRect(ScreenRect(x: 0, y: r.y, width: r.x, height: r.height), dim))
            list.commands.append(.fillRect(ScreenRect(x: r.maxX, y: r.y, width: v.width - r.maxX, height: r.height), dim))
        } else if let area = progress?.area {
            r = Self.screenRect(of: area, context.camera)
        } else { return }
        for edge in [ScreenRect(x: r.x - 2, y: r.y - 2, width: r.width + 4, height: 2), ScreenRect(x: r.x - 2, y: r.maxY, width: r.width + 4, height: 2),
                     ScreenRect(x: r.x - 2, y: r.y, width: 2, height: r.height), ScreenRect(x: r.maxX, y: r.y, width: 2, height: r.height)] {
            list.commands.append(.fillRect(edge, Self.ink))
        }
    }

    /// The corners of `area` on screen, clockwise from its north-west (east of west even
    /// across the antimeridian; the copy of the world nearest the view): on a turned map, a
    /// turned rectangle.
    static func screenCorners(of area: Area, _ camera: Camera) -> [ScreenPoint] {
        var nw = WebMercator.project(Coordinate(latitude: area.north, longitude: area.west))
        var se = WebMercator.project(Coordinate(latitude: area.south, longitude: area.east))
        let world = WebMercator.worldSize
        if se.x <= nw.x { se.x += world }
        // The copy whose middle is nearest the view's centre.
        let shift = ((nw.x + se.x) / 2 - camera.center.x) / world
        let copies = shift.rounded() * world
        nw.x -= copies; se.x -= copies
        return [nw, MapPoint(x: se.x, y: nw.y), se, MapPoint(x: nw.x, y: se.y)].map(camera.screenPointUnwrapped(for:))
    }

    /// Where `area` is on screen (east of west even across the antimeridian).
    static func screenRect(of area: Area, _ camera: Camera) -> ScreenRect {
        let nw = camera.screenPointUnwrapped(for: WebMercator.project(Coordinate(latitude: area.north, longitude: area.west)))
        var se = camera.screenPointUnwrapped(for: WebMercator.project(Coordinate(latitude: area.south, longitude: area.east)))
        if se.x <= nw.x { se.x += WebMercator.worldSize * camera.scale }
        return ScreenRect(x: nw.x, y: nw.y, width: se.x - nw.x, height: se.y - nw.y)
    }

    /// The panel's lines and buttons: what it says now.
    private func texts(_ context: LayerContext) -> (title: String, detail: String, warn: Bool, buttons: [(Button, String)]) {
        if let p = progress {
            // TRANSLATORS: the answers to the save panel's question whether to download a large extract.
            if let d = p.detail, p.asks { return (p.headline ?? p.title, d, false, [(.yes, tr("Download")), (.no, tr("Not now"))]) }
            if let d = p.detail { return (p.headline ?? p.title, d, false, [(.stop, tr("Cancel"))]) }
            // TRANSLATORS: the progress of saving an area: tiles saved, of all its tiles, then the bytes written so far ("1,234 of 5,000 tiles · 12.3 MB").
            var detail = tr("%@ of %@ tiles · %@", TrackStatistics.grouped(Double(p.done)), TrackStatistics.grouped(Double(p.total)), Self.bytes(p.bytes))
            if let left = p.secondsLeft { detail += " · " + Self.duration(left) }
            // TRANSLATORS: %@ is the name of the map being saved for offline use.
            return (p.headline ?? tr("Saving %@ offline", p.title), detail, false, [(.stop, tr("Cancel"))])
        }
        guard let offer else { return (tr("Save this area offline"), tr("Finding out what this map allows…"), false, [(.close, tr("Close"))]) }
        // TRANSLATORS: the heading of the panel that saves the area in view; %@ is the map's name.
        let heading = tr("Save this area offline: %@", offer.title)
        if let refusal = offer.refusal { return (heading, refusal, true, [(.close, tr("Close"))]) }
        let area = area(context.camera, outline: outline(context.camera), offer: offer)
        let tiles = offer.tiles(in: area)
        // TRANSLATORS: the zooms an area is saved at, shallowest to deepest ("Zooms 0 to 15").
        let zooms = tr("Zooms %@ to %@", area.zooms.lowerBound, area.zooms.upperBound)
        if let why = offer.tooMuch(area) {
            return (heading, zooms + " · " + why, true, [(.shallower, "−"), (.deeper, "+"), (.close, tr("Cancel"))])
        }
        // TRANSLATORS: how many tiles saving the area takes, and the bytes that will be ("12,345 tiles, about 250 MB").
        var detail = zooms + " · " + tr("%@ tiles, about %@", TrackStatistics.grouped(Double(tiles)), Self.bytes(offer.bytes(in: area)))
        // TRANSLATORS: the space free on the disk ("12.3 GB free").
        if let free = offer.freeBytes { detail += " · " + tr("%@ free", Self.bytes(free)) }
        // TRANSLATORS: a check box: routing data for the area is saved after its tiles.
        let toggle: [(Button, String)] = offersDirections ? [(.directions, (directions ? "☑ " : "☐ ") + tr("Directions too"))] : []
        return (heading, detail, false, toggle + [(.shallower, "−"), (.deeper, "+"), (.save, tr("Save")), (.close, tr("Cancel"))])
    }

    private func composePanel(into list: inout DrawList, context: LayerContext) {
        let t = texts(context)
        let title = SpriteKey.text(t.title, .notice), detail = SpriteKey.text(t.detail, .notice)
        let labels = t.buttons.map { SpriteKey.text($0.1, .notice) }
        let keys = [title, detail] + labels
        let missing = keys.filter { context.sprites.size(of: $0) == nil }
        guard missing.isEmpty else { for k in missing { list.want(k) }; return }
        func size(_ k: SpriteKey) -> ScreenSize { context.sprites.size(of: k)! }
        let f = panelFrame(context)
        list.commands.append(.fillRect(f, Color(hex: 0x1C1C1E, alpha: 0.94)))
        let pad = 14.0
        list.place(title, rect: ScreenRect(x: f.x + pad, y: f.y + 10, width: size(title).width, height: size(title).height), opacity: 1, sprites: context.sprites)
        let d = size(detail)
        list.place(detail, rect: ScreenRect(x: f.x + pad, y: f.y + 34, width: d.width, height: d.height), opacity: t.warn ? 0.75 : 0.9, sprites: context.sprites)
        // Buttons along the bottom, right-aligned; − and + are small.
        let widths = labels.map { max(size($0).width + 24, 34) }
        var x = f.maxX - pad - widths.reduce(0, +) - 8 * Double(widths.count - 1)
        let left = x, y = f.maxY - 10 - 26
        for ((id, _), (key, w)) in zip(t.buttons, zip(labels, widths)) {
            let s = size(key), r = ScreenRect(x: x, y: y, width: w, height: 26)
            list.commands.append(.fillRect(r, id == .save || id == .yes ? Self.ink : Self.buttonFill))
            list.place(key, rect: ScreenRect(x: r.x + (w - s.width) / 2, y: r.y + (26 - s.height) / 2, width: s.width, height: s.height),
                       opacity: 1, sprites: context.sprites)
            list.button(id, frame: r, focusStop: true)
            x += w + 8
        }
        if let p = progress {
            // The bar, under the numbers.
            let bar = ScreenRect(x: f.x + pad, y: f.maxY - 10 - 16, width: max(10, left - f.x - pad - 16), height: 6)
            list.commands.append(.fillRect(bar, Color(hex: 0xFFFFFF, alpha: 0.18)))
            let share = p.total > 0 ? min(1, Double(p.done) / Double(p.total)) : 0
            list.commands.append(.fillRect(ScreenRect(x: bar.x, y: bar.y, width: bar.width * share, height: bar.height), Color(hex: 0x4C8DFF)))
        }
    }

    /// "850 KB", "12.3 MB", "1.2 GB".
    public static func bytes(_ n: UInt64) -> String {
        let v = Double(n)
        // TRANSLATORS: a size in kilobytes ("850 KB").
        if v < 1_000_000 { return tr("%@ KB", max(1, Int(saturating: (v / 1000).rounded()))) }
        // TRANSLATORS: a size in megabytes ("12.3 MB").
        if v < 100_000_000 { return tr("%@ MB", String(cFormat: "%.1f", v / 1_000_000)) }
        // TRANSLATORS: a size in megabytes ("345 MB").
        if v < 1_000_000_000 { return tr("%@ MB", Int(saturating: (v / 1_000_000).rounded())) }
        // TRANSLATORS: a size in gigabytes ("1.2 GB").
        return tr("%@ GB", String(cFormat: "%.1f", v / 1_000_000_000))
    }

    /// "about 2 min left", "a few seconds left".
    static func duration(_ seconds: Double) -> String {
        guard seconds.isFinite else { return "" }
        // TRANSLATORS: the time an area's saving still takes.
        if seconds < 10 { return tr("a few seconds left") }
        // TRANSLATORS: the time an area's saving still takes, in seconds (a multiple of ten).
        if seconds < 90 { return tr("about %@ s left", Int(saturating: (seconds / 10).rounded()) * 10) }
        // TRANSLATORS: the time an area's saving still takes, in minutes.
        if seconds < 5400 { return tr("about %@ min left", Int(saturating: (seconds / 60).rounded())) }
        // TRANSLATORS: the time an area's saving still takes, in hours ("about 1.5 h left").
        return tr("about %@ h left", String(cFormat: "%.1f", seconds / 3600))
    }
}
