import FoundationEssentials
import Glibc
import Platform

/// A least-recently-used cache bounded by the summed cost (bytes) of its values.
/// Lookups and inserts are O(1): a hash map onto a doubly linked list of nodes. Inlinable,
/// so that each user gets it specialized to its keys and values: the frame's tile lookups
/// (several per tile, every frame) then cost no generic dispatch.
public struct LRUCache<Key: Hashable, Value> {
    @usableFromInline final class Node {
        @usableFromInline let key: Key
        @usableFromInline var value: Value
        @usableFromInline var cost: Int
        // Weak back: with both links strong, each pair of neighbours held the other, and a
        // cache let go of (a tile store when the map or the density changes, every render's
        // pipeline) kept all its values for ever — 4 MiB a render, found by fuzz-track-render.
        @usableFromInline weak var prev: Node?
        @usableFromInline var next: Node?
        @inlinable init(key: Key, value: Value, cost: Int) { self.key = key; self.value = value; self.cost = cost }
    }

    public let capacity: Int
    public internal(set) var totalCost = 0
    @usableFromInline var nodes: [Key: Node] = [:]
    @usableFromInline var head: Node?   // most recent
    @usableFromInline var tail: Node?   // least recent

    public init(capacity: Int) { self.capacity = capacity }

    @inlinable public var count: Int { nodes.count }

    /// The value, marking it as just used.
    @inlinable public mutating func value(for key: Key) -> Value? {
        guard let n = nodes[key] else { return nil }
        moveToFront(n)
        return n.value
    }

    /// The value without touching recency.
    @inlinable public func peek(_ key: Key) -> Value? { nodes[key]?.value }

    @inlinable public func contains(_ key: Key) -> Bool { nodes[key] != nil }

    /// Inserts or replaces; returns what was evicted to make room (least recent first).
    @discardableResult
    public mutating func insert(_ value: Value, for key: Key, cost: Int) -> [(Key, Value)] {
        if let n = nodes[key] {
            totalCost += cost - n.cost
            n.value = value
            n.cost = cost
            moveToFront(n)
        } else {
            let n = Node(key: key, value: value, cost: cost)
            nodes[key] = n
            totalCost += cost
            n.next = head
            head?.prev = n
            head = n
            if tail == nil { tail = n }
        }
        var evicted: [(Key, Value)] = []
        while totalCost > capacity, let t = tail, t !== head {
            evicted.append((t.key, t.value))
            remove(t)
        }
        return evicted
    }

    @discardableResult
    public mutating func removeValue(for key: Key) -> Value? {
        guard let n = nodes[key] else { return nil }
        remove(n)
        return n.value
    }

    /// Removes and returns the least recently used entry.
    public mutating func removeLeastRecent() -> (Key, Value)? {
        guard let t = tail else { return nil }
        remove(t)
        return (t.key, t.value)
    }

    public mutating func removeAll() {
        // Unlinked one by one: dropping the head alone would free the list one nested call
        // per node.
        while let n = head { head = n.next; n.next = nil }
        nodes.removeAll()
        head = nil; tail = nil; totalCost = 0
    }

    /// Keys from most to least recently used.
    public var keysByRecency: [Key] {
        var out: [Key] = []
        var n = head
        while let c = n { out.append(c.key); n = c.next }
        return out
    }

    // Inlinable: `value(for:)` and `moveToFront`, inlined into their users, then get it
    // specialized to the users' keys and values too.
    @inlinable mutating func unlink(_ n: Node) {
        n.prev?.next = n.next
        n.next?.prev = n.prev
        if head === n { head = n.next }
        if tail === n { tail = n.prev }
        n.prev = nil; n.next = nil
    }

    @inlinable mutating func moveToFront(_ n: Node) {
        guard head !== n else { return }
        unlink(n)
        n.next = head
        head?.prev = n
        head = n
        if tail == nil { tail = n }
    }

    @usableFromInline mutating func remove(_ n: Node) {
        unlink(n)
        nodes[n.key] = nil
        totalCost -= n.cost
    }
}
