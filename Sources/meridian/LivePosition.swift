import FoundationEssentials
import Glibc
import MapCore
import MapData
import MapPosition
import MapWindow
import Platform

/// The live position in the window: a source's events move the location annotation and grow
/// the trail (journal, tracks layer, Ctrl+S to GPX), all on the frame thread.
final class LivePosition {
    let source: PositionSource
    let recorder: TrailRecorder
    private unowned let host: MapHost

    init(_ source: PositionSource, host: MapHost, recorder: TrailRecorder = TrailRecorder()) {
        self.source = source
        self.host = host
        self.recorder = recorder
        host.change { $0.position.staleAfter = source.staleAfter }
        if let notice = recorder.recover() {
            host.showNotice(notice)
            host.change { recorder.handOver(into: &$0.scene.tracks, now: WallClock.now) }
        }
    }

    func start() {
        let name = source.name, handle = host.handle, trail = FrameBound(recorder)
        let frameLog = host.configuration.logFrames
        source.start { event in
            handle.perform { host in
                let recorder = trail.on(host)
                host.receive(event, from: name)
                switch event {
                case let .fix(f):
                    if frameLog {
                        FileIO.printError(String(cFormat: "fix %.6f %.6f %.1f", f.coordinate.latitude, f.coordinate.longitude, f.accuracy))
                    }
                    if let problem = host.change { recorder.record(f, now: WallClock.now, into: &$0.scene.tracks) } { host.showNotice(problem) }
                case .noFix: host.change { recorder.lostFix(into: &$0.scene.tracks, now: WallClock.now) }
                case .unavailable: break
                }
            }
        }
    }

    /// Ctrl+S: the trail as GPX, said in a notice.
    func save() {
        host.change { recorder.handOver(into: &$0.scene.tracks, now: WallClock.now) }
        do {
            let url = try recorder.save()
            host.showNotice(tr("Trail saved to %@", url.path))
        } catch {
            host.showNotice(tr("Cannot save the trail: %@", error))
        }
    }

    /// At quit, after the window closed: the source ends, and what was recorded is saved.
    func finish() {
        source.stop()
        do {
            if let url = try recorder.finish() { warn(tr("trail saved to %@", url.path)) }
        } catch {
            // TRANSLATORS: %1$@ is the path of the trail's journal (the points as they were recorded), %2$@ why it could not be saved.
            warn(tr("could not save the trail (its journal %1$@ is kept): %2$@", recorder.journal.url.path, error))
        }
    }
}
