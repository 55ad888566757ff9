import FoundationEssentials
import MapCore
import MapGeometry
import MapNetwork
import Platform

/// Online search: asks the configured geocoder (Nominatim or Photon) for a query and hands back
/// its places as search results, within Nominatim's usage policy:
///
/// - `search` is for a search the user asked for (pressing Enter), never for each keystroke:
///   the policy forbids autocomplete. That is the caller's duty; this class only makes sure
///   that whatever it is asked, requests to a service start at least the configured interval
///   apart for the whole process (`ServiceGate`).
/// - A search whose turn has not come waits, and a newer search replaces it (the older one is
///   told `.superseded`): ten searches in a row made while it is idle cost two requests, the
///   first and the last.
/// - A 429, or a 503 with Retry-After, stops all requests until the time it names, and the
///   search is told `.busy`; later searches wait for that time if it is near, else are told
///   `.busy` at once.
/// - Answers are cached for a week (`GeocoderCache`): a search made again costs no request.
///   Errors, unreadable answers and statuses other than 200 are never cached.
///
/// Nothing blocks the caller: searches are made by a worker thread of this geocoder, and
/// `done` is called once per search, on that thread (after `stop`, at once on the caller's):
/// keep it short, and hand the results to the frame loop's queue.
public final class Geocoder: @unchecked Sendable {
    public typealias Done = @Sendable (Result<[SearchResult], GeocoderError>) -> Void

    public struct Options: Sendable {
        /// Where answers are kept on disk (`defaultCacheDirectory`); nil keeps them in memory.
        public var cacheDirectory: String?
        /// The Accept-Language sent ("fi"; `GeocoderConfig.language(environment:)`), nil for none.
        public var language: String?
        /// Seconds an answer may take before the search is given up as timed out.
        public var timeout = 10.0
        /// The longest a search waits for its turn; a service that asked for a longer pause is
        /// said to be busy at once instead.
        public var longestWait = 10.0

        public init(cacheDirectory: String?, language: String? = nil) {
            self.cacheDirectory = cacheDirectory
            self.language = language
        }
    }

    public let config: GeocoderConfig
    private let worker: GeocoderWorker

    /// `client`: the app's HTTP client (it says who is asking, as the policy requires).
    public convenience init(config: GeocoderConfig, client: HTTPClient, options: Options) {
        self.init(config: config, client: client, options: options, gate: ServiceGate.shared(for: config.url))
    }

    /// With a gate of its own (tests: a fresh schedule, whatever ran before on the same port).
    init(config: GeocoderConfig, client: HTTPClient, options: Options, gate: ServiceGate) {
        self.config = config
        worker = GeocoderWorker(config: config, client: client, options: options, gate: gate)
    }

    deinit { worker.stop() }

    /// `$XDG_CACHE_HOME/meridian/geocoder`, else `~/.cache/meridian/geocoder`.
    public static func defaultCacheDirectory(environment: [String: String]) -> String {
        GeocoderCache.defaultDirectory(environment: environment)
    }

    /// Searches for `query`, preferring places near `near` (the view's centre, say). Call it
    /// when the user asks for a search (Enter), never as they type: Nominatim's policy forbids
    /// autocomplete. `done` is called once, on the worker thread: with the places found
    /// (perhaps none), or why there are none.
    public func search(_ query: String, near: Coordinate?, done: @escaping Done) {
        worker.add(query, near: near, done: done)
    }

    /// What is at `c` (the nearest address or place), asked as a search is: paced, replaced by
    /// a newer question while it waits, cached. For a person's request (key W), never for
    /// every move of the pointer.
    public func reverse(_ c: Coordinate, done: @escaping Done) {
        guard c.isValid else { return done(.success([])) }
        worker.add(reverse: c, done: done)
    }

    /// Requests sent to the service so far (what tests count; cached answers send none).
    public var requestCount: Int { worker.requestCount }

    /// Ends the worker: waiting searches are told `.stopped`, a request under way is
    /// cancelled, and later searches are told `.stopped` at once.
    public func stop() { worker.stop() }
}

