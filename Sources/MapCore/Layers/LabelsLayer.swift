import FoundationEssentials
import MapGeometry

/// Place names from the tiles on screen, placed in screen space by priority, keeping clear of
/// the chrome and of what overlays draw above them. Part of the base map.
public struct LabelsLayer: MapLayer {
    public var placer = LabelPlacer()

    public init() {}

    public var levels: [LayerLevel] { [.base] }

    public func compose(at level: LayerLevel, into list: inout DrawList, context: LayerContext) {
        var candidates: [PlaceLabel] = []
        var used = Set<TileID>()
        for t in context.shownTiles where used.insert(t).inserted { candidates += context.tiles.places(in: t) }
        if let under = context.under {
            used.removeAll()
            for t in context.underShownTiles where used.insert(t).inserted { candidates += under.places(in: t) }
        }
        guard !candidates.isEmpty else { return }
        let sprites = context.sprites
        let placed = placer.place(candidates, camera: context.camera, sprites: sprites, reserved: context.labelExclusions)
        var wanted: [SpriteKey] = [], asked = Set<SpriteKey>()
        for p in placed {
            let dot = SpriteKey.placeDot(capital: p.place.capital), text = p.place.textKey
            guard p.ready, sprites.size(of: dot) != nil else {
                // Winners whose sprites are missing are rasterized for a later frame.
                for k in [dot, text] where sprites.size(of: k) == nil && asked.insert(k).inserted { wanted.append(k) }
                continue
            }
            list.commands.append(.sprite(dot, destination: p.dot, opacity: 1))
            list.commands.append(.sprite(text, destination: p.text, opacity: 1))
            list.placedLabels.append(p)
        }
        list.wantedSprites += wanted
    }
}
