import Foundation
import MapTiles
import Testing
import TestSupport

struct LRUCacheTests {
    @Test func evictsLeastRecentlyUsedByBytes() {
        var c = LRUCache<String, Int>(capacity: 100)
        c.insert(1, for: "a", cost: 40)
        c.insert(2, for: "b", cost: 40)
        #expect(c.value(for: "a") == 1) // a is now the most recent
        let evicted = c.insert(3, for: "c", cost: 40)
        #expect(evicted.map(\.0) == ["b"])
        #expect(c.totalCost == 80)
        #expect(c.keysByRecency == ["c", "a"])
    }

    @Test func bigInsertEvictsSeveral() {
        var c = LRUCache<Int, String>(capacity: 10)
        for i in 0..<10 { c.insert("\(i)", for: i, cost: 1) }
        let evicted = c.insert("big", for: 99, cost: 7)
        #expect(evicted.map(\.0) == [0, 1, 2, 3, 4, 5, 6])
        #expect(c.totalCost == 10)
    }

    @Test func replacingUpdatesCostAndRecency() {
        var c = LRUCache<String, Int>(capacity: 100)
        c.insert(1, for: "a", cost: 10)
        c.insert(2, for: "b", cost: 10)
        c.insert(3, for: "a", cost: 50)
        #expect(c.totalCost == 60)
        #expect(c.keysByRecency == ["a", "b"])
        #expect(c.peek("b") == 2)
        #expect(c.keysByRecency == ["a", "b"]) // peek leaves recency alone
    }

    @Test func removals() {
        var c = LRUCache<String, Int>(capacity: 100)
        c.insert(1, for: "a", cost: 10)
        c.insert(2, for: "b", cost: 10)
        c.insert(3, for: "c", cost: 10)
        #expect(c.removeValue(for: "b") == 2)
        #expect(c.removeLeastRecent()! == ("a", 1))
        #expect(c.keysByRecency == ["c"])
        #expect(c.totalCost == 10)
        c.removeAll()
        #expect(c.count == 0 && c.totalCost == 0 && c.removeLeastRecent() == nil)
    }

    @Test func aSingleOversizedEntryIsKept() {
        var c = LRUCache<String, Int>(capacity: 10)
        c.insert(1, for: "huge", cost: 50)
        #expect(c.contains("huge"))
    }

    @Test func randomOperationsKeepTheInvariants() {
        var c = LRUCache<Int, Int>(capacity: 500)
        var rng = SeededGenerator(seed: 11)
        for _ in 0..<5000 {
            let k = Int.random(in: 0..<200, using: &rng)
            if Bool.random(using: &rng) { c.insert(k, for: k, cost: Int.random(in: 1...50, using: &rng)) } else { _ = c.value(for: k) }
            #expect(c.totalCost <= 500 || c.count == 1)
            #expect(c.keysByRecency.count == c.count)
        }
    }

    /// A cache let go of lets go of its values (each pair of neighbours in its list held the
    /// other, so every tile store dropped kept its pictures: 4 MiB a render).
    @Test func valuesAreFreedWithTheCache() {
        final class Picture {}
        var watched: [() -> Bool] = []
        do {
            var cache = LRUCache<Int, Picture>(capacity: 5)
            for i in 0..<8 {
                let p = Picture()
                weak var w = p
                watched.append { w != nil }
                cache.insert(p, for: i, cost: 1)
            }
            _ = cache.value(for: 4)   // moved to the front
            cache.insert(Picture(), for: 5, cost: 1)   // replaced
            #expect(cache.count == 5)
        }
        #expect(watched.filter { $0() }.isEmpty, "values outlive their cache")
    }
}

