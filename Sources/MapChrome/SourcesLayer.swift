import FoundationEssentials
import MapCore
import MapGeometry
import Platform

/// The layer switcher, top left: a button naming the map shown (with how its tiles are
/// coming: loading, or the server out of reach), which opens the list of maps to choose from
/// (key L; 1–9 choose), and the overlays to lay over it (hillshade, hiking routes), each a
/// check box with its opacity (− and + in tenths). And, once, on the offline basemap past z8, a hint that street maps
/// are one key away. Saved areas are listed with their size and a ✕ to delete them (a second
/// click confirms); the last rows open "Saved areas" (Shift+A) and save the area in view (as
/// key A does). The map shown and the overlays are the session's (`SessionFacts.tileStack`):
/// drawn from the frame's facts, changed through the session (an overlay) or the host (a map).
public struct SourcesLayer: MapLayer {
    /// A map the user can choose: the name the host knows it by, and what the list says.
    public struct Choice: Hashable, Sendable {
        public var name: String
        public var title: String
        /// Said after the title, fainter ("12.3 MB").
        public var detail: String?
        /// A saved area: it can be deleted from the list.
        public var deletable: Bool
        public init(name: String, title: String, detail: String? = nil, deletable: Bool = false) {
            self.name = name; self.title = title; self.detail = detail; self.deletable = deletable
        }
    }

    /// The buttons' identities (`DrawList.buttons`).
    enum Button: Hashable, Sendable {
        case toggle, hint, saveArea, savedAreas, labels
        case choose(String)
        case delete(String)
        case overlay(String)
        /// An overlay's opacity a tenth down (-1) or up (+1).
        case fade(String, Int)
    }

    /// What the switcher asks of the app (`SessionEffect.layer`).
    public enum Request: Hashable, Sendable {
        /// Open "Save this area offline…".
        case saveArea
        /// Open "Saved areas".
        case savedAreas
        /// Delete the saved area of this name (confirmed).
        case deleteArea(String)
        /// Draw the labels with these names.
        case labels(LabelNames)
    }

    public var choices: [Choice] = []
    public var showsList = false
    /// The hint's text, shown on the offline basemap past z8 until the list is opened or the
    /// hint clicked (the host offers it once: nil once it was seen).
    public var hint: String?
    /// Saved areas lie under the map shown: offline, they still show (the status says so).
    public var savedAreasUnder = false
    /// Saved areas and unfinished saves, for the "Saved areas" row.
    public var savedAreasCount = 0
    /// Which names the labels show, offered as a row that steps through them (nil: no row,
    /// where the reader's language is not known).
    public var labels: LabelNames?
    /// The saved area whose ✕ was clicked once: a second click deletes it.
    var confirmingDelete: String?
    /// The name of the offline basemap, where the hint is shown.
    public static let basemap = "basemap"
    static let hintZoom = 8.0

    public init(choices: [Choice] = []) {
        self.choices = choices
    }

    public var levels: [LayerLevel] { [.chrome] }

    /// L and the digits are the switcher's.
    static let listCommand = KeyBinding.Command.custom("sources"), digitCommand = KeyBinding.Command.custom("digit")

    public var keyBindings: [KeyBinding] {
        // TRANSLATORS: what a key does, in the help (after the key's name, lower case).
        [KeyBinding(keys: [.letter("l")], modifiers: [], command: Self.listCommand, label: "L, 1 … 9", help: tr("choose the map: basemap, streets, topography")),
         KeyBinding(keys: (1...9).map { .letter(Character("\($0)")) }, modifiers: [], command: Self.digitCommand, label: "", help: "")]
    }

    static let rowHeight = 22.0
    static let ink = Color(hex: 0x1F5FD6)
    static let warning = Color(hex: 0xC0392B)

    /// What the button says: the title of the map shown.
    private func buttonKey(_ facts: SessionFacts) -> SpriteKey {
        let shown = facts.tileStack.chosenMap
        return .text((choices.first { $0.name == shown }?.title ?? shown) + "  ▾", .chrome)
    }

