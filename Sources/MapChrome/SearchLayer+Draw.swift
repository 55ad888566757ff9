import FoundationEssentials
import MapCore
import MapGeometry
import MapSearch
import Platform

/// How the search box, its list and the mark of the place gone to are drawn.
extension SearchLayer {
    /// A row of the list: its text, what it says of the result in grey, whether it is a
    /// warning, and the selection index Enter acts on (nil: it only says something).
    struct Row: Equatable {
        var text: String
        var detail: String?
        var warning = false
        var action: Int?
    }

    /// The rows the list shows: results (and the row that asks online), coordinates, a
    /// problem, that places are loading, and how indexing goes.
    func rows(imperial: Bool) -> [Row] {
        var rows: [Row] = []
        if let p = typedPlace {
            // TRANSLATORS: a row of the search list: %@ is the coordinates typed ("60.17000, 24.94000").
            rows.append(Row(text: tr("Go to %@", String(cFormat: "%.5f, %.5f", p.coordinate.latitude, p.coordinate.longitude)), action: 0))
        } else if let problem {
            rows.append(Row(text: problem, warning: true))
        } else if !query.isEmpty {
            if searcher == nil { rows.append(Row(text: tr("Loading places…"))) }
            for (i, r) in results.enumerated() {
                rows.append(Row(text: Self.cut(r.name, 40), detail: SearchRanking.detail(r, from: near, imperial: imperial), action: i))
            }
            switch online {
            case .asking: rows.append(Row(text: tr("Searching online…")))
            case let .failed(_, message): rows.append(Row(text: message, warning: true))
            case .idle:
                if onlineRowShown {
                    // TRANSLATORS: the search list's last row when nothing offline matches: Enter (↵) asks the online search.
                    rows.append(Row(text: results.isEmpty && searcher != nil ? tr("Nothing here by that name: search online ↵")
                                    // TRANSLATORS: the search list's last row: Enter (↵) asks the online search.
                                    : tr("Search online ↵"),
                                    detail: onlineCredit.map { "(\($0))" }, action: results.count))
                } else if searcher != nil, results.isEmpty {
                    rows.append(Row(text: tr("No place of that name")))
                }
            }
            let credits = Set(results.compactMap { r -> String? in if case let .online(c) = r.origin { return c } else { return nil } })
            // TRANSLATORS: %@ is the credit of the online search service whose results are listed.
            for c in credits.sorted() { rows.append(Row(text: tr("Online results: %@", c))) }
        }
        if let indexing { rows.append(Row(text: indexing)) }
        return rows
    }

    /// What the open box draws, for the frame log (MERIDIAN_FRAME_LOG) to say once a frame
    /// with it is on screen: the query, the list's rows, and which row carries the selection's
    /// tint (`compose` tints the row whose action is `selection`). Tests wait for it before
    /// they look at the list, whose results come from workers. Nil while the box is closed.
    public var listFacts: String? {
        guard isOpen else { return nil }
        // The rows' texts do not depend on the units (only their grey details do).
        let rows = rows(imperial: false)
        let tinted = rows.firstIndex { $0.action == selection }.map { String($0) } ?? "none"
        return "search list \"\(query)\": rows \(rows.count) selected \(tinted): " + rows.map(\.text).joined(separator: " | ")
    }

    static let nameStyle = TextStyle.styled(LabelLook(bold: true, size: 10, color: Color(hex: 0x1A1A1A), haloWidth: 0))

    /// Text cut to `n` characters with an ellipsis: a row holds a name and its detail.
    static func cut(_ s: String, _ n: Int) -> String { s.count <= n ? s : String(s.prefix(n - 1)) + "…" }

    func fieldFrame(_ context: LayerContext) -> ScreenRect {
        let w = context.camera.viewportSize.width
        return ScreenRect(x: max(10, w - 10 - Self.width), y: 10, width: min(Self.width, w - 20), height: 32)
    }

    // TRANSLATORS: the search button; the / after it is the key that opens the search box.
    static let buttonKey: SpriteKey = .text(tr("Search") + "   /", .chrome)

    func buttonFrame(_ context: LayerContext) -> ScreenRect? {
        guard let s = context.sprites.size(of: Self.buttonKey) else { return nil }
        let w = context.camera.viewportSize.width
        return ScreenRect(x: w - 10 - (s.width + 20), y: 10, width: s.width + 20, height: 28)
    }

    public func labelExclusions(_ context: LayerContext) -> [ScreenRect] {
        if isOpen {
            let f = fieldFrame(context)
            let n = rows(imperial: context.facts.imperialUnits).count
            return [ScreenRect(x: f.x, y: f.y, width: f.width, height: f.height + 6 + Double(n) * Self.rowHeight)]
        }
        return (buttonFrame(context).map { [$0] } ?? []) + (markerFrames(context).map { [$0.pin, $0.label] } ?? [])
    }

    func markerFrames(_ context: LayerContext) -> (tip: ScreenPoint, pin: ScreenRect, label: ScreenRect)? {
        guard let marker else { return nil }
        let tip = context.camera.screenPoint(for: marker.coordinate)
        let size = Pin.imageSize
        let pin = ScreenRect(x: tip.x - size.width / 2, y: tip.y - size.height, width: size.width, height: size.height)
        guard pin.intersects(context.viewRect) else { return nil }
        let s = context.sprites.size(of: .text(marker.title, .chrome)) ?? ScreenSize(width: 0, height: 0)
        let label = ScreenRect(x: pin.maxX + 4, y: pin.y + 4, width: s.width + 12, height: s.height + 6)
        return (tip, pin, label)
    }

