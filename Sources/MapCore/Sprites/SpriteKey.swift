import FoundationEssentials
import Glibc
import Platform

/// What a layer wants rasterized once and then placed by the compositor: a hashable
/// description that its painter (registered in MapGraphics' `SpritePainters`) can draw.
/// Each layer brings its own spec type, so a new kind of content adds no case anywhere else.
public protocol SpriteSpec: Hashable, Sendable {}

extension SpriteSpec {
    /// Equality across kinds: specs of different kinds are never equal.
    fileprivate func isEqual(to other: any SpriteSpec) -> Bool {
        guard let o = other as? Self else { return false }
        return o == self
    }
}

/// Any layer's sprite spec, the key of the sprite atlas. The spec's hash is worked out once,
/// when the key is made: the atlas is asked about hundreds of keys a frame, and comparing two
/// keys then costs one integer unless they are equal. Small specs sit inside the key (an
/// existential's inline buffer), so making one allocates nothing.
public struct SpriteKey: Hashable, Sendable, CustomStringConvertible {
    private let spec: any SpriteSpec
    private let hash: Int

    public init<S: SpriteSpec>(_ spec: S) {
        self.spec = spec
        hash = spec.hashValue
    }

    /// The kind of sprite: its spec's type (what its painter is registered by).
    public var kind: ObjectIdentifier { ObjectIdentifier(type(of: spec)) }

    /// The spec, when it is of the given kind.
    public func spec<S: SpriteSpec>(as type: S.Type) -> S? { spec as? S }

    public static func == (a: SpriteKey, b: SpriteKey) -> Bool {
        a.hash == b.hash && a.spec.isEqual(to: b.spec)
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(hash) }

    public var description: String { "\(spec)" }

    /// Raster radius (points) for a circle drawn up to `radius` points: the next power of two,
    /// so that a circle is scaled down at most 2× and a few rasters serve every zoom.
    public static func circleBucket(forRadius radius: Double) -> Int {
        // Clamped first: a circle at the pole is infinitely many points wide.
        let r = radius.isNaN ? 4 : min(max(radius, 4), 256)
        return 1 << Int(saturating: log2(r).rounded(.up))
    }
}
