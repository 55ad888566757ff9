import FoundationEssentials
import MapCore
import MapGeometry
import Platform

/// "Saved areas" (Shift+A, or the map switcher's row): every area saved for offline use, with
/// its size, zooms, the day it was saved and the day its map's data is from, and what can be
/// done with it — show it (fly there, outline it), rename it, update it, delete it (asked
/// once). Saves that stopped before they were whole are listed too, to resume or discard.
/// The total the areas take on disk heads the list. The app lists the areas (`rows`), and
/// carries out the layer's `Request`s.
public struct AreasLayer: MapLayer {
    /// One line of the list, as the app describes it.
    public struct Row: Hashable, Sendable {
        public enum Kind: Hashable, Sendable { case saved, unfinished }
        /// What the row is known by: a saved area's file, an unfinished save's `.part` folder
        /// (an update stopped midway is listed beside its area).
        public var path: String
        public var kind: Kind
        public var title: String
        /// Said under the title ("OpenFreeMap · 12.3 MB · zooms 0–15 · saved 26 Nov 2026").
        public var detail: String
        /// Where it is, and its zooms.
        public var area: SaveAreaLayer.Area
        public init(path: String, kind: Kind, title: String, detail: String, area: SaveAreaLayer.Area) {
            self.path = path; self.kind = kind; self.title = title; self.detail = detail; self.area = area
        }
    }

    /// What the list asks of the app (`SessionEffect.layer`).
    public enum Request: Hashable, Sendable {
        case update(String)
        case rename(String, to: String)
        case delete(String)
        case resume(String)
        case discard(String)
    }

    enum Button: Hashable, Sendable {
        case close
        case show(String), rename(String), update(String), delete(String), resume(String), discard(String)
        case renameDone, renameCancel
        /// The next page of a list too long for the view.
        case nextPage
    }

    public var rows: [Row] = []
    /// "3 areas · 48.2 MB on disk".
    public var total = ""
    public private(set) var isOpen = false
    /// The area outlined on the map (shown from the list).
    public private(set) var outlined: String?
    /// The row whose Delete or Discard was pressed once: pressed again, it is done.
    var confirming: String?
    /// The first row shown: a list longer than the view is shown a page at a time.
    var firstRow = 0
    /// The area being renamed, and the name typed so far.
    public private(set) var renaming: (path: String, text: String)?

    public init() {}

    public var levels: [LayerLevel] { [.overlay, .chrome] }

    static let openCommand = KeyBinding.Command.custom("savedAreas")

    public var keyBindings: [KeyBinding] {
        // TRANSLATORS: what a key does, in the help (after the key's name, lower case).
        [KeyBinding(keys: [.letter("a")], modifiers: .shift, command: Self.openCommand, label: "Shift+A", help: tr("saved areas: show, rename, update, delete"))]
    }

    public mutating func open() {
        isOpen.toggle()
        confirming = nil
        renaming = nil
        if !isOpen { outlined = nil }
    }

    public mutating func close() {
        isOpen = false
        confirming = nil
        renaming = nil
        outlined = nil
    }

    /// The app's list changed: what pointed at a row gone goes too.
    public mutating func list(_ rows: [Row], total: String) {
        self.rows = rows
        self.total = total
        if firstRow >= rows.count { firstRow = 0 }
        let paths = Set(rows.map(\.path))
        if let o = outlined, !paths.contains(o) { outlined = nil }
        if let c = confirming, !paths.contains(c) { confirming = nil }
        if let r = renaming, !paths.contains(r.path) { renaming = nil }
    }

    public var wantsText: Bool { renaming != nil }

    // MARK: input

    public mutating func perform(_ command: KeyBinding.Command, key: Key, context: InputContext) -> [LayerAction]? {
        switch command {
        case Self.openCommand: open(); return [.changed]
        case .cancel where isOpen: close(); return [.changed]
        default: return nil
        }
    }

    /// Typing a new name: letters, Backspace, Enter to keep it, Esc to leave it.
    public mutating func take(_ event: InputEvent, context: InputContext) -> [LayerAction]? {
        guard var r = renaming else { return nil }
        switch event {
        case let .text(s):
            r.text = String((r.text + s.filter { !$0.isNewline }).prefix(60))
            renaming = r
        case let .keyDown(key, mods):
            switch key {
            case .letter("q") where mods.contains(.control): return nil
            case .backspace: if !r.text.isEmpty { r.text.removeLast() }; renaming = r
            case .escape: renaming = nil
            case .enter: return finishRenaming()
            default: break
            }
        default: return nil
        }
        return [.changed]
    }

