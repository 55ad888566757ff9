import FoundationEssentials
import MapGeometry
import Platform

/// What the session asks of its host: what a pure model cannot do itself (windows, files,
/// the clipboard, the network, the desktop) and what the embedder wants to hear of.
public enum SessionEffect: Hashable, Sendable {
    /// Something drawn changed: draw a frame.
    case redraw
    /// The window's close button (or the desktop asked the window to close).
    case quit
    /// Open this file (dropped on the window).
    case open(String)
    /// Keep the measured line (these points) as a track.
    case keepMeasuredLine([Coordinate])
    /// Show the map of this name (the switcher's choice): the host makes its stack of tile
    /// layers and shows it (MapWindow's `showTiles(from:)`), the session then holding it.
    case chooseTiles(String)
    /// The stack of tile layers changed — another map shown, an overlay shown, hidden or
    /// faded — as it is now: what the host keeps of it between runs (Meridian's view.json) is
    /// to be kept again. Said once for what changed between two `takeEffects`, whatever
    /// changed it.
    case tileLayersChanged(TileStackModel)
    /// Open this web page (an http(s) address) in the browser.
    case openLink(String)
    /// Put this text on the clipboard (Ctrl+C), and say so.
    case copy(String)
    /// Cancel the long work under way (Esc while a status shows).
    case cancelWork
    /// The search box opened for the first time: what it searches may be read now.
    case searchOpened
    /// Ask the online geocoder for this (Enter in the search box: never per keystroke), near
    /// this point; the answer goes to `SearchLayer.setOnline`.
    case searchOnline(String, near: Coordinate?)
    /// A one-time hint (by name) was on screen.
    case hintShown(String)
    /// A notice was posted (the host also prints it: started from a terminal, it is read there).
    case notice(String)
    /// A pin was lifted, moved, dropped, added, deleted, renamed or selected.
    case pin(PinEvent)
    /// A request of a layer the core does not know (the app's chrome: save an area offline),
    /// for the embedder that added the layer to carry out.
    case layer(LayerRequest)
}

/// A layer's own request, typed by the layer (as `ButtonID`s are): the embedder finds its own
/// with `as(T.self)`.
public struct LayerRequest: Hashable, @unchecked Sendable { // only built from Sendable values (`init`)
    private let value: AnyHashable
    public init<T: Hashable & Sendable>(_ value: T) { self.value = AnyHashable(value) }
    public func `as`<T>(_ type: T.Type) -> T? { value.base as? T }
}
