import FoundationEssentials
import MapCore
import MapGeometry

/// The on-screen buttons from the keyboard: Tab (Shift+Tab) moves a focus ring through the
/// buttons the last frame drew, in the order drawn; Enter or Space presses the one in focus;
/// Esc, or any other key, lets go of it.
extension MapHost {
    /// Buttons worth a stop: controls, not every row of a list or pin on the map.
    private var focusable: [(frame: ScreenRect, name: String)] {
        lastFrame.buttons.filter { b in
            ["sources.toggle", "search.open", "zoom.in", "zoom.out", "help.toggle", "locate"].contains(b.name)
        }
    }

    func moveFocus(forward: Bool) {
        let names = focusable.map(\.name)
        guard !names.isEmpty else { focusedButton = nil; return }
        let i = focusedButton.flatMap { names.firstIndex(of: $0) }
        focusedButton = names[((i ?? (forward ? -1 : 0)) + (forward ? 1 : names.count - 1)) % names.count]
    }

    /// Keys while a button has the focus; nil for what it leaves to the map.
    func focusInput(_ input: InputEvent) -> Bool? {
        guard let name = focusedButton, case let .keyDown(key, _) = input else { return nil }
        switch key {
        case .enter, .space:
            if let result = state.press(name) { apply(result) }
            return true
        case .tab: return nil
        default:
            focusedButton = nil
            return key == .escape ? true : nil
        }
    }

    /// The ring around the button in focus, drawn over everything.
    func drawFocus(into list: inout DrawList) {
        guard let name = focusedButton, let b = list.buttons.last(where: { $0.name == name })?.frame else { return }
        let ring = b.outset(3), ink = Color(hex: 0x1F5FD6)
        list.commands += [
            .fillRect(ScreenRect(x: ring.x, y: ring.y, width: ring.width, height: 2), ink),
            .fillRect(ScreenRect(x: ring.x, y: ring.maxY - 2, width: ring.width, height: 2), ink),
            .fillRect(ScreenRect(x: ring.x, y: ring.y, width: 2, height: ring.height), ink),
            .fillRect(ScreenRect(x: ring.maxX - 2, y: ring.y, width: 2, height: ring.height), ink),
        ]
    }
}