    /// What the button says of how the tiles are coming (`SessionFacts.tiles`).
    private func statusKey(_ context: LayerContext) -> SpriteKey? {
        switch context.facts.tiles {
        case .ready: return nil
        // TRANSLATORS: said beside the map's name on the map switcher while its tiles come over the network.
        case .loading: return .text(tr("loading…"), .chrome)
        case .unreachable:
            // TRANSLATORS: said beside the map's name on the map switcher when its server is out of reach (the saved areas under it still show).
            let said = savedAreasUnder ? tr("offline · saved areas shown")
                // TRANSLATORS: said beside the map's name on the map switcher when its server is out of reach.
                : tr("offline")
            return .text(said, .chrome)
        }
    }

    private var rowKeys: [SpriteKey] {
        choices.enumerated().map { i, c in .text((i < 9 ? "\(i + 1)  " : "    ") + c.title + (c.detail.map { "  ·  " + $0 } ?? ""), .chrome) }
    }

    // TRANSLATORS: a row of the map switcher (A, after it, is its key).
    static let saveRowKey: SpriteKey = .text("    " + tr("Save this area offline…") + "   A", .chrome)
    // TRANSLATORS: a row of the map switcher: %@ is how many areas are saved (Shift+A, after it, is its key).
    private var savedRowKey: SpriteKey { .text("    " + tr("Saved areas (%@)…", savedAreasCount) + "   Shift+A", .chrome) }
    private var labelsRowKey: SpriteKey? { labels.map { .text("    " + $0.title + "   ⇄", .chrome) } }
    static let deleteKey = SpriteKey.text("✕", .chrome)
    // TRANSLATORS: a saved area's ✕ once clicked: clicked again, it deletes the area.
    static let confirmKey: SpriteKey = .text(tr("Delete?"), .chrome)

    private static let check = SpriteKey.text("✓", .chrome)
    private static let minus = SpriteKey.text("−", .chrome), plus = SpriteKey.text("+", .chrome)
    // TRANSLATORS: the heading of the map switcher's overlays (hillshade, hiking routes: maps laid over the map).
    private static let overlaysKey: SpriteKey = .text("    " + tr("Over the map"), .chrome)

    /// The overlays offered, in the order they lie (the last on top), as the session has them.
    private func overlaysOffered(_ context: LayerContext) -> [TileLayerSpec] { context.facts.tileStack.overlays }
    private func overlayKeys(_ overlays: [TileLayerSpec]) -> [SpriteKey] {
        overlays.map { .text(($0.isVisible ? "☑  " : "☐  ") + $0.title, .chrome) }
    }
    // TRANSLATORS: an overlay's opacity in percent ("60 %").
    private func percentKeys(_ overlays: [TileLayerSpec]) -> [SpriteKey] { overlays.map { .text(tr("%@ %%", Self.percent($0.opacity)), .chrome) } }
    /// An opacity in whole percent, as shown and stepped.
    static func percent(_ opacity: Double) -> Int { Int(saturating: (opacity * 100).rounded()) }
    /// The rows the overlays take: a heading and one each (none without overlays).
    private func overlayRows(_ overlays: [TileLayerSpec]) -> Int { overlays.isEmpty ? 0 : overlays.count + 1 }

    private func showsHint(_ context: LayerContext) -> String? {
        guard let hint, !showsList, context.facts.tileStack.chosenMap == Self.basemap, context.camera.zoom > Self.hintZoom else { return nil }
        return hint
    }

    private func keys(_ context: LayerContext) -> [SpriteKey] {
        let overlays = overlaysOffered(context)
        return [buttonKey(context.facts)] + (statusKey(context).map { [$0] } ?? [])
            + (showsList ? rowKeys + [Self.check, Self.saveRowKey, savedRowKey, Self.deleteKey, Self.confirmKey] + (labelsRowKey.map { [$0] } ?? []) : [])
            + (showsList && !overlays.isEmpty ? overlayKeys(overlays) + percentKeys(overlays) + [Self.overlaysKey, Self.minus, Self.plus] : [])
            + (showsHint(context).map { [SpriteKey.text($0, .notice)] } ?? [])
    }

