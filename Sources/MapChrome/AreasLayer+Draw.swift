import FoundationEssentials
import MapCore
import MapGeometry
import Platform

/// How "Saved areas" looks: a light panel under the map switcher, a row of two lines per area
/// (its name, then its size, zooms and days, faint) with its buttons at the row's end, and
/// the area shown from it outlined on the map.
extension AreasLayer {
    static let ink = Color(hex: 0x1F5FD6)
    static let warning = Color(hex: 0xC0392B)
    static let rowHeight = 46.0
    static let headerHeight = 34.0

    static let heading: SpriteKey = .text(tr("Saved areas"), .chrome)
    static let closeKey = SpriteKey.text("✕", .chrome)
    // TRANSLATORS: A is the key that saves the area in view.
    static let empty: SpriteKey = .text(tr("No saved areas yet: press A over a map to save the area in view"), .chrome)

    public func compose(at level: LayerLevel, into list: inout DrawList, context: LayerContext) {
        guard isOpen else { return }
        if level == .overlay { composeOutline(into: &list, context: context) } else { composePanel(into: &list, context: context) }
    }

    private func composeOutline(into list: inout DrawList, context: LayerContext) {
        guard let path = outlined, let row = rows.first(where: { $0.path == path }) else { return }
        if context.camera.isTurned {
            // North, south, east and west bound the area: on a turned map it is a turned rectangle.
            let c = SaveAreaLayer.screenCorners(of: row.area, context.camera)
            let w = (c[1] - c[0]).length, h = (c[3] - c[0]).length
            list.fillTurned(center: ScreenPoint(x: (c[0].x + c[2].x) / 2, y: (c[0].y + c[2].y) / 2), size: ScreenSize(width: w, height: h),
                            degrees: context.camera.northOnScreen, Self.ink.withAlpha(0.08), sprites: context.sprites)
            list.outlineTurned(c, width: 2, Self.ink, sprites: context.sprites)
            return
        }
        let r = SaveAreaLayer.screenRect(of: row.area, context.camera)
        list.commands.append(.fillRect(r, Self.ink.withAlpha(0.08)))
        for edge in [ScreenRect(x: r.x - 2, y: r.y - 2, width: r.width + 4, height: 2), ScreenRect(x: r.x - 2, y: r.maxY, width: r.width + 4, height: 2),
                     ScreenRect(x: r.x - 2, y: r.y, width: 2, height: r.height), ScreenRect(x: r.maxX, y: r.y, width: 2, height: r.height)] {
            list.commands.append(.fillRect(edge, Self.ink))
        }
    }

    /// The buttons at the end of a row: what can be done with it now.
    func buttons(of row: Row) -> [(Button, String)] {
        // TRANSLATORS: buttons at the end of a saved area's row (small: keep them short).
        if renaming?.path == row.path { return [(.renameDone, tr("OK")), (.renameCancel, tr("Cancel"))] }
        switch row.kind {
        case .saved:
            return [(.show(row.path), tr("Show")), (.rename(row.path), tr("Rename")), (.update(row.path), tr("Update")),
                    // TRANSLATORS: "Delete?" is the Delete button once pressed: pressed again, it deletes.
                    (.delete(row.path), confirming == row.path ? tr("Delete?") : tr("Delete"))]
        case .unfinished:
            return [(.show(row.path), tr("Show")), (.resume(row.path), tr("Resume")),
                    // TRANSLATORS: "Discard?" is the Discard button once pressed: pressed again, it discards.
                    (.discard(row.path), confirming == row.path ? tr("Discard?") : tr("Discard"))]
        }
    }

    /// A button that asks to be pressed again (Delete?, Discard?): drawn as a warning.
    func asks(_ button: Button) -> Bool {
        switch button {
        case let .delete(path), let .discard(path): return confirming == path
        default: return false
        }
    }

    /// The page of rows shown, from `firstRow`, as many as fit under the switcher.
    func shownRows(_ context: LayerContext) -> ArraySlice<Row> {
        let start = min(firstRow, rows.count)
        return rows[start...].prefix(pageSize(context.camera.viewportSize.height, bottomInset: context.bottomInset))
    }

    func titleKey(_ row: Row) -> SpriteKey {
        if let r = renaming, r.path == row.path { return .text(Self.cut(r.text, 34, fromStart: true) + "|", .chrome) }
        // Short of the buttons: a long name is cut.
        guard row.kind == .unfinished else { return .text(Self.cut(row.title, 34), .chrome) }
        // TRANSLATORS: %@ is the name of an area whose saving stopped before it was whole.
        return .text(tr("%@ — unfinished", Self.cut(row.title, 22)), .chrome)
    }

    /// `s` cut to `n` characters with an ellipsis (a name being typed keeps its end).
    static func cut(_ s: String, _ n: Int, fromStart: Bool = false) -> String {
        guard s.count > n else { return s }
        return fromStart ? "…" + s.suffix(n - 1) : s.prefix(n - 1) + "…"
    }

    func panelFrame(_ context: LayerContext, rows shown: Int) -> ScreenRect {
        let v = context.camera.viewportSize
        let height = Self.headerHeight + (rows.isEmpty ? 30 : Double(shown) * Self.rowHeight + (shown < rows.count ? 28 : 0)) + 8
        return ScreenRect(x: 10, y: 46, width: min(v.width - 20, 640), height: height)
    }

