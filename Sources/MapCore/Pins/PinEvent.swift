import FoundationEssentials
import Glibc
import MapGeometry
import Platform

/// What happened to the pins, as an embedding app hears it (MapKit's delegate calls): every
/// drag-state change, selection, and every change to the collection.
public enum PinEvent: Hashable, Sendable {
    case dragStateChanged(pin: String, PinDragState)
    case selected(pin: String?)
    case added(Pin)
    case moved(Pin, from: Coordinate)
    case deleted(Pin)
    case renamed(Pin, from: String)

    /// True for the events after which the pins must be saved.
    public var changesPins: Bool {
        switch self {
        case .added, .moved, .deleted, .renamed: return true
        case .dragStateChanged, .selected: return false
        }
    }
}

/// One undoable change to the pins.
public enum PinEdit: Hashable, Sendable {
    case add(Pin)
    case delete(Pin)
    case move(pin: String, from: Coordinate, to: Coordinate)
    case rename(pin: String, from: String, to: String)

    /// The edit that takes this one back.
    public var inverse: PinEdit {
        switch self {
        case let .add(p): return .delete(p)
        case let .delete(p): return .add(p)
        case let .move(id, from, to): return .move(pin: id, from: to, to: from)
        case let .rename(id, from, to): return .rename(pin: id, from: to, to: from)
        }
    }
}

/// Undo and redo stacks. A new edit forgets what could have been redone.
public struct PinHistory: Sendable {
    public private(set) var undoStack: [PinEdit] = []
    public private(set) var redoStack: [PinEdit] = []
    /// Older edits are forgotten beyond this many.
    public static let limit = 1000

    public init() {}

    public mutating func record(_ edit: PinEdit) {
        undoStack.append(edit)
        if undoStack.count > Self.limit { undoStack.removeFirst(undoStack.count - Self.limit) }
        redoStack.removeAll()
    }

    /// The edit to apply to undo the last one (its inverse), moving it to the redo stack.
    public mutating func undo() -> PinEdit? {
        guard let e = undoStack.popLast() else { return nil }
        redoStack.append(e)
        return e.inverse
    }

    /// The edit to apply again, moving it back to the undo stack.
    public mutating func redo() -> PinEdit? {
        guard let e = redoStack.popLast() else { return nil }
        undoStack.append(e)
        return e
    }
}
