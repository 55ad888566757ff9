import CSDL2
import FoundationEssentials
import Platform

/// Keys that were already down when the window got the keyboard, so that they do nothing in
/// it: a Ctrl+Q still held from the last window's quit must not quit this one.
///
/// On X11, SDL 2.26 marks only the modifiers as held when the window gains focus
/// (X11_ReconcileKeyboardState); the X server's autorepeat of a letter held since before then
/// reaches SDL as a fresh key-down, Ctrl already set. So at focus the X keymap says which keys
/// are down, and while any of them is, SDL hands over the raw X key events (SDL_SYSWMEVENT,
/// each queued just before the SDL events made from it): a press of a held key drops the
/// key-down and text SDL makes from it; its release ends its hold. Wayland compositors do not
/// repeat keys for clients, so only X11 needs this.
final class KeysHeldAtFocus {
    /// X keycodes down at focus and not released since.
    private var held: Set<UInt8> = []
    private var dropKeyDown = false
    private var dropText = false

    /// The window `windowID` got the keyboard: notes what is down now.
    func focusGained(windowID: UInt32) {
        held = []
        guard let window = SDL_GetWindowFromID(windowID) else { return }
        var info = SDL_SysWMinfo()
        SDL_GetVersion(&info.version)
        guard SDL_GetWindowWMInfo(window, &info) == SDL_TRUE, info.subsystem == SDL_SYSWM_X11,
              let display = info.info.x11.display else { return }
        var keys = [CChar](repeating: 0, count: 32)
        XQueryKeymap(display, &keys)
        for code in 8..<256 where UInt8(bitPattern: keys[code / 8]) & (1 << (code % 8)) != 0 { held.insert(UInt8(code)) }
        watch(!held.isEmpty)
    }

    func focusLost() {
        held = []
        watch(false)
    }

    /// A raw window-system event (only while keys are held).
    func saw(_ message: UnsafeMutablePointer<SDL_SysWMmsg>?) {
        guard let m = message?.pointee, m.subsystem == SDL_SYSWM_X11 else { return }
        let event = m.msg.x11.event
        guard event.type == KeyPress || event.type == KeyRelease, event.xkey.keycode < 256 else { return }
        let code = UInt8(event.xkey.keycode)
        guard held.contains(code) else { return }
        if event.type == KeyPress {
            dropKeyDown = true
        } else {
            held.remove(code)
            if held.isEmpty { watch(false) }
        }
    }

    /// Whether this key-down comes from a key held since before focus.
    func dropsKeyDown() -> Bool {
        defer { dropKeyDown = false }
        dropText = dropKeyDown
        return dropKeyDown
    }

    /// Whether this text comes from a dropped key-down (it follows it at once).
    func dropsText() -> Bool {
        defer { dropText = false }
        return dropText
    }

    /// Any other event: the text of a dropped key-down would have come before it.
    func sawOther() { dropText = false }

    private func watch(_ on: Bool) {
        _ = SDL_EventState(SDL_SYSWMEVENT.rawValue, on ? SDL_ENABLE : SDL_DISABLE)
    }
}