    /// The button's plate, and the list's plate under it when open.
    private func frames(_ context: LayerContext) -> (button: ScreenRect, list: ScreenRect?)? {
        guard let b = context.sprites.size(of: buttonKey(context.facts)) else { return nil }
        let s = statusKey(context).flatMap { context.sprites.size(of: $0) }
        let button = ScreenRect(x: 10, y: 10, width: b.width + 20 + (s.map { $0.width + 16 } ?? 0), height: 28)
        guard showsList else { return (button, nil) }
        let widths = (rowKeys + [Self.saveRowKey, savedRowKey] + (labelsRowKey.map { [$0] } ?? [])).compactMap { context.sprites.size(of: $0)?.width }
        let overlays = overlaysOffered(context)
        let overlayWidths = overlayKeys(overlays).compactMap { context.sprites.size(of: $0)?.width }.map { $0 + 120 }
        let width = max(button.width, (widths.max() ?? 0) + 44 + (choices.contains { $0.deletable } ? 70 : 0), (overlayWidths.max() ?? 0) + 20)
        let rows = Double(choices.count + overlayRows(overlays) + lastRows.count)
        return (button, ScreenRect(x: 10, y: button.maxY + 4, width: width, height: rows * Self.rowHeight + (overlays.isEmpty ? 13 : 18)))
    }

    public func labelExclusions(_ context: LayerContext) -> [ScreenRect] {
        guard let f = frames(context) else { return [] }
        return [f.button] + (f.list.map { [$0] } ?? [])
    }

    public func compose(at level: LayerLevel, into list: inout DrawList, context: LayerContext) {
        guard !choices.isEmpty else { return }
        let keys = keys(context)
        guard keys.allSatisfy({ context.sprites.size(of: $0) != nil }), let (button, panel) = frames(context) else {
            for k in keys where context.sprites.size(of: k) == nil { list.want(k) }
            return
        }
        func size(_ k: SpriteKey) -> ScreenSize { context.sprites.size(of: k)! }
        list.plate(button)
        let buttonKey = buttonKey(context.facts), b = size(buttonKey)
        list.commands.append(.sprite(buttonKey, destination: ScreenRect(x: button.x + 10, y: button.y + (button.height - b.height) / 2,
                                                                        width: b.width, height: b.height), opacity: 1))
        let status = context.facts.tiles
        if let k = statusKey(context) {
            let s = size(k), x = button.x + 10 + b.width + 16
            let dot = status == .loading ? Color(hex: 0x8A8A8A) : Self.warning
            list.commands.append(.fillRect(ScreenRect(x: x - 8, y: button.y + button.height / 2 - 2.5, width: 5, height: 5), dot))
            list.commands.append(.sprite(k, destination: ScreenRect(x: x, y: button.y + (button.height - s.height) / 2, width: s.width, height: s.height),
                                         opacity: status == .loading ? 0.6 : 1))
        }
        list.button(Button.toggle, frame: button, focusStop: true)
        if let panel {
            list.plate(panel)
            let shown = context.facts.tileStack.chosenMap
            for (i, (choice, key)) in zip(choices, rowKeys).enumerated() {
                let row = ScreenRect(x: panel.x, y: panel.y + 4 + Double(i) * Self.rowHeight, width: panel.width, height: Self.rowHeight)
                if choice.name == shown {
                    list.commands.append(.fillRect(ScreenRect(x: row.x + 3, y: row.y + 1, width: row.width - 6, height: row.height - 2), Self.ink.withAlpha(0.12)))
                    let c = size(Self.check)
                    list.commands.append(.sprite(Self.check, destination: ScreenRect(x: row.maxX - 12 - c.width, y: row.y + (row.height - c.height) / 2,
                                                                                       width: c.width, height: c.height), opacity: 1))
                }
                let s = size(key)
                list.commands.append(.sprite(key, destination: ScreenRect(x: row.x + 10, y: row.y + (row.height - s.height) / 2, width: s.width, height: s.height),
                                             opacity: 1))
                list.button(Button.choose(choice.name), frame: row)
                if choice.deletable {
                    // The ✕ at the row's end (left of the ✓), "Delete?" once clicked.
                    let k = confirmingDelete == choice.name ? Self.confirmKey : Self.deleteKey, s = size(k)
                    let w = s.width + 16, x = row.maxX - 34 - w
                    let r = ScreenRect(x: x, y: row.y + 2, width: w, height: row.height - 4)
                    if k == Self.confirmKey { list.commands.append(.fillRect(r, Self.warning.withAlpha(0.15))) }
                    list.commands.append(.sprite(k, destination: ScreenRect(x: r.x + 8, y: r.y + (r.height - s.height) / 2, width: s.width, height: s.height),
                                                 opacity: k == Self.confirmKey ? 1 : 0.6))
                    list.button(Button.delete(choice.name), frame: r)
                }
            }
            var y = panel.y + 4 + Double(choices.count) * Self.rowHeight
            let overlays = overlaysOffered(context)
            if !overlays.isEmpty {
                composeOverlays(overlays, at: y, in: panel, into: &list, size: size)
                y += Double(overlayRows(overlays)) * Self.rowHeight + 5
            }
            // The last rows: the saved areas, and save the area in view.
            list.commands.append(.fillRect(ScreenRect(x: panel.x + 8, y: y + 2, width: panel.width - 16, height: 1), Color(hex: 0xD8D8D8)))
            for (i, (key, id)) in lastRows.enumerated() {
                let row = ScreenRect(x: panel.x, y: y + 5 + Double(i) * Self.rowHeight, width: panel.width, height: Self.rowHeight), s = size(key)
                list.commands.append(.sprite(key, destination: ScreenRect(x: row.x + 10, y: row.y + (row.height - s.height) / 2, width: s.width, height: s.height),
                                             opacity: 1))
                list.button(id, frame: row)
            }
        } else if let hint = showsHint(context) {
            let key = SpriteKey.text(hint, .notice), s = size(key)
            let r = ScreenRect(x: button.x, y: button.maxY + 8, width: s.width + 20, height: s.height + 12)
            list.darkPlate(r, text: key, size: s)
            list.button(Button.hint, frame: r)
            list.shownHints.append("sources")
        }
    }

