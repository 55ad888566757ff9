import FoundationEssentials
import MapGeometry
import Platform

/// Place names from the tiles on screen, placed in screen space by priority, keeping clear of
/// the chrome and of what overlays draw above them. Part of the base map.
///
/// Labels hold still: each placement starts from where the labels were at the camera before
/// (`LabelMemory`), and a label that comes or goes fades in or out (over the scene's
/// `labelFadeSeconds`, which the frame's context carries) instead
/// of popping (a label fading out claims no room). Placing is the costliest part of composing
/// a frame, and most frames that animate (a pulsing location, a label fading) leave the
/// placement as it was: it is kept and used again while the camera, the candidates and what
/// to keep clear of are the same. While the map only slides (a pan, a fling) in a window that
/// animates, a placement slides with it for `slideSeconds` before the next is made, as
/// MapLibre places a few times a second rather than every frame.
public struct LabelsLayer: MapLayer {
    public var placer = LabelPlacer()
    /// How long a window's labels fade in and out: MapLibre's 200–300 ms, at the quick end.
    public static let windowFadeSeconds = 0.2
    private var memo = LockedValue<Memo.State>()

    public init() {}

    /// Forgets what this layer placed and faded: a copy of the scene drawn elsewhere (an
    /// export, a page) places its own labels and leaves the window's alone.
    public mutating func detach() { memo = LockedValue() }

    public var levels: [LayerLevel] { [.base] }

    /// How long a placement slides with the map before labels are placed again: the labels
    /// coming in at the edges of a pan wait this long.
    public static let slideSeconds = 0.25

    enum Memo {
        /// A placement and what it was made from.
        struct Placement {
            var camera: Camera
            /// When it was made.
            var time: Double
            /// Where the candidates came from, when the stores could say (`Sources`); else
            /// the candidates themselves are compared.
            var sources: Sources?
            var candidates: [PlaceLabel]
            var reserved: [ScreenRect]
            /// Every label that won a place, drawn or still waiting for its sprites.
            var placed: [PlacedLabel]
            /// Every sprite it needs was there: it can be used again as it is. (One made while
            /// sprites were missing holds their estimated sizes, and changes when they come.)
            var complete = false
        }
        /// The tiles the candidates came from and the stores' revisions: equal sources give
        /// equal candidates, and comparing them is far cheaper than comparing the places.
        struct Sources: Equatable {
            var shown: [[TileID]]
            var covered: [[ScreenRect]]
            var revisions: [Int]
        }
        /// A label drawn, or fading out, and its opacity over time: `from` at `start`,
        /// moving to `target` (1 shown, 0 gone) over the fade.
        struct Fade {
            var label: PlacedLabel
            /// The camera `label`'s positions are for.
            var camera: Camera
            var from: Double
            var start: Double
            var target: Double

            func opacity(at t: Double, over seconds: Double) -> Double {
                guard seconds > 0 else { return target }
                let f = min(max((t - start) / seconds, 0), 1)
                return from + (target - from) * f
            }
        }
        struct State {
            var last: Placement?
            /// The placement at the camera before `last`'s, which `last` held its labels to.
            var memory = LabelMemory()
            var fades: [Fade] = []
        }
    }

    public func compose(at level: LayerLevel, into list: inout DrawList, context: LayerContext) {
        var state = memo.get() ?? Memo.State()
        let sprites = context.sprites
        let (placement, fresh) = placement(&state, context)
        // A placement sliding with the map: frames go on until one is made where the camera is.
        if placement.camera != context.camera { list.animating = true }
        var wanted: [SpriteKey] = [], asked = Set<SpriteKey>()
        func want(_ k: SpriteKey) { if sprites.size(of: k) == nil && asked.insert(k).inserted { wanted.append(k) } }
        var shown: [PlacedLabel] = []
        for p in placement.placed {
            // Winners whose sprites are missing are rasterized for a later frame; their room is held.
            switch p.place.placement {
            case .place:
                let dot = SpriteKey.placeDot(capital: p.place.capital)
                guard p.ready, sprites.size(of: dot) != nil else { want(dot); want(p.place.textKey); continue }
            case .point:
                guard p.ready else {
                    if !p.place.name.isEmpty { want(p.place.textKey) }
                    if let i = p.place.icon { want(i.key) }
                    continue
                }
            case .line:
                guard p.ready else { for g in p.glyphs { want(g.key) }; continue }
            }
            shown.append(p)
        }
        let t = context.time, fadeSeconds = context.labelFadeSeconds
        // A placement used again (a frame of a pulse, of a fade) was faded to when it was made.
        if fresh {
            if fadeSeconds > 0 {
                Self.fade(&state.fades, to: shown, camera: context.camera, at: t, seconds: fadeSeconds)
            } else {
                state.fades = shown.map { Memo.Fade(label: $0, camera: context.camera, from: 1, start: t, target: 1) }
            }
        }
        for f in state.fades {
            if t < f.start + fadeSeconds { list.animating = true }
            let opacity = f.opacity(at: t, over: fadeSeconds)
            guard opacity > 0.001 else { continue }
            Self.draw(f.camera == context.camera ? f.label : Self.moved(f.label, from: f.camera, to: context.camera),
                      opacity: opacity, sprites: sprites, into: &list.commands)
        }
        list.placedLabels += placement.camera == context.camera ? shown : shown.map { Self.moved($0, from: placement.camera, to: context.camera) }
        list.wantedSprites += wanted
        state.last?.complete = wanted.isEmpty
        memo.set(state)
    }

