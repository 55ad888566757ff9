import Foundation
import MapCore
import MapData
import MapGeometry
import Testing

struct PinSaverTests {
    func dir() -> URL {
        let d = FileManager.default.temporaryDirectory.appendingPathComponent("saver-\(UUID())")
        try? FileManager.default.createDirectory(at: d, withIntermediateDirectories: true)
        return d
    }

    func pins(_ n: Int) -> [Pin] {
        (0..<n).map { Pin(id: "p\($0)", coordinate: Coordinate(latitude: Double($0) / 10, longitude: 0), title: "Pin \($0)") }
    }

    @Test func aBurstOfChangesEndsWithTheLastVersionOnDisk() throws {
        let d = dir(); defer { try? FileManager.default.removeItem(at: d) }
        let file = PinFile(url: d.appendingPathComponent("pins.geojson"))
        let saver = PinSaver(file: file, onError: { _ in Issue.record("no save should fail") })
        for n in 1...200 { saver.save(pins(n)) }
        saver.flush()
        #expect(file.load().pins == pins(200))
        // Coalesced: far fewer writes than changes, at least one.
        #expect(saver.saves >= 1 && saver.saves <= 200)
        // No temporary files left behind.
        #expect(try FileManager.default.contentsOfDirectory(atPath: d.path) == ["pins.geojson"])
    }

    @Test func aSaveThatFailsIsReportedAndTheNextOneSucceeds() throws {
        let d = dir(); defer { try? FileManager.default.removeItem(at: d) }
        // The pins file's directory is a regular file: nothing can be written under it.
        let blocker = d.appendingPathComponent("sub")
        try Data("x".utf8).write(to: blocker)
        let messages = Messages()
        let saver = PinSaver(file: PinFile(url: blocker.appendingPathComponent("pins.geojson")), onError: { messages.add($0) })
        saver.save(pins(1))
        saver.flush()
        #expect(messages.all.count == 1 && messages.all[0].hasPrefix("could not save pins:") && messages.all[0].contains("sub"))
        try FileManager.default.removeItem(at: blocker)
        saver.save(pins(2))
        saver.flush()
        #expect(PinFile(url: blocker.appendingPathComponent("pins.geojson")).load().pins == pins(2))
    }
}

final class Messages: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [String] = []
    func add(_ s: String) { lock.lock(); list.append(s); lock.unlock() }
    var all: [String] { lock.lock(); defer { lock.unlock() }; return list }
}
