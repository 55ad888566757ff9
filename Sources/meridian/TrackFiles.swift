import FoundationEssentials
import Glibc
import MapCore
import MapData
import MapGeometry
import MapWindow
import Platform

/// Reading files of tracks, shapes and waypoints for the map: all at once for `render`, on a
/// worker for the window. Each file takes the next colour of the palette unless it names one.
enum TrackFiles {
    struct Outcome: Sendable {
        var files: [TrackFile] = []
        /// What the user must hear: unreadable files, skipped points (first of each file).
        var notices: [String] = []
        /// One line per file opened, for stderr.
        var opened: [String] = []

        /// Where everything opened lies.
        var bounds: MapRect? { MapRect.union(files.compactMap(\.bounds)) }
    }

    /// Reads `paths`; the first file gets colour `firstColor` of the palette. `progress`
    /// counts bytes read; once cancelled, the files not yet read are left.
    static func read(_ paths: [String], firstColor: Int = 0, progress: Progress? = nil) -> Outcome {
        var out = Outcome()
        for (i, path) in paths.enumerated() {
            let color = TrackStyle.palette[(firstColor + i) % TrackStyle.palette.count]
            do {
                // The full path: it is what the next start reopens.
                let url = URL(fileURLWithPath: path).standardized
                let (file, problems) = try TrackFile.read(url, color: color, progress: progress)
                if let notice = Open.summary(problems.map(\.description)) { out.notices.append(notice) }
                out.files.append(file)
                // "opened NAME" as it is in every language: tests wait for it.
                out.opened.append("opened \(file.name): " + describe(file))
            } catch is CancelledError {
                out.opened.append("cancelled opening \(URL(fileURLWithPath: path).lastPathComponent)")
                break
            } catch {
                out.notices.append("\(error)")
            }
        }
        return out
    }

    /// "2 tracks (12,345 points), 1 shape, 3 waypoints".
    static func describe(_ file: TrackFile) -> String {
        var parts: [String] = []
        if !file.lines.isEmpty {
            let count = file.lines.count, points = file.lines.reduce(0) { $0 + $1.track.points.count }
            let lines = file.lines.allSatisfy { $0.track.kind == .route }
                // TRANSLATORS: what a file opened holds: its routes (planned lines).
                ? trn("%d route", "%d routes", count)
                // TRANSLATORS: what a file opened holds: its tracks (recorded lines).
                : trn("%d track", "%d tracks", count)
            // TRANSLATORS: what a file opened holds: its lines and how many points they have, “2 tracks (12345 points)”.
            parts.append(lines + " (" + trn("%d point", "%d points", points) + ")")
        }
        // TRANSLATORS: what a file opened holds: shapes (polygons, areas drawn).
        if !file.areas.isEmpty { parts.append(trn("%d shape", "%d shapes", file.areas.count)) }
        // TRANSLATORS: what a file opened holds: waypoints.
        if !file.waypoints.isEmpty { parts.append(trn("%d waypoint", "%d waypoints", file.waypoints.count)) }
        return parts.joined(separator: ", ")
    }
}

/// Opens files for the window off the frame thread: a worker reads them, then the frame
/// thread adds them to the map and shows them (a jump for the files the window was started
/// with, a flight for files opened later). Reading may start before the window exists (the
/// window takes as long to set up as a large file takes to read); what is read waits for
/// `attach`.
final class TrackFileOpener: @unchecked Sendable {
    private let lock = Lock()
    private var host: MapHost?
    /// Work for the host that came before it (run in order, before its first frame).
    private var waiting: [@Sendable (MapHost) -> Void] = []
    /// Files asked for so far: the colour of the next one.
    private var requested = 0
    /// The file chooser is open (frame thread only).
    var choosing = false
    /// Large files given at start are read once the window is shown (`letReadingStart`), or
    /// after `startWait` at the most (a window started hidden draws nothing): on two cores,
    /// reading a million points beside the window's start held its first tile back from 0.05
    /// to 0.10 s (peer-bench's track1m). Smaller ones are read at once: done before the
    /// window is, the first frame shows them.
    private let startGate = Condition()
    private var mayRead = false
    private let created = MonotonicClock.now
    static let startWait = 2.0
    private let logsFrames = HostConfiguration.current.logFrames
    /// Bytes read in about the time the window takes to start (30 ms on two cores).
    static let readBeforeWindow = 16 << 20