    public func compose(at level: LayerLevel, into list: inout DrawList, context: LayerContext) {
        if level == .overlay { composeMarker(into: &list, context: context); return }
        guard isOpen else {
            guard let b = buttonFrame(context) else { list.want(Self.buttonKey); return }
            list.plate(b, fill: Self.fieldFill)
            let s = context.sprites.size(of: Self.buttonKey)!
            list.commands.append(.sprite(Self.buttonKey, destination: ScreenRect(x: b.x + 10, y: b.y + (b.height - s.height) / 2,
                                                                                  width: s.width, height: s.height), opacity: 1))
            list.button(Button.open, frame: b, focusStop: true)
            // Indexing goes on under the closed box too: where search will find more soon.
            if let indexing { composeNote(indexing, below: b, into: &list, context: context) }
            return
        }
        let f = fieldFrame(context)
        list.plate(f, fill: Self.fieldFill)
        list.commands.append(.fillRect(ScreenRect(x: f.x, y: f.maxY - 2, width: f.width, height: 2), SourcesLayer.ink))
        let shown = query.isEmpty ? SpriteKey.text(Self.placeholder, .chrome) : SpriteKey.text(query, .chrome)
        var caretX = f.x + 10
        if let s = context.sprites.size(of: shown) {
            // A long query shows its end, as a text field scrolls.
            let room = f.width - 20
            let x = f.x + 10 - max(0, s.width - room)
            list.commands.append(.sprite(shown, destination: ScreenRect(x: x, y: f.y + (f.height - s.height) / 2, width: s.width, height: s.height),
                                         opacity: query.isEmpty ? 0.45 : 1))
            if !query.isEmpty { caretX = min(x + s.width + 1, f.maxX - 8) }
        } else {
            list.want(shown)
        }
        list.commands.append(.fillRect(ScreenRect(x: caretX, y: f.y + 7, width: 1.5, height: f.height - 14), SourcesLayer.ink))
        list.button(Button.field, frame: f)
        let rows = rows(imperial: context.facts.imperialUnits)
        guard !rows.isEmpty else { return }
        let panel = ScreenRect(x: f.x, y: f.maxY + 6, width: f.width, height: Double(rows.count) * Self.rowHeight + 8)
        list.plate(panel, fill: Self.fieldFill)
        for (i, row) in rows.enumerated() {
            let r = ScreenRect(x: panel.x, y: panel.y + 4 + Double(i) * Self.rowHeight, width: panel.width, height: Self.rowHeight)
            if row.action == selection {
                list.commands.append(.fillRect(ScreenRect(x: r.x + 3, y: r.y + 1, width: r.width - 6, height: r.height - 2), SourcesLayer.ink.withAlpha(0.14)))
            }
            if let a = row.action { list.button(Button.result(a), frame: r) }
            if row.warning {
                list.commands.append(.fillRect(ScreenRect(x: r.x + 4, y: r.y + 5, width: 3, height: r.height - 10), SourcesLayer.warning))
            }
            // A result's name stands out; what it is and where follows in grey.
            let isResult = row.action.map { $0 < results.count } ?? false
            let key = SpriteKey.text(row.text, isResult ? Self.nameStyle : .chrome)
            guard let s = context.sprites.size(of: key) else { list.want(key); continue }
            let room = r.width - 24
            let nameWidth = min(s.width, row.detail == nil ? room : room * 0.62)
            list.commands.append(.sprite(key, destination: ScreenRect(x: r.x + 12, y: r.y + (r.height - s.height) / 2,
                                                                      width: nameWidth, height: s.height), opacity: 1))
            // What and where, in grey after the name, as much as fits.
            guard let detail = row.detail else { continue }
            let x = r.x + 12 + nameWidth + 8
            // As much as fits (DejaVu Sans at 9.5 points: about 5.4 points a letter).
            let dk = SpriteKey.text(Self.cut(detail, max(8, Int(saturating: (r.maxX - 10 - x) / 5.4))), .chrome)
            guard let d = context.sprites.size(of: dk) else { list.want(dk); continue }
            list.commands.append(.sprite(dk, destination: ScreenRect(x: x, y: r.y + (r.height - d.height) / 2 + 1,
                                                                     width: min(d.width, r.maxX - 10 - x), height: d.height), opacity: 0.75))
        }
    }

    /// A line of small text on a plate under the search button.
    private func composeNote(_ text: String, below b: ScreenRect, into list: inout DrawList, context: LayerContext) {
        let key = SpriteKey.text(text, .callout)
        guard let s = context.sprites.size(of: key) else { list.want(key); return }
        let w = context.camera.viewportSize.width
        let plate = ScreenRect(x: w - 10 - (s.width + 16), y: b.maxY + 6, width: s.width + 16, height: s.height + 8)
        list.plate(plate, fill: Self.fieldFill)
        list.commands.append(.sprite(key, destination: ScreenRect(x: plate.x + 8, y: plate.y + 4, width: s.width, height: s.height), opacity: 0.9))
    }

    private func composeMarker(into list: inout DrawList, context: LayerContext) {
        guard let m = marker, let f = markerFrames(context) else { return }
        let pin = SpriteKey.pin(Self.markerColor), title = SpriteKey.text(m.title, .chrome)
        guard context.sprites.size(of: pin) != nil else { list.want(pin); return }
        list.commands.append(.sprite(pin, destination: f.pin, opacity: 1))
        list.button(Button.marker, frame: f.pin)
        guard context.sprites.size(of: title) != nil else { list.want(title); return }
        list.commands.append(.fillRect(f.label, Color(hex: 0xFFFFFF, alpha: 0.92)))
        let s = context.sprites.size(of: title)!
        list.commands.append(.sprite(title, destination: ScreenRect(x: f.label.x + 6, y: f.label.y + 3, width: s.width, height: s.height), opacity: 1))
        list.button(Button.marker, frame: f.label)
    }
}