    private mutating func finishRenaming() -> [LayerAction] {
        guard let r = renaming else { return [.changed] }
        renaming = nil
        let name = r.text.trimmed
        guard !name.isEmpty, name != rows.first(where: { $0.path == r.path })?.title else { return [.changed] }
        return [.changed, .effect(.layer(LayerRequest(Request.rename(r.path, to: name))))]
    }

    public mutating func press(_ button: ButtonID, context: InputContext) -> [LayerAction]? {
        guard let b = button.as(Button.self) else { return nil }
        let ask: (Request) -> [LayerAction] = { [.changed, .effect(.layer(LayerRequest($0)))] }
        if b == .renameDone { return finishRenaming() }
        // Any other press leaves a name being typed as it was, and a Delete not confirmed.
        if case .rename = b {} else { renaming = nil }
        switch b {
        case .delete, .discard: break
        default: confirming = nil
        }
        switch b {
        case .close: close()
        case let .show(path):
            guard let row = rows.first(where: { $0.path == path }) else { return [.changed] }
            outlined = path
            return [.changed, .show(clearOfPanel(Self.mapRect(of: row.area), context.camera))]
        case let .rename(path):
            renaming = (path, rows.first { $0.path == path }?.title ?? "")
        case let .update(path): return ask(.update(path))
        case let .resume(path): return ask(.resume(path))
        case let .delete(path), let .discard(path):
            guard confirming == path else { confirming = path; return [.changed] }
            confirming = nil
            if outlined == path { outlined = nil }
            if case .delete = b { return ask(.delete(path)) }
            return ask(.discard(path))
        case .nextPage:
            let page = pageSize(context.camera.viewportSize.height, bottomInset: 0)
            firstRow = firstRow + page < rows.count ? firstRow + page : 0
        case .renameDone, .renameCancel: break
        }
        return [.changed]
    }

    /// `rect` grown upwards by what the list covers at the top of the view, so that the
    /// view that shows it whole has the area below the list, in sight. Upwards on the screen:
    /// on a turned map, not north.
    func clearOfPanel(_ rect: MapRect, _ camera: Camera) -> MapRect {
        let h = camera.viewportSize.height
        let shown = min(rows.count, pageSize(h, bottomInset: 0))
        let covered = 46 + Self.headerHeight + Double(shown) * Self.rowHeight + 16
        guard covered < h * 0.7 else { return rect }
        let share = covered / (h - covered)
        guard camera.isTurned else {
            return MapRect(x: rect.minX, y: rect.minY - rect.size.height * share, width: rect.size.width, height: rect.size.height * (1 + share))
        }
        // Up the screen on the plane, and the rectangle's height as the screen shows it.
        let (ux, uy) = camera.unturn(0, -1)
        let tall = abs(ux) * rect.size.width + abs(uy) * rect.size.height
        let dx = ux * tall * share, dy = uy * tall * share
        let x0 = min(rect.minX, rect.minX + dx), y0 = min(rect.minY, rect.minY + dy)
        return MapRect(x: x0, y: y0, width: max(rect.maxX, rect.maxX + dx) - x0, height: max(rect.maxY, rect.maxY + dy) - y0)
    }

    /// Rows a page holds in a view `height` points high.
    func pageSize(_ height: Double, bottomInset: Double) -> Int {
        let room = height - 46 - Self.headerHeight - 60 - bottomInset
        return max(1, Int(saturating: (room / Self.rowHeight).rounded(.down)))
    }

    /// Where `area` lies in world units (east of west across the antimeridian).
    static func mapRect(of area: SaveAreaLayer.Area) -> MapRect {
        let nw = WebMercator.project(Coordinate(latitude: min(area.north, 85.05), longitude: area.west))
        let se = WebMercator.project(Coordinate(latitude: max(area.south, -85.05), longitude: area.east))
        var width = se.x - nw.x
        if width <= 0 { width += WebMercator.worldSize }
        return MapRect(x: nw.x, y: nw.y, width: width, height: se.y - nw.y)
    }
}
