import FoundationEssentials
import MapGeometry
import Platform

/// The list of open files (key T), top right: each file's colour and name, a click on the
/// name flies to it, "Hide"/"Show" and "✕" (close: the file on disk stays as it is).
extension TracksLayer {
    static let rowHeight = 20.0

    // TRANSLATORS: the title of the list of open files (key T).
    private static let listTitle: SpriteKey = .text(tr("Tracks"), .chrome)
    // TRANSLATORS: small buttons in the list of open files: hide or show a file's tracks on the map.
    private static let hideKey: SpriteKey = .text(tr("Hide"), .chrome)
    private static let showKey: SpriteKey = .text(tr("Show"), .chrome)
    private static let closeKey = SpriteKey.text("✕", .chrome)

    /// Every sprite the list draws.
    private var listKeys: [SpriteKey] {
        [Self.listTitle, Self.hideKey, Self.showKey, Self.closeKey] + files.map { SpriteKey.text($0.name, .chrome) }
    }

    /// The list's plate, its title and each row's parts, when all its sprites are ready.
    private func listLayout(_ context: LayerContext)
        -> (plate: ScreenRect, title: ScreenRect, rows: [(file: TrackFile, swatch: ScreenRect, name: (SpriteKey, ScreenRect), toggle: (SpriteKey, ScreenRect), close: (SpriteKey, ScreenRect))])? {
        guard listKeys.allSatisfy({ context.sprites.size(of: $0) != nil }) else { return nil }
        let title = Self.listTitle, hide = Self.hideKey, show = Self.showKey, close = Self.closeKey
        let names = files.map { SpriteKey.text($0.name, .chrome) }
        func size(_ k: SpriteKey) -> ScreenSize { context.sprites.size(of: k)! }
        let toggleWidth = max(size(hide).width, size(show).width)
        let nameWidth = names.map { size($0).width }.max() ?? 0
        let width = max(16 + nameWidth + 12 + toggleWidth + 10 + size(close).width, size(title).width) + 16
        let w = context.camera.viewportSize.width
        // Below the search box and beside the column of buttons on the right (36 points wide,
        // 10 from the edge), so that neither covers the other.
        let plate = ScreenRect(x: w - 10 - 36 - 8 - width, y: 50, width: width, height: 28 + Double(files.count) * Self.rowHeight + 6)
        var rows: [(TrackFile, ScreenRect, (SpriteKey, ScreenRect), (SpriteKey, ScreenRect), (SpriteKey, ScreenRect))] = []
        for (i, file) in files.enumerated() {
            let y = plate.y + 28 + Double(i) * Self.rowHeight
            func centred(_ k: SpriteKey, x: Double) -> ScreenRect {
                let s = size(k)
                return ScreenRect(x: x, y: y + (Self.rowHeight - s.height) / 2, width: s.width, height: s.height)
            }
            let toggle = file.hidden ? show : hide
            rows.append((file, ScreenRect(x: plate.x + 8, y: y + 5, width: 10, height: 10),
                         (names[i], centred(names[i], x: plate.x + 24)),
                         (toggle, centred(toggle, x: plate.maxX - 8 - size(close).width - 10 - toggleWidth)),
                         (close, centred(close, x: plate.maxX - 8 - size(close).width))))
        }
        let t = size(title)
        return (plate, ScreenRect(x: plate.x + 8, y: plate.y + 7, width: t.width, height: t.height), rows)
    }

    /// Where the list is drawn (for place labels to keep clear of), when it is.
    func listPlate(_ context: LayerContext) -> ScreenRect? {
        showsList && !files.isEmpty ? listLayout(context)?.plate : nil
    }

    func composeList(into list: inout DrawList, context: LayerContext) {
        guard showsList, !files.isEmpty else { return }
        guard let (plate, title, rows) = listLayout(context) else {
            for key in listKeys where context.sprites.size(of: key) == nil { list.want(key) }
            return
        }
        list.plate(plate)
        list.commands.append(.sprite(Self.listTitle, destination: title, opacity: 1))
        let ink = Color(hex: 0x1F5FD6)
        for (file, swatch, name, toggle, close) in rows {
            list.commands.append(.fillRect(swatch, file.hidden ? Color(hex: 0xBBBBBB) : file.shownColor))
            list.commands.append(.sprite(name.0, destination: name.1, opacity: file.hidden ? 0.45 : 1))
            // The buttons: underlined in the link colour, their frames a little larger to hit.
            for (key, rect) in [toggle, close] {
                list.commands.append(.sprite(key, destination: rect, opacity: 1))
                list.commands.append(.fillRect(ScreenRect(x: rect.x, y: rect.maxY - 2, width: rect.width, height: 1), ink.withAlpha(0.6)))
            }
            list.button(ListButton.go(file.id), frame: name.1.outset(4))
            list.button(ListButton.toggle(file.id), frame: toggle.1.outset(4))
            list.button(ListButton.close(file.id), frame: close.1.outset(4))
        }
    }

    /// The list's buttons (`DrawList.buttons`): each file's name, show/hide and close.
    enum ListButton: Hashable, Sendable {
        case go(Int), toggle(Int), close(Int)
        var fileID: Int { switch self { case let .go(id), let .toggle(id), let .close(id): return id } }
    }

    public mutating func press(_ button: ButtonID, context: InputContext) -> [LayerAction]? {
        guard let b = button.as(ListButton.self), let i = files.firstIndex(where: { $0.id == b.fileID }) else { return nil }
        let id = b.fileID
        switch b {
        case .toggle:
            setHidden(!files[i].hidden, at: i)
            if files[i].hidden, selection?.fileID == id { selection = nil }
            return [.changed]
        case .close:
            if selection?.fileID == id { selection = nil }
            close(at: i)
            if files.isEmpty { showsList = false }
            return [.changed]
        case .go:
            if files[i].hidden { setHidden(false, at: i) }
            return [files[i].bounds.map { .show($0) } ?? .changed]
        }
    }
}