    public func labelExclusions(_ context: LayerContext) -> [ScreenRect] {
        isOpen ? [panelFrame(context, rows: shownRows(context).count)] : []
    }

    private func composePanel(into list: inout DrawList, context: LayerContext) {
        let shown = shownRows(context)
        let more = rows.count - shown.count
        let last = shown.startIndex + shown.count
        // TRANSLATORS: a button under a long list of saved areas: the rows shown (first–last) of all of them; it shows the next page.
        let pageText = last < rows.count ? tr("Rows %@–%@ of %@: next ▸", shown.startIndex + 1, last, rows.count)
            // TRANSLATORS: as "Rows %@–%@ of %@: next ▸", on the last page: it goes back to the first.
            : tr("Rows %@–%@ of %@: first ▸", shown.startIndex + 1, last, rows.count)
        let totalKey = SpriteKey.text(total, .chrome), moreKey = SpriteKey.text(pageText, .chrome)
        var keys = [Self.heading, Self.closeKey, totalKey] + (rows.isEmpty ? [Self.empty] : []) + (more > 0 ? [moreKey] : [])
        for row in shown { keys += [titleKey(row), .text(row.detail, .chrome)] + buttons(of: row).map { SpriteKey.text($0.1, .chrome) } }
        let missing = keys.filter { context.sprites.size(of: $0) == nil }
        guard missing.isEmpty else { for k in missing { list.want(k) }; return }
        func size(_ k: SpriteKey) -> ScreenSize { context.sprites.size(of: k)! }
        func text(_ k: SpriteKey, x: Double, centreY: Double, opacity: Double = 1) {
            let s = size(k)
            list.commands.append(.sprite(k, destination: ScreenRect(x: x, y: (centreY - s.height / 2).rounded(), width: s.width, height: s.height), opacity: opacity))
        }
        let f = panelFrame(context, rows: shown.count)
        list.plate(f)
        // The heading, the total, and ✕.
        let h = size(Self.heading)
        text(Self.heading, x: f.x + 12, centreY: f.y + Self.headerHeight / 2)
        text(totalKey, x: f.x + 12 + h.width + 12, centreY: f.y + Self.headerHeight / 2, opacity: 0.6)
        let close = ScreenRect(x: f.maxX - 34, y: f.y + 5, width: 28, height: 24)
        text(Self.closeKey, x: close.x + (close.width - size(Self.closeKey).width) / 2, centreY: close.y + close.height / 2, opacity: 0.7)
        list.button(Button.close, frame: close, focusStop: true)
        list.commands.append(.fillRect(ScreenRect(x: f.x + 8, y: f.y + Self.headerHeight - 1, width: f.width - 16, height: 1), Color(hex: 0xD8D8D8)))
        if rows.isEmpty {
            text(Self.empty, x: f.x + 12, centreY: f.y + Self.headerHeight + 15, opacity: 0.7)
            return
        }
        for (i, row) in shown.enumerated() {
            let y = f.y + Self.headerHeight + Double(i) * Self.rowHeight
            let r = ScreenRect(x: f.x, y: y, width: f.width, height: Self.rowHeight)
            if row.path == outlined { list.commands.append(.fillRect(ScreenRect(x: r.x + 3, y: r.y + 2, width: r.width - 6, height: r.height - 4), Self.ink.withAlpha(0.10))) }
            // Buttons from the right on the first line.
            var x = r.maxX - 8
            var left = x
            for (id, label) in buttons(of: row).reversed() {
                let k = SpriteKey.text(label, .chrome), s = size(k)
                let b = ScreenRect(x: x - s.width - 16, y: r.y + 5, width: s.width + 16, height: 22)
                let asking = asks(id)
                list.commands.append(.fillRect(b, asking ? Self.warning.withAlpha(0.15) : Self.ink.withAlpha(0.08)))
                text(k, x: b.x + 8, centreY: b.y + b.height / 2, opacity: asking ? 1 : 0.9)
                list.button(id, frame: b, focusStop: true)
                x = b.x - 6
                left = b.x
            }
            let title = titleKey(row)
            if renaming?.path == row.path {
                let box = ScreenRect(x: r.x + 8, y: r.y + 5, width: max(40, left - r.x - 16), height: 22)
                list.commands.append(.fillRect(box.outset(1), Self.ink))
                list.commands.append(.fillRect(box, Color(hex: 0xFFFFFF)))
            }
            text(title, x: r.x + 12, centreY: r.y + 16)
            let detail = SpriteKey.text(row.detail, .chrome)
            text(detail, x: r.x + 12, centreY: r.y + 36, opacity: row.kind == .unfinished ? 0.75 : 0.6)
        }
        if more > 0 {
            let s = size(moreKey), r = ScreenRect(x: f.x + 8, y: f.maxY - 32, width: s.width + 16, height: 24)
            list.commands.append(.fillRect(r, Self.ink.withAlpha(0.08)))
            text(moreKey, x: r.x + 8, centreY: r.y + 12, opacity: 0.9)
            list.button(Button.nextPage, frame: r, focusStop: true)
        }
    }
}
