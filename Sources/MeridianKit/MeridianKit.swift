// MeridianKit: the map of Meridian, for an app of one's own. One import brings the map's
// geometry, its session and layers, the app's chrome (buttons, search, help), tiles and
// styles, tracks and positions, what renders the map (off screen and on paper too), and the
// SDL window that shows it all.
@_exported import MapChrome
@_exported import MapCore
@_exported import MapData
@_exported import MapGeometry
@_exported import MapGraphics
@_exported import MapNetwork
@_exported import MapPosition
@_exported import MapRender
@_exported import MapRouting
@_exported import MapSearch
@_exported import MapStyle
@_exported import MapTiles
@_exported import MapWindow
import Platform
