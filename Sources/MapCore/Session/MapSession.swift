import FoundationEssentials
import MapGeometry
import Platform

/// The one owner of the map: the camera (its controller's), the scene's layers (the pins are
/// their layer's), following, notices, the keyboard's focus and the live position. Input goes
/// in (`handle`), fixes go in (`receive`), frames come out (`frame`), and what only a host can
/// do comes out as effects. Pure: no window, no I/O,
/// time given with every call; the window and `meridian render` both draw from it.
public struct MapSession {
    /// The camera and its gestures: the bottom of the input stack.
    public var controller: MapController
    /// The base map's settings and the layers, in paint order.
    public var scene: Scene
    /// What long work under way says (the host's activities); nil for none.
    public var status: String?
    /// How the map's tiles are coming (the host's loader).
    public var tileStatus = TileStatus.ready
    /// The live position's settings and bookkeeping.
    public var position = PositionState()
    /// Messages for the user, shown one at a time at the top until clicked away.
    public private(set) var notices: [String] = []
    /// The button the keyboard's focus is on (Tab).
    public internal(set) var focused: ButtonID?
    /// Where the pointer was last over the map (nil: it left the window).
    public internal(set) var pointer: ScreenPoint?
    /// The last frame: where its buttons, notice and callout were (clicks on them are theirs).
    public internal(set) var lastFrame = DrawList()
    /// Effects not yet taken by the host (`takeEffects`).
    var pending: [SessionEffect] = []
    /// The button a press began on, until the release (the button takes the gesture).
    var pressedButton: ButtonID?
    /// One-time hints already reported.
    var hintsReported = Set<String>()
    /// The stack of tile layers as the host last heard of it (`SessionEffect.tileLayersChanged`).
    var reportedTileStack: TileStackModel

    /// The session of `scene` seen through `camera`.
    public init(scene: Scene, camera: Camera) {
        self.scene = scene
        controller = MapController(camera: camera)
        reportedTileStack = scene.tileStack
    }

    /// Where the map is seen from: the controller's, the one camera every frame is composed with.
    public var camera: Camera { controller.camera }

    /// Miles and feet rather than kilometres and metres (key U).
    public var imperialUnits: Bool {
        get { controller.imperialUnits }
        set { controller.imperialUnits = newValue }
    }

    /// The pins on the map, in paint order (set: a new set, with no undo history). Their one
    /// owner is the scene's `PinsLayer`.
    public var pins: [Pin] {
        get { scene.pins.pins }
        set { scene.pins = PinEditor(pins: newValue) }
    }

    /// Changes the pins' layer (when the scene has one).
    mutating func changePins<R>(_ body: (inout PinsLayer) -> R) -> R? {
        guard let i = scene.index(of: PinsLayer.self) else { return nil }
        return scene.change(at: i, as: PinsLayer.self, body)
    }

    /// What the layers read of the session this frame.
    public var facts: SessionFacts {
        var f = SessionFacts()
        f.following = controller.following
        f.headingUp = controller.followMode == .headingUp
        f.hasLocation = scene.location != nil
        f.location = scene.location?.latest
        if let pins = scene.layer(PinsLayer.self)?.pins, let id = pins.selected, pins.renameText == nil { f.selectedPin = pins.pin(id) }
        f.imperialUnits = controller.imperialUnits
        // TRANSLATORS: a notice (%2$@) and how many more wait behind it (%1$d).
        f.notice = notices.first.map { notices.count > 1 ? trn("%2$@  (%1$d more)", "%2$@  (%1$d more)", notices.count - 1, $0) : $0 }
        f.status = status
        f.tiles = tileStatus
        f.tileStack = scene.tileStack
        return f
    }

    /// Shows `message` at the top until the user clicks it away.
    public mutating func post(notice message: String) {
        notices.append(message)
        pending.append(.notice(message))
    }

