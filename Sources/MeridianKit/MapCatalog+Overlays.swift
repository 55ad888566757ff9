import FoundationEssentials
import MapCore
import MapData
import MapGraphics
import MapRender
import MapTiles
import MapWindow
import Platform

/// The overlays offered over any map, as check boxes in the switcher and with `--overlay`:
/// the built-in terrain (hillshading and contour lines with their heights, from the AWS
/// Terrain Tiles) and the sources.json entries with `"overlay": true`. Each is a transparent
/// tile layer over the map; once shown, the session's stack holds which are on and how
/// opaque (`TileStackModel`), and view.json remembers it (`remembered`). Those of a
/// catalogue (`MapCatalog.overlays`): its sources.json's, its tiles.
public struct MapOverlays: Sendable {
    public let catalog: MapCatalog

    public init(catalog: MapCatalog) { self.catalog = catalog }

    /// The built-in terrain overlay's name.
    public static let terrain = "terrain"

    /// An overlay there is: its name (view.json's and `--overlay`'s), what the switcher calls
    /// it, and the opacity it starts at.
    public struct Offer: Sendable {
        public let name: String
        public let title: String
        public let opacity: Double
    }

    /// What is offered: terrain first, then sources.json's.
    public func offered() -> [Offer] {
        // Terrain at 0.6: over a street map, its shadows darken and its highlights pale the map less.
        // TRANSLATORS: an overlay's check box in the map switcher: shading of the relief and contour lines.
        [Offer(name: Self.terrain, title: tr("Terrain: hillshade and contours"), opacity: 0.6)]
            + ((try? catalog.userSources.get()) ?? []).filter(\.isOverlay).map { Offer(name: $0.name, title: $0.title, opacity: $0.overlayOpacity) }
    }

    /// How each overlay offered starts: off at its own opacity, unless `remembered` (by name)
    /// says otherwise, and on where `asked` (`--overlay NAME[@OPACITY]`) names it.
    public func settings(remembered: [ViewState.OverlayState]?, asked: [OverlayRequest] = []) -> [ViewState.OverlayState] {
        offered().map { o in
            var s = remembered?.first { $0.name == o.name } ?? ViewState.OverlayState(name: o.name, on: false, opacity: o.opacity)
            if let a = asked.last(where: { $0.name == o.name }) { s = ViewState.OverlayState(name: o.name, on: true, opacity: a.opacity ?? s.opacity) }
            return s
        }
    }

    /// Each overlay of `started` (those offered, as they started) as `stack` (the session's)
    /// has it, or where it has none (its tiles could not be had) as it started: what a newly
    /// chosen map is laid under, and what is remembered.
    public static func settings(of stack: TileStackModel, otherwise started: [ViewState.OverlayState]) -> [ViewState.OverlayState] {
        started.map { s in
            stack.overlay(s.name).map { ViewState.OverlayState(name: s.name, on: $0.isVisible, opacity: $0.opacity) } ?? s
        }
    }

    /// What view.json keeps of `settings`: those on or not wholly opaque (nil: none).
    public static func remembered(_ settings: [ViewState.OverlayState]) -> [ViewState.OverlayState]? {
        let kept = settings.filter { $0.on || $0.opacity != 1 }
        return kept.isEmpty ? nil : kept
    }

    /// The tile layers of the overlays `settings` names, in the order they are offered, each
    /// as it says; an overlay whose source cannot be had is left out and said in `problems`
    /// when it is to be on.
    public func layers(_ settings: [ViewState.OverlayState], pixelRatio: Double, problems: inout [String]) -> [TileLayerSource] {
        offered().compactMap { o in
            guard let s = settings.first(where: { $0.name == o.name }) else { return nil }
            do { return try layer(o, on: s.on, opacity: s.opacity, pixelRatio: pixelRatio) } catch {
                // TRANSLATORS: %1$@ is an overlay's title ("Terrain: hillshade and contours"), %2$@ what went wrong.
                if s.on { problems.append(tr("Cannot lay %1$@ over the map: %2$@", o.title, error)) }
                return nil
            }
        }
    }

    /// The tile layer of the overlay `o`, shown or not (`on`), at `opacity`.
    public func layer(_ o: Offer, on: Bool, opacity: Double, pixelRatio: Double) throws -> TileLayerSource {
        if o.name == Self.terrain {
            return .overlay(try catalog.terrain(over: OnlineSource.terrainDEM.name), name: Self.terrain, title: o.title, opacity: opacity, visible: on)
        }
        let source = try catalog.source(o.name, pixelRatio: pixelRatio)
        if source is TerrainSource { return .overlay(source, name: o.name, title: o.title, opacity: opacity, visible: on) }
        var painter = VectorTilePainter()
        if let online = try catalog.online(o.name), online.kind == .vector {
            // Drawn in the basemap's look it would cover the map: a vector overlay needs its style.
            guard let style = online.style, !style.hasPrefix("http") else {
                // TRANSLATORS: "style" is the name of a sources.json entry's field.
                throw TileSourceError(tr("a vector overlay needs a \"style\" file that draws it transparent"))
            }
            let choice = StyleChoice(path: style)
            painter = VectorTilePainter(mapStyle: try catalog.styles.style(for: choice), sprites: catalog.styles.sheet(for: choice))
        }
        return .overlay(catalog.backedBySavedAreas(source, name: o.name), name: o.name, title: o.title, opacity: opacity, visible: on, painter: painter)
    }
}

/// `--overlay NAME` or `NAME@OPACITY` (within `TileLayerSpec.opacityRange`, 0.05…1).
public struct OverlayRequest: Sendable {
    public let name: String
    public let opacity: Double?

    public init?(argument: String) {
        let parts = argument.split(separator: "@", maxSplits: 1).map(String.init)
        guard let first = parts.first, !first.isEmpty else { return nil }
        name = first
        if parts.count == 2 {
            guard let o = Double(parts[1]), o.isFinite, TileLayerSpec.opacityRange.contains(o) else { return nil }
            opacity = o
        } else {
            opacity = nil
        }
    }
}