    /// The last rows: the labels' names (where offered), the saved areas, save the area in view.
    private var lastRows: [(SpriteKey, Button)] {
        (labelsRowKey.map { [($0, Button.labels)] } ?? []) + [(savedRowKey, Button.savedAreas), (Self.saveRowKey, Button.saveArea)]
    }

    /// The overlays' rows from `y` down: a heading, then each overlay's check box and title
    /// (a click toggles it) with its opacity between − and + at the row's end.
    private func composeOverlays(_ overlays: [TileLayerSpec], at y: Double, in panel: ScreenRect, into list: inout DrawList,
                                 size: (SpriteKey) -> ScreenSize) {
        list.commands.append(.fillRect(ScreenRect(x: panel.x + 8, y: y + 2, width: panel.width - 16, height: 1), Color(hex: 0xD8D8D8)))
        let h = size(Self.overlaysKey)
        list.commands.append(.sprite(Self.overlaysKey, destination: ScreenRect(x: panel.x + 10, y: y + 5 + (Self.rowHeight - h.height) / 2,
                                                                              width: h.width, height: h.height), opacity: 0.55))
        for (i, (overlay, (key, pct))) in zip(overlays, zip(overlayKeys(overlays), percentKeys(overlays))).enumerated() {
            let row = ScreenRect(x: panel.x, y: y + 5 + Double(i + 1) * Self.rowHeight, width: panel.width, height: Self.rowHeight)
            let s = size(key)
            list.commands.append(.sprite(key, destination: ScreenRect(x: row.x + 26, y: row.y + (row.height - s.height) / 2, width: s.width, height: s.height),
                                         opacity: overlay.isVisible ? 1 : 0.75))
            list.button(Button.overlay(overlay.name), frame: ScreenRect(x: row.x, y: row.y, width: row.width - 100, height: row.height))
            // − 60 % +, right-aligned; faint while the overlay is off.
            let p = size(pct), m = size(Self.minus), plus = size(Self.plus)
            let plusBox = ScreenRect(x: row.maxX - 28, y: row.y + 1, width: 22, height: row.height - 2)
            let pctX = plusBox.x - 6 - p.width
            let minusBox = ScreenRect(x: pctX - 28, y: row.y + 1, width: 22, height: row.height - 2)
            let o = overlay.isVisible ? 1.0 : 0.45
            for (k, box, sz) in [(Self.minus, minusBox, m), (Self.plus, plusBox, plus)] {
                list.commands.append(.fillRect(box, Self.ink.withAlpha(0.08 * o)))
                list.commands.append(.sprite(k, destination: ScreenRect(x: box.x + (box.width - sz.width) / 2, y: box.y + (box.height - sz.height) / 2,
                                                                        width: sz.width, height: sz.height), opacity: o))
            }
            list.commands.append(.sprite(pct, destination: ScreenRect(x: pctX, y: row.y + (row.height - p.height) / 2, width: p.width, height: p.height),
                                         opacity: o))
            list.button(Button.fade(overlay.name, -1), frame: minusBox)
            list.button(Button.fade(overlay.name, 1), frame: plusBox)
        }
    }