    /// This frame's placement: the last one again when nothing it depends on changed (not
    /// `fresh`), else a new one held to the placement at the camera before.
    private func placement(_ state: inout Memo.State, _ context: LayerContext) -> (placement: Memo.Placement, fresh: Bool) {
        let camera = context.camera, reserved = context.labelExclusions
        let sources = Self.sources(context)
        if let sources, let last = state.last, last.complete, last.sources == sources, last.camera == camera, last.reserved == reserved {
            return (last, false)
        }
        if context.labelFadeSeconds > 0, let last = state.last, last.complete, Self.slides(from: last.camera, to: camera),
           context.time - last.time >= 0, context.time - last.time < Self.slideSeconds {
            return (last, false)
        }
        var candidates: [PlaceLabel] = []
        var used = Set<TileID>()
        for source in context.labelSources {
            used.removeAll(keepingCapacity: true)
            let covered = source.hiddenUnder
            for t in source.shown where used.insert(t).inserted {
                let places = source.store.places(in: t)
                candidates += covered.isEmpty ? places : places.filter { p in
                    let s = camera.screenPoint(for: p.point)
                    return !covered.contains { $0.contains(s) }
                }
            }
        }
        if var last = state.last, last.complete, last.camera == camera, last.reserved == reserved, last.candidates == candidates {
            // The same places from other revisions (a tile came and went elsewhere): the next
            // frame need not compare them again.
            last.sources = sources
            state.last = last
            return (last, false)
        }
        // The camera moved: what was placed at the last one is what the labels hold to. While
        // it stays, every placement (as tiles and sprites come) holds to the same memory, so
        // a placement depends on the camera before, not on the order tiles arrived in.
        // A window resized (or moved to a screen of another density) is a new view, not a
        // motion: placed afresh, so that the view returning to its size is the view it was.
        if let last = state.last, last.camera != camera {
            let resized = last.camera.viewportSize != camera.viewportSize || last.camera.pixelRatio != camera.pixelRatio
            state.memory = resized ? LabelMemory() : LabelMemory(last.placed, camera: last.camera)
        }
        let placed = candidates.isEmpty ? [] : placer.place(candidates, camera: camera, sprites: context.sprites, reserved: reserved,
                                                            previous: state.memory)
        let p = Memo.Placement(camera: camera, time: context.time, sources: sources, candidates: candidates, reserved: reserved, placed: placed)
        state.last = p
        return (p, true)
    }

    /// The map only slid from `a` to `b`: same zoom, bearing, size and density, another centre.
    /// (While it turns, labels are placed every frame, as while it zooms: a placement slid
    /// along would leave street names off their turned streets.)
    static func slides(from a: Camera, to b: Camera) -> Bool {
        a.center != b.center && a.zoom == b.zoom && a.bearing == b.bearing && a.viewportSize == b.viewportSize && a.pixelRatio == b.pixelRatio
    }