    mutating func dismissNotice() {
        if !notices.isEmpty { notices.removeFirst() }
        lastFrame.noticeFrame = nil
    }

    /// The effects since the last call, in order. What happened to the pins is drawn; a
    /// changed stack of tile layers is said once, as it is now.
    public mutating func takeEffects() -> [SessionEffect] {
        if let events = changePins({ $0.takeEvents() }), !events.isEmpty {
            pending += events.map(SessionEffect.pin)
            pending.append(.redraw)
        }
        if scene.tileStack != reportedTileStack {
            reportedTileStack = scene.tileStack
            pending += [.tileLayersChanged(reportedTileStack), .redraw]
        }
        defer { pending.removeAll() }
        return pending
    }

    /// The keyboard's text is wanted: a pin's title or a box being typed in.
    public var wantsText: Bool { scene.layers.contains { $0.wantsText } }

    /// Something moves by itself at `t` (camera, pins): frames must go on.
    public func isAnimating(at t: Double) -> Bool {
        controller.isAnimating(at: t) || scene.layer(PinsLayer.self)?.isAnimating(at: t) == true
    }

    /// Advances the camera's animations and the pins' gestures to `t` (a pin carried near an
    /// edge pans the camera).
    mutating func advance(to t: Double) {
        controller.advance(to: t)
        var camera = controller.camera
        changePins { $0.advance(to: t, camera: &camera) }
        if camera != controller.camera { controller.camera = camera }
    }

    /// The layers' tile content, in paint order (what the tile pipeline follows).
    public var tileOverlays: TileOverlays { TileOverlays(scene.layers.compactMap(\.tileContent)) }

    /// The window's size or density changed.
    public mutating func resize(to size: ScreenSize, pixelRatio: Double) {
        controller.resize(to: size, pixelRatio: pixelRatio)
    }

    /// Shows `rect` (what was just opened): a flight there, or a jump when `animated` is false.
    public mutating func show(_ rect: MapRect, animated: Bool, at t: Double) {
        controller.show(rect, animated: animated, at: t)
    }

    /// Composes the frame at `t` from the tiles and sprites at hand, and keeps what it drew
    /// for the input that follows.
    public mutating func frame(at t: Double, tiles: TileAvailability, sprites: SpriteAvailability = NoSprites()) -> DrawList {
        frame(at: t, layers: scene.mapOnly(tiles), sprites: sprites)
    }

    /// `layers`: what each of the scene's tile layers has ready, by index.
    public mutating func frame(at t: Double, layers: [TileAvailability], sprites: SpriteAvailability = NoSprites()) -> DrawList {
        advance(to: t)
        checkStaleness(at: t)
        controller.follow(scene.location?.point(at: t), at: t)
        var list = scene.compose(at: t, camera: controller.camera, layers: layers, sprites: sprites, facts: facts)
        drawFocus(into: &list)
        lastFrame = list
        for hint in list.shownHints where hintsReported.insert(hint).inserted { pending.append(.hintShown(hint)) }
        return list
    }

    /// The window is closing: a pin on its way down lands, one in the air goes back.
    public mutating func finish(at t: Double) {
        changePins { $0.finishGestures(at: t) }
    }

    /// The ring around the button in focus, drawn over everything.
    private func drawFocus(into list: inout DrawList) {
        guard let id = focused, let b = list.buttons.last(where: { $0.id == id })?.frame else { return }
        let ring = b.outset(3), ink = Color(hex: 0x1F5FD6)
        list.commands += [
            .fillRect(ScreenRect(x: ring.x, y: ring.y, width: ring.width, height: 2), ink),
            .fillRect(ScreenRect(x: ring.x, y: ring.maxY - 2, width: ring.width, height: 2), ink),
            .fillRect(ScreenRect(x: ring.x, y: ring.y, width: 2, height: ring.height), ink),
            .fillRect(ScreenRect(x: ring.maxX - 2, y: ring.y, width: 2, height: ring.height), ink),
        ]
    }
}
