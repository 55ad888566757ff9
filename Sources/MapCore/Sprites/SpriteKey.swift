import FoundationEssentials
import Glibc
import Platform

/// What a layer wants rasterized once and then placed by the compositor: a hashable
/// description that its painter (registered in MapGraphics' `SpritePainters`) can draw.
/// Each layer brings its own spec type, so a new kind of content adds no case anywhere else.
public protocol SpriteSpec: Hashable, Sendable {}

/// Any layer's sprite spec, the key of the sprite atlas. The spec is kept in a box made once,
/// when the key is: a frame copies its draw list's keys hundreds of times (a retain each, where
/// a spec inside the key was copied through its type's value witnesses) and compares them
/// with the atlas's (the same box: one pointer; another box: the hash, then the spec's own
/// `==`, the kinds told apart by the boxes' classes, without a dynamic cast).
public struct SpriteKey: Hashable, Sendable, CustomStringConvertible {
    private let box: SpecBox

    public init<S: SpriteSpec>(_ spec: S) {
        box = TypedSpecBox(spec)
    }

    /// The kind of sprite: its spec's type (what its painter is registered by).
    public var kind: ObjectIdentifier { box.kind }

    /// The spec, when it is of the given kind.
    public func spec<S: SpriteSpec>(as type: S.Type) -> S? { (box as? TypedSpecBox<S>)?.spec }

    public static func == (a: SpriteKey, b: SpriteKey) -> Bool {
        a.box === b.box || (a.box.hash == b.box.hash && a.box.isEqual(to: b.box))
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(box.hash) }

    public var description: String { box.description }

    /// Raster radius (points) for a circle drawn up to `radius` points: the next power of two,
    /// so that a circle is scaled down at most 2× and a few rasters serve every zoom.
    public static func circleBucket(forRadius radius: Double) -> Int {
        // Clamped first: a circle at the pole is infinitely many points wide.
        let r = radius.isNaN ? 4 : min(max(radius, 4), 256)
        return 1 << Int(saturating: log2(r).rounded(.up))
    }
}

/// A spec of any kind, with its hash worked out once.
private class SpecBox: @unchecked Sendable {
    let hash: Int
    init(hash: Int) { self.hash = hash }
    var kind: ObjectIdentifier { ObjectIdentifier(SpecBox.self) }
    func isEqual(to other: SpecBox) -> Bool { self === other }
    var description: String { "" }
}

/// Immutable: its spec is `Sendable` and never changes.
private final class TypedSpecBox<S: SpriteSpec>: SpecBox, @unchecked Sendable {
    let spec: S
    init(_ spec: S) {
        self.spec = spec
        super.init(hash: spec.hashValue)
    }
    override var kind: ObjectIdentifier { ObjectIdentifier(S.self) }
    override func isEqual(to other: SpecBox) -> Bool {
        // The same class is the same kind of spec.
        guard type(of: other) == type(of: self) else { return false }
        return unsafeDowncast(other, to: TypedSpecBox<S>.self).spec == spec
    }
    override var description: String { "\(spec)" }
}
