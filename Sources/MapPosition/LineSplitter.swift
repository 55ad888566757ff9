import FoundationEssentials
import Platform

/// Splits a byte stream into lines, never holding more than `maxLine` bytes: a line longer
/// than that (a flood, or a peer that never sends a newline) is dropped whole, and counted.
public struct LineSplitter: Sendable {
    public let maxLine: Int
    private var pending: [UInt8] = []
    private var skipping = false
    /// Lines dropped for being too long.
    public private(set) var dropped = 0

    public init(maxLine: Int) { self.maxLine = maxLine }

    /// Feeds bytes; returns the whole lines they complete (without their "\n" or "\r\n").
    public mutating func feed(_ bytes: UnsafeRawBufferPointer) -> [Data] {
        var lines: [Data] = []
        var start = 0
        for (i, b) in bytes.enumerated() where b == 0x0A {
            take(bytes, start..<i, into: &lines, complete: true)
            start = i + 1
        }
        take(bytes, start..<bytes.count, into: &lines, complete: false)
        return lines
    }

    private mutating func take(_ bytes: UnsafeRawBufferPointer, _ r: Range<Int>, into lines: inout [Data], complete: Bool) {
        if !skipping {
            if pending.count + r.count > maxLine {
                skipping = true
                dropped += 1
                pending.removeAll()
            } else {
                pending += bytes[r]
            }
        }
        guard complete else { return }
        if !skipping {
            if pending.last == 0x0D { pending.removeLast() }
            if !pending.isEmpty { lines.append(Data(pending)) }
        }
        pending.removeAll(keepingCapacity: true)
        skipping = false
    }
}
