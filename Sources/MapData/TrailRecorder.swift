import FoundationEssentials
import Glibc
import MapCore
import Platform

/// Records the live position's trail: every fix that moves becomes a point, written to the
/// journal at once and handed to the tracks layer at most once a second. Ctrl+S saves it as
/// GPX under `$XDG_DATA_HOME/meridian/tracks/` (atomically; later saves rewrite the same
/// file); a clean quit saves what was not saved yet, so nothing recorded is ever dropped.
/// A journal left by a run that was killed is taken up again at the next start.
public final class TrailRecorder {
    public private(set) var trail: Trail
    public let journal: TrailJournal
    public let folder: URL
    /// The file the trail was last saved to, and how many points that saved.
    public private(set) var savedURL: URL?
    private var savedCount = 0
    private var lastHandOver = -Double.infinity
    private var toldJournal = false

    /// Seconds between hand-overs to the tracks layer (each draws the tiles around the new stretch).
    public static let handOverEvery = 1.0

    public init(folder: URL = TrailRecorder.defaultFolder(), journal: URL = TrailRecorder.defaultJournal(), style: TrackStyle? = nil) {
        self.folder = folder
        self.journal = TrailJournal(url: journal)
        trail = style.map { Trail(style: $0) } ?? Trail()
    }

    /// `$XDG_DATA_HOME/meridian/tracks` (`~/.local/share/meridian/tracks`).
    public static func defaultFolder(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        PinFile.defaultURL(environment: environment).deletingLastPathComponent().appendingPathComponent("tracks")
    }

    /// `$XDG_STATE_HOME/meridian/trail.journal`.
    public static func defaultJournal(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        ViewState.defaultURL(environment: environment).deletingLastPathComponent().appendingPathComponent("trail.journal")
    }

    /// Takes up a journal a killed run left; a notice to show, nil when there was none.
    public func recover() -> String? {
        guard let data = try? Data(contentsOf: journal.url), !data.isEmpty else { return nil }
        guard let contents = TrailJournal.read(data) else {
            // TRANSLATORS: %@ is a file's path.
            return tr("%@ is not a trail journal; it was left as it is", journal.url.path)
        }
        guard contents.track.points.count > 0 else { return nil }
        trail = Trail(restoring: contents.track, style: trail.style)
        // TRANSLATORS: the notice at start when the last run was killed; %d is how many points; Ctrl+S is a key.
        var notice = trn("The trail of the last run (%d points) was recovered; Ctrl+S saves it", "The trail of the last run (%d points) was recovered; Ctrl+S saves it",
                         contents.track.points.count)
        // TRANSLATORS: after the notice that the trail was recovered; %d lines of its journal were damaged.
        if contents.skipped > 0 { notice += " " + trn("(%d damaged lines left out)", "(%d damaged lines left out)", contents.skipped) }
        return notice
    }

    /// With no live position to go on with: a journal a killed run left is saved as GPX at
    /// once and ended. A notice to show, nil when there was none.
    public func recoverAndSave() -> String? {
        guard let recovered = recover() else { return nil }
        guard trail.count >= 2 else { journal.remove(); return nil }
        do {
            let url = try save()
            journal.remove()
            // TRANSLATORS: %1$d is how many points, %2$@ the file's path.
            return trn("The trail of the last run (%1$d points) was recovered and saved to %2$@", "The trail of the last run (%1$d points) was recovered and saved to %2$@", trail.count, url.path)
        } catch {
            // TRANSLATORS: %1$@ is the notice that the trail was recovered, %2$@ why saving it failed.
            return tr("%1$@; it could not be saved: %2$@", recovered, error)
        }
    }

    /// Records `fix` (`now`: seconds since 1970) and hands new points to `tracks` when a
    /// second has passed since the last time. Returns a problem to say (once), if any.
    public func record(_ fix: PositionFix, now: Double, into tracks: inout TracksLayer) -> String? {
        let segmentsBefore = trail.segments.count
        guard trail.record(fix, time: now) else { return nil }
        let k = trail.count - 1
        let p = trail.points
        let breaking = trail.segments.count > segmentsBefore && k > 0
        var problem: String?
        if !journal.append(latitude: p.latitude[k], longitude: p.longitude[k], elevation: p.elevation[k], time: p.time[k], breaking: breaking),
           !toldJournal {
            toldJournal = true
            // TRANSLATORS: %@ says why the journal could not be written.
            problem = tr("The trail cannot be kept safe against a crash: %@", journal.failure ?? tr("write failed"))
        }
        if now - lastHandOver >= Self.handOverEvery || trail.count == 2 { handOver(into: &tracks, now: now) }
        return problem
    }

    /// Hands what is not drawn yet to `tracks` (when the fix is lost, and before saving).
    public func handOver(into tracks: inout TracksLayer, now: Double) {
        lastHandOver = now
        tracks.follow(&trail)
    }

    /// The receiver lost its fix: the next point starts a new segment.
    public func lostFix(into tracks: inout TracksLayer, now: Double) {
        trail.breakSegment()
        handOver(into: &tracks, now: now)
    }

    /// Whether points were recorded since the last save.
    public var hasUnsaved: Bool { trail.count > savedCount && trail.count >= 2 }

    /// Saves the whole trail as GPX (the same file each time); the file.
    @discardableResult
    public func save() throws -> URL {
        guard trail.count >= 2 else { throw FileWriteError(path: folder.path, reason: tr("the trail has no line yet")) }
        let url = savedURL ?? Self.unusedURL(Self.name(startingAt: trail.points.time[0]), in: folder)
        try AtomicFile.write(GPXWriter.data([trail.track]), to: url)
        savedURL = url
        savedCount = trail.count
        return url
    }

    /// At quit: saves what was not saved, then the journal goes (it is kept if saving failed).
    public func finish() throws -> URL? {
        var saved: URL?
        if hasUnsaved { saved = try save() }
        journal.remove()
        return saved
    }

    /// "trail-2026-11-22-1005" from the first point's time.
    static func name(startingAt time: Double) -> String {
        let stamp = GPXWriter.timestamp(time).map { t -> String in
            let u = Array(t.utf8)
            return String(decoding: u[0..<10], as: UTF8.self) + "-" + String(decoding: u[11..<13] + u[14..<16], as: UTF8.self)
        } ?? "unknown"
        return "trail-\(stamp)"
    }

    /// `folder/NAME.gpx`, or `NAME-2.gpx`, `NAME-3.gpx`… when taken: a new file never
    /// replaces one saved before.
    public static func unusedURL(_ name: String, in folder: URL) -> URL {
        var url = folder.appendingPathComponent(name + ".gpx")
        var n = 2
        while FileIO.exists(url.path) {
            url = folder.appendingPathComponent("\(name)-\(n).gpx")
            n += 1
        }
        return url
    }
}