    /// The map numbered `n` (1-based, as the list shows) while the list is open.
    public func choice(number n: Int) -> Choice? {
        guard showsList, n >= 1, n <= min(9, choices.count) else { return nil }
        return choices[n - 1]
    }

    public mutating func press(_ button: ButtonID, context: InputContext) -> [LayerAction]? {
        switch button.as(Button.self) {
        case .toggle?: showsList.toggle(); hint = nil; confirmingDelete = nil
        case .hint?: hint = nil; showsList = true
        case let .choose(name)?: return choose(name, context: context)
        case .saveArea?:
            showsList = false
            return [.changed, .effect(.layer(LayerRequest(Request.saveArea)))]
        case .savedAreas?:
            showsList = false
            return [.changed, .effect(.layer(LayerRequest(Request.savedAreas)))]
        case .labels?:
            // The list stays open: the next click steps on.
            guard let now = labels else { return [.changed] }
            labels = now.next
            return [.changed, .effect(.layer(LayerRequest(Request.labels(now.next))))]
        case let .delete(name)?:
            guard confirmingDelete == name else { confirmingDelete = name; return [.changed] }
            confirmingDelete = nil
            return [.changed, .effect(.layer(LayerRequest(Request.deleteArea(name))))]
        case let .overlay(name)?:
            guard let o = context.facts.tileStack.overlay(name) else { return [.changed] }
            return [.setOverlay(name, visible: !o.isVisible, opacity: nil)]
        case let .fade(name, step)?:
            guard let o = context.facts.tileStack.overlay(name) else { return [.changed] }
            // In tenths, from 10 % to 100 %; a change turns the overlay on.
            let tenths = min(max((o.opacity * 10).rounded() + Double(step), 1), 10)
            return [.setOverlay(name, visible: true, opacity: tenths / 10)]
        case nil: return nil
        }
        return [.changed]
    }

    /// L opens or closes the list, a digit chooses from it, Esc closes it.
    public mutating func perform(_ command: KeyBinding.Command, key: Key, context: InputContext) -> [LayerAction]? {
        switch command {
        case Self.listCommand: showsList.toggle(); hint = nil; confirmingDelete = nil
        case Self.digitCommand:
            // As a click on the list's row would; with the list closed, a digit is nothing
            // (not the app's to hear).
            guard case let .letter(c) = key, let n = c.wholeNumberValue, let choice = choice(number: n) else { return [] }
            return choose(choice.name, context: context)
        case .cancel where showsList: showsList = false
        default: return nil
        }
        return [.changed]
    }

    private mutating func choose(_ name: String, context: InputContext) -> [LayerAction] {
        showsList = false
        return name == context.facts.tileStack.chosenMap ? [.changed] : [.effect(.chooseTiles(name))]
    }
}