    /// Brings the fades up to date with the labels drawn now: a label already drawn (`SameLabel`:
    /// its name, placed the same way, within a few points of where it was) keeps its opacity, a new one fades in, one
    /// no longer placed fades out where it was, moving with the map.
    static func fade(_ fades: inout [Memo.Fade], to shown: [PlacedLabel], camera: Camera, at t: Double, seconds: Double) {
        var byLabel: [SameLabel: [Int]] = [:]
        for (i, f) in fades.enumerated() { byLabel[SameLabel(f.label), default: []].append(i) }
        var matched = Array(repeating: false, count: fades.count)
        var next: [Memo.Fade] = []
        next.reserveCapacity(shown.count)
        for p in shown {
            var found: Int?
            for i in byLabel[SameLabel(p)] ?? [] where !matched[i] {
                let f = fades[i]
                let q = f.camera == camera ? f.label.anchor : camera.screenPoint(for: f.camera.mapPoint(for: f.label.anchor))
                if SameLabel.near(q, p.anchor) { found = i; break }
            }
            if let i = found {
                matched[i] = true
                let f = fades[i]
                let rising = f.target == 1
                next.append(Memo.Fade(label: p, camera: camera, from: rising ? f.from : f.opacity(at: t, over: seconds),
                                      start: rising ? f.start : t, target: 1))
            } else {
                next.append(Memo.Fade(label: p, camera: camera, from: 0, start: t, target: 1))
            }
        }
        for (i, f) in fades.enumerated() where !matched[i] {
            let o = f.opacity(at: t, over: seconds)
            guard o > 0.001 else { continue }
            next.append(f.target == 0 ? f : Memo.Fade(label: f.label, camera: f.camera, from: o, start: t, target: 0))
        }
        fades = next
    }

    /// `p` placed at `old`, where it is at `new`: its point goes with the map, its text keeps
    /// its size (a label along a line, each letter with its point on the line). Turned, level
    /// text stays level; what turns with the map (letters along a line, map-aligned text and
    /// icons) turns by as much as the map did.
    static func moved(_ p: PlacedLabel, from old: Camera, to new: Camera) -> PlacedLabel {
        var p = p
        let a = new.screenPoint(for: old.mapPoint(for: p.anchor))
        let dx = a.x - p.anchor.x, dy = a.y - p.anchor.y
        // Clockwise on screen: the map turns the other way from the bearing.
        let turn = old.bearing - new.bearing
        p.anchor = a
        func shifted(_ r: ScreenRect, turning: Bool) -> ScreenRect {
            guard turning, turn != 0 else { return ScreenRect(x: r.x + dx, y: r.y + dy, width: r.width, height: r.height) }
            let c = new.screenPoint(for: old.mapPoint(for: ScreenPoint(x: r.x + r.width / 2, y: r.y + r.height / 2)))
            return ScreenRect(x: c.x - r.width / 2, y: c.y - r.height / 2, width: r.width, height: r.height)
        }
        var atPoint = false
        if case .point = p.place.placement { atPoint = true }
        let mapText = atPoint && p.place.alignment.text == .map, mapIcon = atPoint && p.place.icon != nil && p.place.alignment.icon == .map
        p.dot = shifted(p.dot, turning: mapIcon)
        p.text = shifted(p.text, turning: mapText)
        if mapText { p.degrees += turn }
        if mapIcon { p.iconDegrees += turn }
        for i in p.glyphs.indices {
            p.glyphs[i].center = new.screenPoint(for: old.mapPoint(for: p.glyphs[i].center))
            if case .line = p.place.placement, p.place.alignment.text == .map || p.place.name.isEmpty { p.glyphs[i].degrees += turn }
        }
        return p
    }

    static func draw(_ p: PlacedLabel, opacity: Double, sprites: SpriteAvailability, into commands: inout [DrawCommand]) {
        switch p.place.placement {
        case .place:
            commands.append(.sprite(.placeDot(capital: p.place.capital), destination: p.dot, opacity: opacity))
            commands.append(.sprite(p.place.textKey, destination: p.text, opacity: opacity))
        case .point:
            if let icon = p.place.icon {
                commands.append(p.iconDegrees == 0 ? .sprite(icon.key, destination: p.dot, opacity: opacity)
                                                   : .rotatedSprite(icon.key, destination: p.dot, opacity: opacity, degrees: p.iconDegrees))
            }
            if !p.place.name.isEmpty {
                commands.append(p.degrees == 0 ? .sprite(p.place.textKey, destination: p.text, opacity: opacity)
                                               : .rotatedSprite(p.place.textKey, destination: p.text, opacity: opacity, degrees: p.degrees))
            }
        case .line:
            for g in p.glyphs {
                guard let sprite = sprites.size(of: g.key) else { continue }
                // Letters of a size that follows the zoom are drawn magnified from their sprites.
                let size = p.place.name.isEmpty ? sprite : ScreenSize(width: sprite.width * p.scale, height: sprite.height * p.scale)
                let box = ScreenRect(x: g.center.x - size.width / 2, y: g.center.y - size.height / 2, width: size.width, height: size.height)
                commands.append(.rotatedSprite(g.key, destination: box, opacity: opacity, degrees: g.degrees))
            }
        }
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
