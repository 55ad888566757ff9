import FoundationEssentials
import MapChrome
import MapCore
import MapRouting
import MapTiles
import MapWindow
import Platform

/// "Directions offline too" in the window: after a saved area's tiles, its routing data —
/// the smallest Geofabrik region holding it downloaded (its size said first; above 500 MB,
/// or routing.json's "askAboveMB", the panel asks: Download or Not now), cut and built
/// beside the area — with its progress in the save panel and Cancel; the new database joins
/// the route engines at once.
final class AreaDirections: @unchecked Sendable { // `answer` under `answered`; the rest immutable or locked values
    private let host: MapHostHandle
    private let routing: AreaRouting
    private let cancel = LockedValue<RouteCancellation>()
    private let running = LockedValue<Bool>()
    /// The panel's answer to "Download …?", waited for by the build (nil: not yet).
    private let answered = Condition()
    private var answer: Bool?
    /// A database was built (for the route engines).
    var built: @Sendable (RoutinoDatabase) -> Void = { _ in }

    /// Nil when Routino is not installed (the panel then offers no directions).
    init?(host: MapHost, environment env: [String: String] = ProcessInfo.processInfo.environment) {
        guard case let .success(programs) = RoutinoPrograms.find(environment: env) else { return nil }
        self.host = host.handle
        routing = AreaRouting(config: RoutingConfig.load(environment: env).config, programs: programs, userAgent: Meridian.userAgent, offline: Meridian.catalog.isOffline, environment: env)
        host.change { $0.scene.modify(SaveAreaLayer.self, default: SaveAreaLayer()) { $0.offersDirections = true } }
    }

    /// A build is under way (the area saver starts no other job meanwhile: one at a time).
    var isBusy: Bool { running.get() == true }

    /// Builds the routing data for `area`, saved at `path`, on a thread of its own.
    func build(_ area: SaveAreaLayer.Area, beside path: String) {
        guard !isBusy else { return host.showNotice(tr("Directions are being built for another area: wait for them, or stop them (Cancel)")) }
        running.set(true)
        let token = RouteCancellation()
        cancel.set(token)
        let running = self.running
        let host = self.host, routing = self.routing, built = self.built
        // TRANSLATORS: stands for an area's name when it cannot be read, in “Directions offline for “the area””.
        let title = (try? SavedArea(path: path).title) ?? tr("the area")
        // TRANSLATORS: %@ is a saved area's name; "Directions offline" is what the save panel offers.
        let headline = tr("Directions offline for “%@”", title)
        @Sendable func show(_ detail: String) {
            host.perform { host in
                host.change { $0.update(SaveAreaLayer.self, at: host.clock.now) {
                    var p = SaveAreaLayer.Progress(title: headline, area: area, done: 0, total: 0, bytes: 0, secondsLeft: nil)
                    p.headline = headline
                    p.detail = detail
                    $0.progress = p
                    return [.changed]
                } }
            }
        }
        show(tr("Finding the extract that holds it…"))
        startThread(name: "area-routing") {
            // For later, as the area's tiles are (osmium and Routino, started from here, inherit it).
            ThreadPriority.speculative.apply()
            let pace = Pace(interval: 0.25)
            let box = AreaRouting.Box(west: area.west, south: area.south, east: area.east, north: area.north)
            let result = routing.build(box, into: AreaRouting.directory(forArea: path), environment: ProcessInfo.processInfo.environment, cancel: token,
                                       confirm: { region, bytes in self.ask(region: region, bytes: bytes, headline: headline, area: area, cancel: token) },
                                       progress: { stage in
                switch stage {
                case .finding: break
                case let .downloading(region, done, total):
                    if pace.due() || done == total {
                        // TRANSLATORS: %1$@ is a region's name (“Uusimaa”), then bytes downloaded of its extract's size (“12.3 MB of 45.6 MB”).
                        show(tr("Downloading %1$@: %2$@ of %3$@", region, SaveAreaLayer.bytes(UInt64(max(0, done))), SaveAreaLayer.bytes(UInt64(max(0, total)))))
                    }
                case .cutting: show(tr("Cutting the area out of the extract (osmium)…"))
                case .building: show(tr("Building the routing database (Routino)…"))
                }
            })
            let outcome: String
            switch result {
            case let .success((db, report)):
                built(db)
                // TRANSLATORS: %1$@ is “Directions offline for “NAME””, %2$@ the routing data's size (“12.3 MB”).
                outcome = tr("%1$@: ready (%2$@); routes there need no network now", headline, SaveAreaLayer.bytes(UInt64(max(0, report.bytes))))
            case let .failure(.declined(region, bytes)):
                // TRANSLATORS: %1$@ is “Directions offline for “NAME””, %2$@ a region's name (“Uusimaa”), %3$@ its extract's size in megabytes, %4$@ a command to run (not to translate).
                outcome = tr("%1$@: the extract that holds it, %2$@, is %3$@ MB; to download it, run: %4$@", headline, region, bytes / 1_000_000,
                             "meridian extract --update \(path) --directions")
            case .failure(.cancelled):
                // TRANSLATORS: %@ is “Directions offline for “NAME””.
                outcome = tr("%@: stopped", headline)
            case let .failure(e):
                outcome = "\(headline): \(e)"
            }
            host.perform { host in
                running.set(false)
                host.change { $0.update(SaveAreaLayer.self, at: host.clock.now) { $0.finish(); return [.changed] } }
                host.showNotice(outcome)
            }
        }
    }

    /// Stops the build under way (Cancel in the panel).
    func stop() {
        cancel.get()?.cancel()
        answered.lock(); answered.broadcast(); answered.unlock()
    }

    /// The panel's answer (Download: true; Not now: false).
    func answer(_ yes: Bool) {
        answered.lock()
        answer = yes
        answered.broadcast()
        answered.unlock()
    }

    /// Asks in the panel whether to download `bytes` of `region`, and waits (on the build's
    /// thread) for the answer; a Cancel or the window closing is a no.
    private func ask(region: String, bytes: Int64, headline: String, area: SaveAreaLayer.Area, cancel token: RouteCancellation) -> Bool {
        answered.lock()
        answer = nil
        answered.unlock()
        // TRANSLATORS: %1$@ is a region's name (“Finland”), %2$@ its extract's size (“612 MB”).
        let question = tr("Routes offline here need %1$@'s extract: download %2$@?", region, SaveAreaLayer.bytes(UInt64(max(0, bytes))))
        let host = self.host
        host.perform { host in
            host.change { $0.update(SaveAreaLayer.self, at: host.clock.now) {
                var p = SaveAreaLayer.Progress(title: headline, area: area, done: 0, total: 0, bytes: 0, secondsLeft: nil)
                p.headline = headline
                p.detail = question
                p.asks = true
                $0.progress = p
                return [.changed]
            } }
        }
        answered.lock()
        defer { answered.unlock() }
        while answer == nil, !token.isCancelled { answered.wait() }
        return answer == true && !token.isCancelled
    }
}