    /// The window is shown and its first tiles asked for: reading may begin.
    func letReadingStart() {
        startGate.lock()
        mayRead = true
        startGate.broadcast()
        startGate.unlock()
    }

    private func waitForStart() {
        let deadline = created + Self.startWait
        startGate.lock()
        while !mayRead, startGate.wait(until: deadline) {}
        startGate.unlock()
    }

    /// Call on one thread: before the loop, or the frame thread.
    /// `hidden`: paths whose files are opened hidden.
    func open(_ paths: [String], animated: Bool, moveView: Bool = true, hidden: Set<String> = []) {
        guard !paths.isEmpty else { return }
        let first = requested
        requested += paths.count
        // Shown at the bottom of the window if it takes more than half a second; Esc stops it.
        let bytes = paths.reduce(0) { $0 + FileIO.fileSize($1) }
        let progress = Progress(total: bytes)
        // `name` in the frame log (tests read it), `shown` in the window.
        let name = paths.count == 1 ? URL(fileURLWithPath: paths[0]).lastPathComponent : "\(paths.count) files"
        // TRANSLATORS: files being opened together, in “Opening 3 files…”.
        let shown = paths.count == 1 ? name : trn("%d file", "%d files", paths.count)
        let activity = ActivityID()
        post { host in
            // The picture waits for the files: the window is not fully drawn until they are in.
            host.pendingLoads += 1
            let logFrames = host.configuration.logFrames
            activity.id = host.activities.begin(text: {
                // TRANSLATORS: files being read (a file's name, or “3 files”); Esc is a key's name. The three spaces set the hint apart.
                guard let fraction = progress.fraction else { return tr("Opening %@…   Esc cancels", shown) }
                // TRANSLATORS: files being read, with the share read in percent; Esc is a key's name. The three spaces set the hint apart.
                return tr("Opening %1$@… %2$d%%   Esc cancels", shown, Int(saturating: (fraction * 100).rounded()))
            }, cancel: {
                progress.cancel()
                // With MERIDIAN_FRAME_LOG, tests hear that Esc reached the reading (which
                // ends only when the file next gives bytes).
                if logFrames { FileIO.printError("cancel \(name)") }
            })
        }
        startThread(name: "open-files") { [self] in
            // The window's start and its first tiles come first: on two cores a million points
            // read beside them held the first tile back by 0.1 s. The file was just opened: it
            // is the view's (and its reading threads inherit this).
            ThreadPriority.inView.apply()
            if bytes > Self.readBeforeWindow { waitForStart() }
            // With MERIDIAN_FRAME_LOG, tests hear when the reading began (after which frame).
            if logsFrames { FileIO.printError("reading \(name)") }
            let outcome = TrackFiles.read(paths, firstColor: first, progress: progress)
            post { host in
                host.activities.end(activity.id)
                host.markUndrawn()
                host.pendingLoads -= 1
                for line in outcome.opened { FileIO.printError("meridian: " + line) }
                for n in outcome.notices { host.showNotice(n) }
                for var f in outcome.files {
                    f.hidden = hidden.contains(f.path)
                    host.change { $0.scene.tracks.add(f) }
                }
                if moveView, let rect = outcome.bounds { host.show(rect, animated: animated) }
            }
            // Speeds, statistics and profiles follow once the tracks are on screen (a million
            // points take 200 ms, which the tiles of the new view need more); a click before
            // then shows "measuring…".
            if !outcome.files.isEmpty, let host = currentHost { host.waitUntilDrawn(timeout: 3) }
            for file in outcome.files {
                let details = file.lines.map(TrackDetails.init)
                post { host in host.change { $0.scene.tracks.setDetails(details, forFile: file.id) } }
            }
        }
    }

    private var currentHost: MapHost? {
        lock.lock(); defer { lock.unlock() }
        return host
    }

    /// From now on files go to `host`; what came before goes at once. Call before its loop.
    func attach(_ host: MapHost) {
        lock.lock()
        defer { lock.unlock() }
        self.host = host
        for work in waiting { host.perform(work) }
        waiting = []
    }

    /// Runs `work` on the host's frame thread, or keeps it for the host to come.
    private func post(_ work: @escaping @Sendable (MapHost) -> Void) {
        lock.lock()
        defer { lock.unlock() }
        if let host { host.perform(work) } else { waiting.append(work) }
    }
}

/// An activity's id, known once the frame thread has begun it.
private final class ActivityID: @unchecked Sendable {
    var id = 0
}