/// The queue behind a `Geocoder`: one search under way at a time, at most one waiting.
final class GeocoderWorker: @unchecked Sendable {
    struct Job {
        let request: GeocoderRequest
        let isEmpty: Bool
        let done: Geocoder.Done
        /// False for a search made while the geocoder was idle and its turn had come: it is
        /// sent whatever comes after it. A search that has to wait is replaced by a newer one.
        let replaceable: Bool
        /// Whether the cache has been asked already.
        var looked = false
    }

    let config: GeocoderConfig
    let client: HTTPClient
    let options: Options
    typealias Options = Geocoder.Options
    let gate: ServiceGate
    let cache: GeocoderCache
    private let condition = Condition()
    private var started = false
    private var stopped = false
    /// The search the worker holds, one sent at once, and the one waiting behind them.
    private var current: Job?
    private var eager: Job?
    private var pending: Job?
    /// Replaced searches, told so by the worker (never on the caller's thread).
    private var dropped: [Job] = []
    private var inFlight: HTTPClient.ID?
    private var requests = 0

    init(config: GeocoderConfig, client: HTTPClient, options: Options, gate: ServiceGate) {
        self.config = config
        self.client = client
        self.options = options
        self.gate = gate
        cache = GeocoderCache(directory: options.cacheDirectory)
    }

    var requestCount: Int { condition.lock(); defer { condition.unlock() }; return requests }

    func add(_ query: String, near: Coordinate?, done: @escaping Geocoder.Done) {
        let request = GeocoderRequest(query: query, near: near, config: config, language: options.language)
        add(request, isEmpty: GeocoderRequest.tidy(query).isEmpty, done: done)
    }

    func add(reverse c: Coordinate, done: @escaping Geocoder.Done) {
        add(GeocoderRequest(reverse: c, config: config, language: options.language), isEmpty: false, done: done)
    }

    func add(_ request: GeocoderRequest, isEmpty: Bool, done: @escaping Geocoder.Done) {
        condition.lock()
        guard !stopped else { condition.unlock(); return done(.failure(.stopped)) }
        if !started {
            started = true
            startThread(name: "geocoder") { [self] in run() }
        }
        let idle = current == nil && eager == nil && pending == nil
        if idle && gate.delay(now: MonotonicClock.now, interval: config.minimumInterval) <= 0 {
            eager = Job(request: request, isEmpty: isEmpty, done: done, replaceable: false)
        } else {
            if let old = pending { dropped.append(old) }
            pending = Job(request: request, isEmpty: isEmpty, done: done, replaceable: true)
        }
        condition.broadcast()
        condition.unlock()
    }

    /// The worker tells the searches it holds (a search always starts the worker first).
    func stop() {
        condition.lock()
        stopped = true
        let id = inFlight
        condition.broadcast()
        condition.unlock()
        if let id { client.cancel(id) }
    }

    /// The worker's loop: replaced searches told so, the next search taken (one sent at once
    /// first, else the newest waiting), answered from the cache if it can be, else sent when
    /// its turn comes.
    private func run() {
        condition.lock()
        while true {
            if !dropped.isEmpty {
                let replaced = dropped
                dropped = []
                condition.unlock()
                for job in replaced { job.done(.failure(.superseded)) }
                condition.lock()
                continue
            }
            if stopped {
                let rest = [current, eager, pending].compactMap { $0 }
                current = nil; eager = nil; pending = nil
                condition.unlock()
                for job in rest { job.done(.failure(.stopped)) }
                return
            }
            if current == nil, let job = eager {
                eager = nil
                current = job
            } else if let newer = pending, current?.replaceable ?? true {
                pending = nil
                if let old = current { dropped.append(old) }
                current = newer
                continue
            }
            guard let job = current else { condition.wait(); continue }
            if !job.looked {
                current?.looked = true
                condition.unlock()
                let quick = answerWithoutRequest(job)
                condition.lock()
                if let quick { finish(job, quick) }
                continue
            }
            let now = MonotonicClock.now
            if gate.claim(now: now, interval: config.minimumInterval) {
                requests += 1
                attempt += 1
                let mine = attempt
                awaiting = mine
                // Not under the lock: a stopped client answers within fetch, on this thread.
                condition.unlock()
                let id = client.fetch(job.request.url, headers: options.language.map { ["Accept-Language: \($0)"] } ?? [],
                                      limit: GeocoderAnswer.maxBytes) { [self] outcome in put(outcome, for: mine) }
                condition.lock()
                inFlight = id
                let deadline = now + options.timeout
                while answer == nil && !stopped {
                    if !condition.wait(until: deadline) && answer == nil { break }
                }
                let outcome = answer
                answer = nil
                awaiting = nil
                inFlight = nil
                let wasStopped = stopped
                condition.unlock()
                let result: Result<[SearchResult], GeocoderError>
                if let outcome {
                    result = interpret(outcome, job.request)
                } else {
                    client.cancel(id)
                    result = .failure(wasStopped ? .stopped : .timedOut(seconds: Int(saturating: options.timeout.rounded(.up))))
                }
                condition.lock()
                finish(job, result)
                continue
            }
            let wait = gate.delay(now: now, interval: config.minimumInterval)
            if wait > options.longestWait {
                finish(job, .failure(.busy(seconds: Int(saturating: wait.rounded(.up)))))
                continue
            }
            _ = condition.wait(until: now + wait)
        }
    }

