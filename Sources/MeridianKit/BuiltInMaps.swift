import FoundationEssentials
import MapGraphics
import MapRender
import MapTiles
import MapWindow
import Platform

/// The maps that come with MeridianKit, ready to show (`MapView`).
public enum BuiltInMaps {
    /// The embedded world basemap: offline, from the whole world down to towns (zoom 0–8,
    /// drawn up to street zooms), in the basemap's own look.
    public static func basemap() throws -> TileStack {
        TileStack(map: try basemapSource(), background: BasemapStyle.standard.water).naming(map: MapCatalog.basemap)
    }

    /// The basemap's tiles (vector, in the basemap's own schema).
    public static func basemapSource() throws -> MBTilesSource {
        guard let url = Resources.url("basemap.mbtiles") else {
            // TRANSLATORS: %@ is a list of folders.
            throw TileSourceError(tr("the embedded basemap is missing (looked in: %@)", Resources.candidates("basemap.mbtiles").map(\.path).joined(separator: ", ")))
        }
        return try MBTilesSource(path: url.path)
    }
}
