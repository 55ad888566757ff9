import CSDL2
import Platform

/// Key presses already in SDL's queue when a text box opened: SDL made them into text only if
/// its text input was on when they were read from the display, and it is turned on just as a
/// box opens (an input method would otherwise take keys meant for the map). A key typed right
/// after Ctrl+F, in the same frame, would be lost; these are given to the box as their text.
struct KeysBeforeTyping {
    private struct Stamp: Hashable { var time: UInt32; var scancode: UInt32 }
    private var queued = Set<Stamp>()

    /// Notes the key presses waiting in SDL's queue (text input has just been turned on).
    mutating func noteQueued() {
        var events = [SDL_Event](repeating: SDL_Event(), count: 64)
        let n = SDL_PeepEvents(&events, Int32(events.count), SDL_PEEKEVENT, SDL_KEYDOWN.rawValue, SDL_KEYDOWN.rawValue)
        queued = Set(events.prefix(max(0, Int(n))).map { Stamp(time: $0.key.timestamp, scancode: $0.key.keysym.scancode.rawValue) })
    }

    mutating func forget() { queued.removeAll() }

    /// The text of `event` if it is a key press noted before typing began: a letter (upper
    /// case with Shift or Caps Lock) or, unshifted, a digit, space or sign of the layout; nil
    /// for anything else (a shifted sign's character is the layout's secret).
    mutating func text(of event: SDL_Event) -> String? {
        guard event.type == SDL_KEYDOWN.rawValue, !queued.isEmpty,
              queued.remove(Stamp(time: event.key.timestamp, scancode: event.key.keysym.scancode.rawValue)) != nil else { return nil }
        let mod = UInt32(event.key.keysym.mod)
        guard mod & UInt32(KMOD_CTRL.rawValue | KMOD_ALT.rawValue | KMOD_GUI.rawValue) == 0,
              let scalar = Unicode.Scalar(UInt32(bitPattern: event.key.keysym.sym)), scalar.value >= 0x20, scalar.value != 0x7F,
              scalar.value < 0x4000_0000 else { return nil }
        let shifted = mod & UInt32(KMOD_SHIFT.rawValue) != 0, caps = mod & UInt32(KMOD_CAPS.rawValue) != 0
        let c = String(Character(scalar))
        if scalar.properties.isLowercase { return shifted != caps ? c.uppercased() : c }
        return shifted ? nil : c
    }
}
