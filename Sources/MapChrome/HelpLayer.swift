import FoundationEssentials
import MapCore
import MapGeometry
import Platform

/// Every key and gesture (F1, ?, or the ? button under the zoom buttons): the bindings table
/// that MapController binds by, listed in a panel over the map. Esc, F1, ? or a click close it.
public struct HelpLayer: MapLayer {
    public var isShown = false
    /// The first start's hint beside the ? button (the host offers it once: nil once seen).
    public var hint: String?
    /// The keys listed: the table the session binds by when the panel opens
    /// (`MapController.keyTable`, as `MapSession.keyTable`: the library's, the app's and its layers'), or one given to a
    /// panel drawn open from the start (`render --keys`).
    public var keys = KeyBindings.all

    /// The buttons' identities (`DrawList.buttons`).
    enum Button: Hashable, Sendable { case toggle, hint, close }

    public init() {}

    public var levels: [LayerLevel] { [.chrome] }

    // TRANSLATORS: the heading of the help panel, which lists every key and mouse gesture.
    static let title: SpriteKey = .text(tr("Keys and gestures"), .notice)
    static let buttonKey = SpriteKey.text("?", .chrome)

    /// The ? button, under the zoom buttons: where the keys are, always in sight.
    private func buttonFrame(_ context: LayerContext) -> ScreenRect {
        ScreenRect(x: context.camera.viewportSize.width - 10 - 36, y: 50 + 2 * 36 + 9, width: 36, height: 28)
    }
    static let rowHeight = 22.0, minRowHeight = 17.0

    private var rows: [(label: SpriteKey, help: SpriteKey)] {
        KeyBindings.helpRows(keys).map { (.text($0.label, .notice), .text($0.help, .notice)) }
    }

    /// The panel, how many columns of rows it has (two when one would not fit the height), and
    /// the rows' height: closer together, down to `minRowHeight`, where two columns do not fit
    /// the width either (a window narrower than the two).
    private func frame(_ context: LayerContext, labelWidth: Double, helpWidth: Double) -> (ScreenRect, columns: Int, rowHeight: Double) {
        let v = context.camera.viewportSize
        let columnWidth = labelWidth + helpWidth + 40
        let tall = Double(rows.count) * Self.rowHeight + 66 > v.height - 20
        let columns = tall && v.width >= 2 * columnWidth + 40 ? 2 : 1
        let perColumn = (rows.count + columns - 1) / columns
        let rowHeight = tall && columns == 1 ? max(Self.minRowHeight, min(Self.rowHeight, (v.height - 20 - 66) / Double(max(perColumn, 1)))) : Self.rowHeight
        let w = min(v.width - 20, Double(columns) * columnWidth + 20), h = min(v.height - 20, Double(perColumn) * rowHeight + 66)
        return (ScreenRect(x: (v.width - w) / 2, y: max(10, (v.height - h) / 2), width: w, height: h), columns, rowHeight)
    }

    public func labelExclusions(_ context: LayerContext) -> [ScreenRect] {
        [buttonFrame(context)] + (hintFrame(context).map { [$0] } ?? [])
    }

    /// The first start's hint, left of the ? button, once its text is drawn.
    private func hintFrame(_ context: LayerContext) -> ScreenRect? {
        guard !isShown, let hint, let s = context.sprites.size(of: .text(hint, .notice)) else { return nil }
        let b = buttonFrame(context)
        return ScreenRect(x: b.x - 8 - (s.width + 20), y: b.y + (b.height - s.height - 12) / 2, width: s.width + 20, height: s.height + 12)
    }

    public func compose(at level: LayerLevel, into list: inout DrawList, context: LayerContext) {
        let b = buttonFrame(context)
        if isShown { list.plate(b, fill: Color(hex: 0xE5F0FF)) } else { list.plate(b) }
        if let s = context.sprites.size(of: Self.buttonKey) {
            list.commands.append(.sprite(Self.buttonKey, destination: ScreenRect(x: b.x + (b.width - s.width) / 2, y: b.y + (b.height - s.height) / 2,
                                                                                 width: s.width, height: s.height), opacity: 1))
        } else {
            list.want(Self.buttonKey)
        }
        list.button(Button.toggle, frame: b, focusStop: true)
        if !isShown, let hint {
            let key = SpriteKey.text(hint, .notice)
            guard let s = context.sprites.size(of: key), let r = hintFrame(context) else { list.want(key); return }
            list.darkPlate(r, text: key, size: s)
            list.button(Button.hint, frame: r)
            list.shownHints.append("help")
        }
        guard isShown else { return }
        let rows = rows
        let keys = [Self.title] + rows.flatMap { [$0.label, $0.help] }
        let missing = keys.filter { context.sprites.size(of: $0) == nil }
        guard missing.isEmpty else { for k in missing { list.want(k) }; return }
        func size(_ k: SpriteKey) -> ScreenSize { context.sprites.size(of: k)! }
        let labelWidth = rows.map { size($0.label).width }.max() ?? 0, helpWidth = rows.map { size($0.help).width }.max() ?? 0
        let (f, columns, rowHeight) = frame(context, labelWidth: labelWidth, helpWidth: helpWidth)
        let perColumn = (rows.count + columns - 1) / columns, columnWidth = labelWidth + helpWidth + 40
        list.commands.append(.fillRect(f, Color(hex: 0x1C1C1E, alpha: 0.95)))
        let t = size(Self.title)
        list.commands.append(.sprite(Self.title, destination: ScreenRect(x: f.x + 20, y: f.y + 14, width: t.width, height: t.height), opacity: 1))
        list.commands.append(.fillRect(ScreenRect(x: f.x + 20, y: f.y + 40, width: f.width - 40, height: 1), Color(hex: 0xFFFFFF, alpha: 0.25)))
        for (i, row) in rows.enumerated() {
            let x = f.x + 20 + Double(i / perColumn) * columnWidth
            let y = f.y + 48 + Double(i % perColumn) * rowHeight
            guard y + rowHeight <= f.maxY else { continue }
            let l = size(row.label), h = size(row.help)
            list.commands.append(.sprite(row.label, destination: ScreenRect(x: x, y: y + (rowHeight - l.height) / 2, width: l.width, height: l.height), opacity: 1))
            list.commands.append(.sprite(row.help, destination: ScreenRect(x: x + 20 + labelWidth, y: y + (rowHeight - h.height) / 2,
                                                                           width: min(h.width, f.maxX - 20 - (x + 20 + labelWidth)), height: h.height), opacity: 0.85))
        }
        list.button(Button.close, frame: f)
    }

    public mutating func press(_ button: ButtonID, context: InputContext) -> [LayerAction]? {
        switch button.as(Button.self) {
        case .close?: isShown = false
        case .toggle?, .hint?: toggle(context)
        case nil: return nil
        }
        return [.changed]
    }

    /// F1 and ? show or hide the panel.
    public mutating func perform(_ command: KeyBinding.Command, key: Key, context: InputContext) -> [LayerAction]? {
        guard command == .help else { return nil }
        toggle(context)
        return [.changed]
    }

    /// Esc closes the panel before anything else.
    public mutating func take(_ event: InputEvent, context: InputContext) -> [LayerAction]? {
        guard isShown, case .keyDown(.escape, _) = event else { return nil }
        isShown = false
        return [.changed]
    }

    private mutating func toggle(_ context: InputContext) {
        isShown.toggle()
        hint = nil
        if isShown { keys = context.keys }
    }
}
