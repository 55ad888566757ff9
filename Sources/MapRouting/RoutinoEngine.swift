import FoundationEssentials
import Glibc
import MapCore
import MapGeometry
import Platform

/// Routes offline with Routino: `routino-router` run over a database, once a route, from a
/// directory of its own (Routino writes its outputs where it runs), asked for its text and
/// all-nodes text outputs and its HTML (`RoutinoOutput` reads them; the GPX route beside them
/// only makes Routino name the roads). Routino's times are minutes, its
/// distances kilometres; its "(null)" names are none; a waypoint more than 1 km from a road
/// the profile may use is refused (`.noRoadNear`).
public final class RoutinoEngine: RouteEngine, @unchecked Sendable { // immutable: each route is a process of its own
    public let database: RoutinoDatabase
    public let programs: RoutinoPrograms
    public let name = "Routino"
    public var isOnline: Bool { false }

    public init(database: RoutinoDatabase, programs: RoutinoPrograms) {
        self.database = database
        self.programs = programs
    }

    /// Whether its data holds the points (and is still there: a deleted area's is not).
    public func covers(_ request: RouteRequest) -> Bool {
        request.waypoints.allSatisfy(database.covers) && FileIO.exists(database.directory + "/" + RoutinoDatabase.noteName)
    }

    public func route(_ request: RouteRequest, cancel: RouteCancellation) -> Result<Route, RouteError> {
        guard request.waypoints.count >= 2 else { return .failure(.tooFewPoints) }
        // Routino takes at most 99 waypoints.
        guard request.waypoints.count <= 99 else { return .failure(.failed(tr("at most 99 waypoints"))) }
        if let invalid = request.waypoints.first(where: { !$0.isValid }) { return .failure(.noRoadNear(invalid, meters: 1000)) }
        return run(request, cancel: cancel)
    }

    private func run(_ request: RouteRequest, cancel: RouteCancellation) -> Result<Route, RouteError> {
        guard let dir = TemporaryDirectory.make("meridian-route") else {
            // TRANSLATORS: %@ is the system's reason.
            return .failure(.failed(tr("no temporary directory: %@", FileIO.reason())))
        }
        defer { _ = FileIO.removeTree(dir) }
        var args = ["--dir=\(database.directory)", "--prefix=\(database.prefix)", "--profiles=\(programs.profiles)",
                    "--translations=\(programs.translations)", "--profile=\(RoutinoPrograms.profile(request.mode))",
                    // Routino names the roads in its text outputs only when a route output that
                    // it translates is asked too: without the GPX route they read "(null)". The
                    // HTML is the one that says where roundabouts are.
                    "--quickest", "--output-text", "--output-text-all", "--output-gpx-route", "--output-html", "--loggable"]
        for (i, w) in request.waypoints.enumerated() {
            args.append(String(cFormat: "--lat%d=%.7f", i + 1, w.latitude))
            args.append(String(cFormat: "--lon%d=%.7f", i + 1, w.longitude))
        }
        let log = dir + "/router.log"
        let process: Subprocess
        do {
            process = try Subprocess(programs.router, args, directory: dir, stdout: log, stderr: log)
        } catch {
            return .failure(RouteError(spawning: error))
        }
        let stopping = cancel.whenCancelled { process.terminate() }
        let status = process.wait()
        cancel.forget(stopping)
        if cancel.isCancelled { return .failure(.cancelled) }
        guard status == 0 else { return .failure(failure(log: log, status: status, request: request)) }
        guard let text = try? FileIO.read(dir + "/quickest.txt", limit: RoutinoOutput.maxBytes),
              let all = try? FileIO.read(dir + "/quickest-all.txt", limit: RoutinoOutput.maxBytes) else {
            // TRANSLATORS: routino-router is a program.
            return .failure(.failed(tr("routino-router wrote no route")))
        }
        let html = try? FileIO.read(dir + "/quickest.html", limit: RoutinoOutput.maxBytes)
        return RoutinoOutput.read(text: text, all: all, html: html, request: request, engine: name)
    }

    /// What Routino's complaint means.
    func failure(log: String, status: Int32, request: RouteRequest) -> RouteError {
        guard let said = RoutinoDatabase.lastError(log) else {
            // TRANSLATORS: Routino is a name, routino-router a program; %@ is the number it ended with.
            return .failed(tr("Routino: routino-router ended with status %@", status))
        }
        return Self.meaning(of: said, request: request, database: database.directory)
    }

    /// Routino's words, as the error they are ("Error: Cannot find node close to specified
    /// point 2." is no road near the second waypoint).
    static func meaning(of said: String, request: RouteRequest, database: String) -> RouteError {
        if said.contains("Cannot find node close to specified point") {
            let n = Int(said.split(whereSeparator: { !$0.isNumber }).last ?? "") ?? 1
            let point = request.waypoints.indices.contains(n - 1) ? request.waypoints[n - 1] : request.waypoints[0]
            return .noRoadNear(point, meters: 1000)
        }
        // "Cannot find route compatible with profile", "… super-route …", "… start/finish route …".
        if said.contains("compatible with profile") && said.contains("route") { return .noRoute }
        if said.contains("Cannot open file") { return .databaseMissing(database) }
        if said.contains("not compatible with database") || said.contains("Invalid") || said.contains("corrupt") {
            return .databaseDamaged(database, reason: String(said.prefix(200)))
        }
        // TRANSLATORS: Routino is a name; %@ is what it said (in English).
        return .failed(tr("Routino: %@", String(said.prefix(300))))
    }
}
