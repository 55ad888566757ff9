import CSDL2
import FoundationEssentials
import MapCore
import Platform

/// The session's effects, carried out on the frame thread: the window's own here (closing,
/// the clipboard, the keyboard's text), the rest handed to the embedder.
extension MapHost {
    /// Does `effects`; true when the picture may have changed.
    func carryOut(_ effects: [SessionEffect]) -> Bool {
        var changed = false
        for effect in effects {
            switch effect {
            case .redraw: changed = true
            case .quit: requestQuit()
            case let .copy(text):
                // TRANSLATORS: %@ is what was copied to the clipboard (coordinates).
                if SDL_SetClipboardText(text) == 0 { showNotice(tr("Copied %@", text)) }
                // TRANSLATORS: %@ is why the clipboard refused it.
                else { showNotice(tr("Cannot copy: %@", String(cString: SDL_GetError()))) }
            case let .notice(text): onMessage(text); changed = true
            case .cancelWork: changed = activities.cancelAll() || changed
            case let .pin(e):
                if configuration.logFrames { FileIO.printError("pin \(e)") }
                onEffect(effect)
            default: onEffect(effect)
            }
        }
        // The keyboard's text goes to what is being typed in, and only then (SDL starts with
        // it on, and an input method would take keys meant for the map).
        let typing = session.wantsText
        if typing != textInputOn {
            textInputOn = typing
            if typing { SDL_StartTextInput(); keysBeforeTyping.noteQueued() } else { SDL_StopTextInput(); keysBeforeTyping.forget() }
        }
        return changed
    }
}
