import FoundationEssentials
import MapGeometry
import Platform

/// The scale bar (bottom left) and the attribution (bottom right), on light plates that
/// place labels keep clear of; what long work under way says (opening a large file), on a
/// dark plate at the bottom centre.
public struct ChromeLayer: MapLayer {
    /// Credit for the data shown, bottom right; empty for none.
    public var attribution = ""
    /// Where a click on the attribution leads (the copyright page); nil: nowhere.
    public var attributionURL: String?
    public var showsScaleBar = true
    /// The bar depends on the view's latitude and zoom (its centre's y, not x: a pan east or
    /// west keeps it), and its sprite key on its label only.
    private struct LastScaleBar { let y: Double, zoom: Double, imperial: Bool, span: ScaleBar.Span, bar: ScaleBar, key: SpriteKey }
    private let lastScaleBar = LockedValue<LastScaleBar>()

    public init() {}

    public var levels: [LayerLevel] { [.chrome] }

    static let plate = Color(hex: 0xFFFFFF, alpha: 0.72)
    static let ink = Color(hex: 0x333333)

    /// The credit shown: the map's, and those of the other tile layers drawn.
    private func credit(_ context: LayerContext) -> String {
        let others = context.credits.filter { $0 != attribution }
        guard !others.isEmpty else { return attribution }
        return ((attribution.isEmpty ? [] : [attribution]) + others).joined(separator: " · ")
    }

    /// The attribution's text rectangle and plate, when its sprite is ready.
    private func attributionFrames(_ context: LayerContext) -> (text: ScreenRect, plate: ScreenRect)? {
        let attribution = credit(context)
        guard !attribution.isEmpty, let s = context.sprites.size(of: .text(attribution, .chrome)) else { return nil }
        let w = context.camera.viewportSize.width, h = context.camera.viewportSize.height - context.bottomInset
        let r = ScreenRect(x: w - s.width - 4, y: h - s.height - 2, width: s.width, height: s.height)
        return (r, ScreenRect(x: r.x - 3, y: r.y, width: s.width + 7, height: s.height + 2))
    }

    /// The scale bar, its label's rectangle and its plate, when the label is ready.
    private func scaleBarFrames(_ context: LayerContext) -> (bar: ScaleBar, label: ScreenRect, plate: ScreenRect)? {
        guard showsScaleBar else { return nil }
        let (bar, key) = scaleBar(context.camera, imperial: context.facts.imperialUnits)
        guard let s = context.sprites.size(of: key) else { return nil }
        let x = 10.0, base = context.camera.viewportSize.height - context.bottomInset - 10
        let plate = ScreenRect(x: x - 4, y: base - s.height - 8, width: bar.width + s.width + 14, height: s.height + 12)
        return (bar, ScreenRect(x: x + bar.width + 4, y: base - s.height - 2, width: s.width, height: s.height), plate)
    }

    /// The scale bar for `camera` and its label's sprite, made once per camera: a frame asks
    /// twice (what labels keep clear of, then what is drawn), and a label's key hashes its
    /// text. Panning, only the width changes: the label (a translated, localized number) is
    /// made again only when the round length does.
    private func scaleBar(_ camera: Camera, imperial: Bool) -> (ScaleBar, SpriteKey) {
        let last = lastScaleBar.get()
        if let last, last.y == camera.center.y, last.zoom == camera.zoom, last.imperial == imperial { return (last.bar, last.key) }
        let span = ScaleBar.span(camera: camera, imperial: imperial)
        let (bar, key): (ScaleBar, SpriteKey)
        if let last, last.span.sameLength(as: span) {
            (bar, key) = (ScaleBar(width: span.width, label: last.bar.label), last.key)
        } else {
            bar = ScaleBar(width: span.width, label: span.label)
            key = last.flatMap { $0.bar.label == bar.label ? $0.key : nil } ?? SpriteKey.text(bar.label, .chrome)
        }
        lastScaleBar.set(LastScaleBar(y: camera.center.y, zoom: camera.zoom, imperial: imperial, span: span, bar: bar, key: key))
        return (bar, key)
    }

    public func labelExclusions(_ context: LayerContext) -> [ScreenRect] {
        [attributionFrames(context)?.plate, scaleBarFrames(context)?.plate].compactMap { $0 }
    }

    public func compose(at level: LayerLevel, into list: inout DrawList, context: LayerContext) {
        composeStatus(into: &list, context: context)
        let attribution = credit(context)
        if let a = attributionFrames(context) {
            list.commands.append(.fillRect(a.plate, Self.plate))
            list.commands.append(.sprite(.text(attribution, .chrome), destination: a.text, opacity: 1))
            if attributionURL != nil {
                // A link: underlined, and clickable.
                list.commands.append(.fillRect(ScreenRect(x: a.text.x, y: a.text.maxY - 2, width: a.text.width, height: 1), Self.ink.withAlpha(0.5)))
                list.button(Attribution(), frame: a.plate)
            }
        } else if !attribution.isEmpty {
            list.wantedSprites.insert(.text(attribution, .chrome), at: 0)
        }
        guard showsScaleBar else { return }
        guard let (bar, label, plate) = scaleBarFrames(context) else {
            list.wantedSprites.insert(scaleBar(context.camera, imperial: context.facts.imperialUnits).1, at: 0)
            return
        }
        let x = 10.0, base = context.camera.viewportSize.height - context.bottomInset - 10
        list.commands.append(.fillRect(plate, Self.plate))
        list.commands.append(.fillRect(ScreenRect(x: x, y: base - 3, width: bar.width, height: 2), Self.ink))
        list.commands.append(.fillRect(ScreenRect(x: x, y: base - 9, width: 1.5, height: 8), Self.ink))
        list.commands.append(.fillRect(ScreenRect(x: x + bar.width - 1.5, y: base - 9, width: 1.5, height: 8), Self.ink))
        list.commands.append(.sprite(scaleBar(context.camera, imperial: context.facts.imperialUnits).1, destination: label, opacity: 1))
    }

    /// The attribution's identity as a button (a link to the data's copyright page).
    struct Attribution: Hashable, Sendable {}

    public mutating func press(_ button: ButtonID, context: InputContext) -> [LayerAction]? {
        guard button.as(Attribution.self) != nil, let attributionURL else { return nil }
        return [.effect(.openLink(attributionURL))]
    }

    private func composeStatus(into list: inout DrawList, context: LayerContext) {
        guard let status = context.facts.status, !status.isEmpty else { return }
        let key = SpriteKey.text(status, .notice)
        guard let s = context.sprites.size(of: key) else { list.wantedSprites.insert(key, at: 0); return }
        let w = context.camera.viewportSize.width, h = context.camera.viewportSize.height - context.bottomInset
        let rect = ScreenRect(x: ((w - s.width) / 2).rounded(), y: (h - 24 - s.height).rounded(), width: s.width, height: s.height)
        list.darkPlate(ScreenRect(x: rect.x - 10, y: rect.y - 6, width: rect.width + 20, height: rect.height + 12), text: key, size: s)
    }
}