    /// The answer of the request under way (number `awaiting` of `attempt`s), handed over by
    /// the network thread.
    private var answer: HTTPOutcome?
    private var attempt = 0
    private var awaiting: Int?

    private func put(_ outcome: HTTPOutcome, for request: Int) {
        condition.lock(); defer { condition.unlock() }
        // A late answer to a request given up (timed out) is not the next one's.
        guard awaiting == request else { return }
        answer = outcome
        condition.broadcast()
    }

    /// Tells `job` its result and lets go of it (called and returning under the lock).
    private func finish(_ job: Job, _ result: Result<[SearchResult], GeocoderError>) {
        current = nil
        condition.unlock()
        job.done(result)
        condition.lock()
    }

    /// Answers a search can have without the service: none for an empty query, none while
    /// online search is off, the cached ones.
    private func answerWithoutRequest(_ job: Job) -> Result<[SearchResult], GeocoderError>? {
        if !config.enabled { return .failure(.disabled) }
        if job.isEmpty { return .success([]) }
        return cache.results(for: job.request, kind: config.kind, credit: config.credit, now: WallClock.now).map { .success($0) }
    }

    /// What an answer means for the search (and for the requests after it).
    private func interpret(_ outcome: HTTPOutcome, _ request: GeocoderRequest) -> Result<[SearchResult], GeocoderError> {
        switch outcome {
        case let .response(r) where r.status == 200:
            do {
                let results = try GeocoderAnswer.read(r.body, kind: config.kind, credit: config.credit)
                cache.store(r.body, results: results, for: request, now: WallClock.now)
                return .success(results)
            } catch let e as GeocoderError {
                return .failure(e)
            } catch {
                return .failure(.notPlaces)
            }
        case let .response(r) where r.status == 429 || (r.status == 503 && r.header("Retry-After") != nil):
            let asked = r.header("Retry-After").flatMap { HTTPFreshness.retryAfter($0, now: WallClock.now) } ?? Self.defaultPause
            // Whole seconds, as the search is told them: "try again in 2 s" means 2 s here too.
            let seconds = min(max(asked, 1), Self.longestPause).rounded(.up)
            gate.pause(until: MonotonicClock.now + seconds)
            return .failure(.busy(seconds: Int(saturating: seconds.rounded(.up))))
        case let .response(r) where r.status >= 500:
            return .failure(.serverError(status: r.status))
        case let .response(r):
            // Nominatim explains a 400 in JSON ({"error": {"message": …}}): its words say more.
            if let json = try? JSONValue.parse(r.body.prefix(64 << 10)), let message = GeocoderAnswer.errorMessage(json) {
                return .failure(.said(message))
            }
            return .failure(.refused(status: r.status))
        case let .failed(reason, _):
            if reason == HTTPFailure.tooLarge(GeocoderAnswer.maxBytes).reason { return .failure(.tooLarge) }
            if reason == "cancelled" { return .failure(.stopped) }
            return .failure(HTTPFailure.isNoConnection(reason) ? .offline(reason) : .network(reason))
        }
    }

    /// A pause for a 429 that names none, and the longest one heeded (a server's "a day" is
    /// an hour here: the user can always try again).
    static let defaultPause = 30.0
    static let longestPause = 3600.0
}
