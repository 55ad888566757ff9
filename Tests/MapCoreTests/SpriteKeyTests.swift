import Testing
@testable import MapCore

/// A sprite key is its spec: keys made apart from equal specs are one key (the atlas finds a
/// sprite by a key made again each frame), and specs of two kinds are never one key, even
/// when their hashes agree.
struct SpriteKeyTests {
    /// Two kinds of spec whose hashes are the same for the same number.
    struct Dot: SpriteSpec {
        let size: Int
        func hash(into h: inout Hasher) { h.combine(size) }
    }
    struct Ring: SpriteSpec {
        let size: Int
        func hash(into h: inout Hasher) { h.combine(size) }
    }

    @Test func keysOfEqualSpecsMadeApartAreOneKey() {
        let a = SpriteKey(Dot(size: 4)), b = SpriteKey(Dot(size: 4))
        #expect(a == b)
        #expect(a.hashValue == b.hashValue)
        #expect(Set([a, b]).count == 1)
        #expect([a: "x"][b] == "x")
        #expect(SpriteKey.text("Zürich", .place) == SpriteKey.text("Zürich", .place))
    }

    @Test func keysOfOtherSpecsDiffer() {
        #expect(SpriteKey(Dot(size: 4)) != SpriteKey(Dot(size: 5)))
        #expect(SpriteKey.text("Zürich", .place) != SpriteKey.text("Zurich", .place))
    }

    @Test func specsOfTwoKindsAreNeverOneKeyEvenWithOneHash() {
        let dot = SpriteKey(Dot(size: 4)), ring = SpriteKey(Ring(size: 4))
        #expect(dot.hashValue == ring.hashValue)
        #expect(dot != ring)
        #expect(ring != dot)
        #expect(Set([dot, ring]).count == 2)
    }

    @Test func aKeyGivesItsSpecBackOnlyAsItsOwnKind() {
        let dot = SpriteKey(Dot(size: 7))
        #expect(dot.spec(as: Dot.self) == Dot(size: 7))
        #expect(dot.spec(as: Ring.self) == nil)
        #expect(dot.kind == ObjectIdentifier(Dot.self))
        #expect(dot.kind != SpriteKey(Ring(size: 7)).kind)
        #expect(dot.kind == SpriteKey(Dot(size: 1)).kind)
        #expect(dot.description == "\(Dot(size: 7))")
    }
}
