import FoundationEssentials
import MapChrome
import MapCore
import MapData
import MapGraphics
import MapTiles
import MapWindow
import Platform

/// The overlays offered over any map, as check boxes in the switcher and with `--overlay`:
/// the built-in terrain (hillshading and contour lines with their heights, from the AWS
/// Terrain Tiles) and the sources.json entries with `"overlay": true`. Each is a transparent
/// tile layer over the map; which are on, and how opaque, is remembered with the view.
public enum MapOverlays {
    /// The built-in terrain overlay's name.
    public static let terrain = "terrain"

    /// What is offered, off, at each one's own opacity: terrain first, then sources.json's.
    public static func offered() -> [SourcesLayer.Overlay] {
        // Terrain at 0.6: over a street map, its shadows darken and its highlights pale the map less.
        // TRANSLATORS: an overlay's check box in the map switcher: shading of the relief and contour lines.
        [SourcesLayer.Overlay(name: terrain, title: tr("Terrain: hillshade and contours"), opacity: 0.6)]
            + ((try? MapCatalog.userSources.get()) ?? []).filter(\.isOverlay).map {
                SourcesLayer.Overlay(name: $0.name, title: $0.title, opacity: $0.overlayOpacity)
            }
    }

    /// The overlays offered, as `remembered` (by name; ones no longer offered are dropped)
    /// and then `asked` (`--overlay NAME[@OPACITY]`, which turns them on) say.
    public static func settings(remembered: [ViewState.OverlayState]?, asked: [OverlayRequest] = []) -> [SourcesLayer.Overlay] {
        offered().map { o in
            var o = o
            if let r = remembered?.first(where: { $0.name == o.name }) { o = SourcesLayer.Overlay(name: o.name, title: o.title, on: r.on, opacity: r.opacity) }
            if let a = asked.last(where: { $0.name == o.name }) { o = SourcesLayer.Overlay(name: o.name, title: o.title, on: true, opacity: a.opacity ?? o.opacity) }
            return o
        }
    }

    /// What to remember of `settings`.
    public static func remembered(_ settings: [SourcesLayer.Overlay]) -> [ViewState.OverlayState]? {
        let kept = settings.filter { $0.on || $0.opacity != 1 }
        return kept.isEmpty ? nil : kept.map { ViewState.OverlayState(name: $0.name, on: $0.on, opacity: $0.opacity) }
    }

    /// The tile layers of `settings`, in order; an overlay whose source cannot be had is
    /// left out and said in `problems`.
    public static func layers(_ settings: [SourcesLayer.Overlay], pixelRatio: Double, problems: inout [String]) -> [TileLayerSource] {
        settings.compactMap { o in
            do { return try layer(o, pixelRatio: pixelRatio) } catch {
                // TRANSLATORS: %1$@ is an overlay's title ("Terrain: hillshade and contours"), %2$@ what went wrong.
                if o.on { problems.append(tr("Cannot lay %1$@ over the map: %2$@", o.title, error)) }
                return nil
            }
        }
    }

    public static func layer(_ o: SourcesLayer.Overlay, pixelRatio: Double) throws -> TileLayerSource {
        if o.name == terrain {
            return .overlay(try MapCatalog.terrain(over: OnlineSource.terrainDEM.name), name: terrain, opacity: o.opacity, visible: o.on)
        }
        let source = try MapCatalog.source(o.name, pixelRatio: pixelRatio)
        if source is TerrainSource { return .overlay(source, name: o.name, opacity: o.opacity, visible: o.on) }
        var painter = VectorTilePainter()
        if let online = try MapCatalog.online(o.name), online.kind == .vector {
            // Drawn in the basemap's look it would cover the map: a vector overlay needs its style.
            guard let style = online.style, !style.hasPrefix("http") else {
                // TRANSLATORS: "style" is the name of a sources.json entry's field.
                throw TileSourceError(tr("a vector overlay needs a \"style\" file that draws it transparent"))
            }
            let choice = StyleChoice(path: style)
            painter = VectorTilePainter(mapStyle: try choice.style(), sprites: MapStyles.shared.sheet(for: choice))
        }
        return .overlay(MapCatalog.backedBySavedAreas(source, name: o.name), name: o.name, opacity: o.opacity, visible: o.on, painter: painter)
    }
}

/// `--overlay NAME` or `NAME@OPACITY` (0.05…1).
public struct OverlayRequest: Sendable {
    public let name: String
    public let opacity: Double?

    public init?(argument: String) {
        let parts = argument.split(separator: "@", maxSplits: 1).map(String.init)
        guard let first = parts.first, !first.isEmpty else { return nil }
        name = first
        if parts.count == 2 {
            guard let o = Double(parts[1]), o.isFinite, (0.05...1).contains(o) else { return nil }
            opacity = o
        } else {
            opacity = nil
        }
    }
}
