import CSDL2
import FoundationEssentials
import Glibc
import MapCore
import Platform

/// What the frame loop must do about an SDL event besides passing input on.
enum WindowChange {
    case resized
    case hidden
    case shown
    case exposed
    case wake
}

/// Turns SDL events into the map's `InputEvent`s (logical points, no SDL types).
struct EventTranslator {
    let wakeEventType: UInt32
    private let heldAtFocus = KeysHeldAtFocus()

    func translate(_ e: inout SDL_Event) -> (input: InputEvent?, change: WindowChange?) {
        if e.type != SDL_KEYDOWN.rawValue && e.type != SDL_TEXTINPUT.rawValue { heldAtFocus.sawOther() }
        switch SDL_EventType(e.type) {
        case SDL_QUIT:
            return (.quitRequested, nil)
        case SDL_MOUSEBUTTONDOWN:
            let b = e.button
            return (.pointerDown(button(b.button), ScreenPoint(x: Double(b.x), y: Double(b.y)),
                                 clicks: Int(b.clicks), modifiers()), nil)
        case SDL_MOUSEBUTTONUP:
            let b = e.button
            return (.pointerUp(button(b.button), ScreenPoint(x: Double(b.x), y: Double(b.y))), nil)
        case SDL_MOUSEMOTION:
            return (.pointerMoved(ScreenPoint(x: Double(e.motion.x), y: Double(e.motion.y))), nil)
        case SDL_MOUSEWHEEL:
            let w = e.wheel
            let flip: Float = w.direction == SDL_MOUSEWHEEL_FLIPPED.rawValue ? -1 : 1
            let dy = Double(w.preciseY * flip)
            guard dy != 0 else { return (nil, nil) }
            // Notched wheels send whole steps; touchpads send fractions.
            let precise = dy.rounded() != dy
            return (.wheel(dy: dy, precise: precise, at: ScreenPoint(x: Double(w.mouseX), y: Double(w.mouseY))), nil)
        case SDL_KEYDOWN:
            if heldAtFocus.dropsKeyDown() { return (nil, nil) }
            guard let k = key(e.key.keysym.sym) else { return (nil, nil) }
            // The modifiers as they were when this key went down: events are pumped a frame at
            // a time, and by the time `q` is read Ctrl may already be up again.
            return (.keyDown(k, modifiers(UInt32(e.key.keysym.mod))), nil)
        case SDL_MULTIGESTURE:
            // Two fingers or more turning (SDL measures with y down: a positive dTheta is
            // clockwise on the screen).
            let g = e.mgesture
            guard g.numFingers >= 2, g.dTheta.isFinite, g.dTheta != 0 else { return (nil, nil) }
            return (.rotate(degrees: Double(g.dTheta) * 180 / .pi), nil)
        case SDL_FINGERUP:
            return (.rotateEnded, nil)
        case SDL_DROPFILE:
            // SDL hands over the string; it is ours to free.
            guard let file = e.drop.file else { return (nil, nil) }
            defer { SDL_free(file) }
            return (.fileDropped(String(cString: file)), nil)
        case SDL_TEXTINPUT:
            if heldAtFocus.dropsText() { return (nil, nil) }
            let text = withUnsafeBytes(of: e.text.text) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            return (text.isEmpty ? nil : .text(text), nil)
        case SDL_WINDOWEVENT:
            switch SDL_WindowEventID(UInt32(e.window.event)) {
            case SDL_WINDOWEVENT_SIZE_CHANGED, SDL_WINDOWEVENT_RESIZED: return (nil, .resized)
            case SDL_WINDOWEVENT_HIDDEN, SDL_WINDOWEVENT_MINIMIZED: return (nil, .hidden)
            case SDL_WINDOWEVENT_SHOWN, SDL_WINDOWEVENT_RESTORED, SDL_WINDOWEVENT_MAXIMIZED: return (nil, .shown)
            case SDL_WINDOWEVENT_EXPOSED: return (nil, .exposed)
            case SDL_WINDOWEVENT_FOCUS_GAINED:
                heldAtFocus.focusGained(windowID: e.window.windowID)
                return (nil, nil)
            case SDL_WINDOWEVENT_FOCUS_LOST:
                heldAtFocus.focusLost()
                return (.focusLost, nil)
            case SDL_WINDOWEVENT_LEAVE: return (.pointerLeft, nil)
            case SDL_WINDOWEVENT_CLOSE: return (.quitRequested, nil)
            default: return (nil, nil)
            }
        case SDL_SYSWMEVENT:
            heldAtFocus.saw(e.syswm.msg)
            return (nil, nil)
        default:
            if e.type == wakeEventType { return (nil, .wake) }
            return (nil, nil)
        }
    }

    private func button(_ b: UInt8) -> MouseButton {
        switch Int32(b) {
        case SDL_BUTTON_LEFT: return .left
        case SDL_BUTTON_MIDDLE: return .middle
        case SDL_BUTTON_RIGHT: return .right
        default: return .other
        }
    }

    /// Modifier flags from a key event, or the current state for mouse events (which carry none).
    private func modifiers(_ state: UInt32 = SDL_GetModState().rawValue) -> KeyModifiers {
        let m = state
        var out: KeyModifiers = []
        if m & KMOD_SHIFT.rawValue != 0 { out.insert(.shift) }
        if m & KMOD_CTRL.rawValue != 0 { out.insert(.control) }
        if m & KMOD_ALT.rawValue != 0 { out.insert(.alt) }
        if m & KMOD_GUI.rawValue != 0 { out.insert(.gui) }
        return out
    }

    private func key(_ sym: SDL_Keycode) -> Key? {
        switch Int(sym) {
        case Int(SDLK_LEFT.rawValue): return .left
        case Int(SDLK_RIGHT.rawValue): return .right
        case Int(SDLK_UP.rawValue): return .up
        case Int(SDLK_DOWN.rawValue): return .down
        case Int(SDLK_PLUS.rawValue), Int(SDLK_EQUALS.rawValue), Int(SDLK_KP_PLUS.rawValue): return .plus
        case Int(SDLK_MINUS.rawValue), Int(SDLK_KP_MINUS.rawValue): return .minus
        case Int(SDLK_ESCAPE.rawValue): return .escape
        case Int(SDLK_DELETE.rawValue): return .delete
        case Int(SDLK_F1.rawValue): return .f1
        case Int(SDLK_F2.rawValue): return .f2
        case Int(SDLK_F11.rawValue): return .f11
        case Int(SDLK_RETURN.rawValue), Int(SDLK_KP_ENTER.rawValue): return .enter
        case Int(SDLK_BACKSPACE.rawValue): return .backspace
        case Int(SDLK_TAB.rawValue): return .tab
        case Int(SDLK_SPACE.rawValue): return .space
        case 97...122, 48...57, 47: return .letter(Character(UnicodeScalar(UInt8(sym))))
        default: return nil
        }
    }
}
