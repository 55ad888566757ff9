import CSystem

/// What a thread's work is to the person at the map, and so how it shares the processors on a
/// busy desktop. The frame thread keeps the default (nice 0) and so goes first. Nothing runs
/// at SCHED_IDLE: that gets no processor at all while anything else wants one, and beside two
/// busy processes (a compile, a browser tab) a first start stayed half drawn for seconds.
public enum ThreadPriority: Sendable {
    /// What puts the view on screen: its tiles, their labels' text, a file just opened. A
    /// small nice (2): the frame thread wins on a core they share, and a busy desktop slows
    /// this work in proportion but never starves it.
    case inView
    /// What nobody waits for yet: indexes, saved areas, their routing data. SCHED_BATCH at
    /// nice 10: about a tenth of a core beside a busy process, so it yields to everything
    /// and still progresses.
    case speculative

    /// Sets the calling thread's priority. Called once, at the start of a thread's work: a
    /// thread's nice value can be raised, never lowered again without privileges.
    public func apply() {
        switch self {
        case .inView: _ = meridian_set_thread_priority(2, 0)
        case .speculative: _ = meridian_set_thread_priority(10, 1)
        }
    }

    /// Marks the calling thread's next work as ahead of need (the ring around the view) or
    /// not: SCHED_BATCH then, which never preempts the threads a person is waiting on; its
    /// nice value stays (the switch can go back either way).
    public static func workingAhead(_ ahead: Bool) {
        _ = meridian_set_thread_batch(ahead ? 1 : 0)
    }
}
