import FoundationEssentials
import MapGeometry
import Platform

/// Place names from the tiles on screen, placed in screen space by priority, keeping clear of
/// the chrome and of what overlays draw above them. Part of the base map.
///
/// Placing is the costliest part of composing a frame, and most frames that animate (a
/// pulsing location, a pin lifting) leave the labels as they were: the last placement is
/// kept and used again while the camera, the candidates and what to keep clear of are the same.
public struct LabelsLayer: MapLayer {
    public var placer = LabelPlacer()
    private let memo = LockedValue<Memo.Entry>()

    public init() {}

    public var levels: [LayerLevel] { [.base] }

    /// The inputs of the last placement and what it drew (only when all of it was ready).
    enum Memo {
        struct Entry {
            var camera: Camera
            /// Where the candidates came from, when the stores could say (`Sources`); else
            /// the candidates themselves are compared.
            var sources: Sources?
            var candidates: [PlaceLabel]
            var reserved: [ScreenRect]
            var commands: [DrawCommand]
            var placed: [PlacedLabel]
        }
        /// The tiles the candidates came from and the stores' revisions: equal sources give
        /// equal candidates, and comparing them is far cheaper than comparing the places.
        struct Sources: Equatable {
            var shown: [[TileID]]
            var covered: [[ScreenRect]]
            var revisions: [Int]
        }
    }

    public func compose(at level: LayerLevel, into list: inout DrawList, context: LayerContext) {
        let sources = Self.sources(context)
        if let sources, let e = memo.get(), e.sources == sources, e.camera == context.camera, e.reserved == context.labelExclusions {
            list.commands += e.commands
            list.placedLabels += e.placed
            return
        }
        var candidates: [PlaceLabel] = []
        var used = Set<TileID>()
        for source in context.labelSources {
            used.removeAll(keepingCapacity: true)
            let covered = source.hiddenUnder
            for t in source.shown where used.insert(t).inserted {
                let places = source.store.places(in: t)
                candidates += covered.isEmpty ? places : places.filter { p in
                    let s = context.camera.screenPoint(for: p.point)
                    return !covered.contains { $0.contains(s) }
                }
            }
        }
        guard !candidates.isEmpty else { return }
        if var e = memo.get(), e.camera == context.camera, e.reserved == context.labelExclusions, e.candidates == candidates {
            // The same places from other revisions (a tile came and went elsewhere): the next
            // frame need not compare them again.
            if e.sources != sources { e.sources = sources; memo.set(e) }
            list.commands += e.commands
            list.placedLabels += e.placed
            return
        }
        let sprites = context.sprites
        let placed = placer.place(candidates, camera: context.camera, sprites: sprites, reserved: context.labelExclusions)
        var wanted: [SpriteKey] = [], asked = Set<SpriteKey>()
        var commands: [DrawCommand] = [], shown: [PlacedLabel] = []
        func want(_ k: SpriteKey) { if sprites.size(of: k) == nil && asked.insert(k).inserted { wanted.append(k) } }
        for p in placed {
            switch p.place.placement {
            case .place:
                let dot = SpriteKey.placeDot(capital: p.place.capital), text = p.place.textKey
                guard p.ready, sprites.size(of: dot) != nil else {
                    // Winners whose sprites are missing are rasterized for a later frame.
                    want(dot); want(text)
                    continue
                }
                commands.append(.sprite(dot, destination: p.dot, opacity: 1))
                commands.append(.sprite(text, destination: p.text, opacity: 1))
            case .point:
                guard p.ready else { want(p.place.textKey); if let i = p.place.icon { want(i.key) }; continue }
                if let icon = p.place.icon { commands.append(.sprite(icon.key, destination: p.dot, opacity: 1)) }
                commands.append(.sprite(p.place.textKey, destination: p.text, opacity: 1))
            case .line:
                guard p.ready else { for g in p.glyphs { want(g.key) }; continue }
                for g in p.glyphs {
                    guard let size = sprites.size(of: g.key) else { continue }
                    let box = ScreenRect(x: g.center.x - size.width / 2, y: g.center.y - size.height / 2, width: size.width, height: size.height)
                    commands.append(.rotatedSprite(g.key, destination: box, opacity: 1, degrees: g.degrees))
                }
            }
            shown.append(p)
        }
        list.commands += commands
        list.placedLabels += shown
        list.wantedSprites += wanted
        // Kept only when nothing was missing: a placement waiting for sprites changes when they come.
        memo.set(wanted.isEmpty ? Memo.Entry(camera: context.camera, sources: sources, candidates: candidates, reserved: context.labelExclusions,
                                             commands: commands, placed: shown) : nil)
    }

    /// Where this frame's candidates come from; nil when a store cannot tell its revisions.
    private static func sources(_ context: LayerContext) -> Memo.Sources? {
        var revisions: [Int] = []
        for source in context.labelSources {
            guard let r = source.store.placesRevision else { return nil }
            revisions.append(r)
        }
        return Memo.Sources(shown: context.labelSources.map(\.shown), covered: context.labelSources.map(\.hiddenUnder), revisions: revisions)
    }
}
