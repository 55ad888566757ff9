import FoundationEssentials
import Platform
import Testing

/// How each kind of work shares the processors (issue 55): the view's work a small nice
/// below the frame thread, speculative work batch at nice 10, the ring's tiles batch while they
/// load — and nothing at SCHED_IDLE, which a busy desktop starves.
@Suite struct ThreadPriorityTests {
    /// The calling thread's nice value and scheduling policy, as the kernel says
    /// (/proc/thread-self/stat: fields 19 and 41).
    static func own() -> (nice: Int, policy: Int)? {
        guard let data = try? FileIO.read("/proc/thread-self/stat", limit: 4096) else { return nil }
        let text = String(decoding: data, as: UTF8.self)
        // The fields after the command's name, which ends at the last ")": state is field 3.
        guard let close = text.lastIndex(of: ")") else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count >= 39, let nice = Int(fields[19 - 3]), let policy = Int(fields[41 - 3]) else { return nil }
        return (nice, policy)
    }

    @Test func theViewsWorkYieldsToTheFrameAndSpeculativeWorkToEverything() throws {
        let (other, batch, idle) = (0, 3, 5)
        let seen = Joinable(name: "priority-test") { () -> [(nice: Int, policy: Int)?] in
            var seen = [Self.own()]
            ThreadPriority.inView.apply()
            seen.append(Self.own())
            ThreadPriority.workingAhead(true)
            seen.append(Self.own())
            ThreadPriority.workingAhead(false)
            seen.append(Self.own())
            ThreadPriority.speculative.apply()
            seen.append(Self.own())
            return seen
        }.join()
        let states = seen.compactMap { $0 }
        try #require(states.count == 5)
        #expect(states[0].nice == 0 && states[0].policy == other, "a new thread starts as its maker: the test runner's")
        #expect(states[1].nice == 2 && states[1].policy == other, "the view's work: a small nice")
        #expect(states[2].nice == 2 && states[2].policy == batch, "the ring's tiles: batch, the same nice")
        #expect(states[3].nice == 2 && states[3].policy == other, "and back, either way")
        #expect(states[4].nice == 10 && states[4].policy == batch, "speculative work: batch at nice 10")
        #expect(!states.contains { $0.policy == idle })
    }
}
