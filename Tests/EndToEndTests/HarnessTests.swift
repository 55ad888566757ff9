import Foundation
import Testing
import TestPictures

/// The harness's own promises, which every end-to-end test leans on.
@Suite
struct HarnessTests {
    /// A client that connects as the last one leaves still gets the display. Xvfb resets when
    /// its last client goes unless started with -noreset, and drops whoever connects during the
    /// reset: that was the rare "no window appeared" (the app's XOpenDisplay failing while a
    /// test's `xdotool search` left). Two shell loops of short-lived clients meet that moment
    /// often: without -noreset, several opens in a hundred fail here.
    @Test func aClientArrivingAsTheLastLeavesConnects() throws {
        let x = try Xvfb(width: 320, height: 240)
        let xdotool = try #require(which("xdotool"))
        let opens = 200
        let loop = "i=0; while [ $i -lt \(opens) ]; do \"$0\" getdisplaygeometry >/dev/null 2>&1 || echo failed; i=$((i+1)); done"
        let lock = NSLock()
        nonisolated(unsafe) var failures = [0, 0]
        DispatchQueue.concurrentPerform(iterations: 2) { lane in
            let out = (try? run("/bin/sh", ["-c", loop, xdotool], env: ["DISPLAY": x.display], timeout: 120))?.stdout
            let failed = out.map { $0.split(separator: "\n").count } ?? opens
            lock.withLock { failures[lane] = failed }
        }
        #expect(failures == [0, 0], "opens that failed in each of two lanes of \(opens): \(failures); \(x.health)")
    }

    /// The pictures' reader: a PPM's header with a comment, its pixels where they are; a file
    /// through ImageMagick the same; what is cut short or not a PPM refused.
    @Test func picturesAreReadPixelForPixel() throws {
        let ppm = Array("P6\n# a picture's comment\n2 1\n255\n".utf8) + [1, 2, 3, 250, 251, 252]
        let png = try PNG(ppm: ppm)
        #expect(png.width == 2 && png.height == 1)
        #expect(png.pixel(0, 0) == (1, 2, 3) && png.pixel(1, 0) == (250, 251, 252))
        #expect(throws: PictureError.self) { try PNG(ppm: Array(ppm.dropLast())) }
        #expect(throws: PictureError.self) { try PNG(ppm: Array("P3\n2 1\n255\n1 2 3 4 5 6\n".utf8)) }
        let dir = temporaryDirectory("pictures")
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("two.ppm")
        try Data(ppm).write(to: file)
        let written = dir.appendingPathComponent("two.png").path
        #expect(try run(try #require(which("convert")), [file.path, written]).status == 0)
        let read = try PNG(written)
        #expect(read.rgb == png.rgb && read.width == 2)
        #expect(throws: HarnessError.self) { try PNG(dir.appendingPathComponent("missing.png").path) }
    }
}
