import Foundation
import Testing

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
}
