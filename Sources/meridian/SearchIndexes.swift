import FoundationEssentials
import Glibc
import MapCore
import MapSearch
import MapTiles
import Platform

/// The street maps whose names search finds, and their indexes: a local `.mbtiles` or
/// `.pmtiles` street map when it is shown (or named with --tiles), and every saved area.
/// Indexes are built one at a time on a worker thread of their own, at low priority, the
/// first time a map is met; `changed` hears each that becomes ready, `progress` the share
/// done of the one being built. Safe from any thread.
final class SearchIndexes: @unchecked Sendable {
    let folder: String
    private let lock = Lock()
    private var ready: [String: NameIndex] = [:]
    private var queue: [String] = []
    private var failed: Set<String> = []
    private var working: NameIndexBuilder?
    private var running = false
    var changed: @Sendable ([NameIndex]) -> Void = { _ in }
    var progress: @Sendable (String, Double?) -> Void = { _, _ in }
    var failure: @Sendable (String) -> Void = { _ in }

    init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        folder = NameIndex.folder(environment: environment)
    }

    /// The indexes ready now, by their maps' paths.
    var indexes: [NameIndex] { lock.lock(); defer { lock.unlock() }; return Array(ready.values).sorted { $0.path < $1.path } }

    /// Whether `path` is a local street map file (not an address, not pictures).
    static func isIndexable(_ path: String) -> Bool {
        (path.hasSuffix(".mbtiles") || path.hasSuffix(".pmtiles")) && !path.contains("://") && FileIO.exists(path)
    }

    /// The saved areas' files.
    static func savedAreas() -> [String] { SavedArea.list().map(\.path) }

    /// Asks for `paths` to be searchable: those with an index ready are opened now, the rest
    /// are built in turn.
    func want(_ paths: [String]) {
        lock.lock()
        // Maps whose file went (a deleted area) or changed are searched no more as they were:
        // a changed one is indexed again below; one being built stops.
        let gone = ready.filter { NameArchive.identity(of: $0.key) != $0.value.identity }.map(\.key)
        for path in gone { ready[path] = nil }
        if let w = working, !FileIO.exists(w.archive.path) { w.cancel() }
        for p in paths where Self.isIndexable(p) {
            let path = FileIO.absolute(p)
            guard ready[path] == nil, !queue.contains(path), !failed.contains(path) else { continue }
            queue.append(path)
        }
        let start = !running && !queue.isEmpty
        if start { running = true }
        lock.unlock()
        if !gone.isEmpty { changed(indexes) }
        if start { startThread(name: "search-index") { [self] in work() } }
    }

    /// Stops a build in progress (it resumes the next time).
    func stop() {
        lock.lock()
        queue.removeAll()
        let w = working
        lock.unlock()
        w?.cancel()
    }

    private func work() {
        // Nobody waits for an index yet: a build yields to the view and to the desktop.
        ThreadPriority.speculative.apply()
        pruneOnce()
        while true {
            lock.lock()
            guard !queue.isEmpty else { running = false; lock.unlock(); return }
            let path = queue.removeFirst()
            lock.unlock()
            if let index = NameIndex.open(path: path, folder: folder) {
                add(path, index)
                continue
            }
            do {
                let archive = try NameArchive(path: path)
                let builder = NameIndexBuilder(archive: archive, folder: folder)
                lock.lock(); working = builder; lock.unlock()
                let title = archive.title
                progress(title, 0)
                var last = -1
                let outcome = try builder.build { share in
                    let percent = Int(saturating: share * 100)
                    if percent != last { last = percent; self.progress(title, share) }
                }
                progress(title, nil)
                if !outcome.broken.isEmpty {
                    // TRANSLATORS: %2$@ is a map file's path, %1$d how many of its tiles were unreadable, %3$@ the first of them and why.
                    warn(trn("%2$@: %1$d tile could not be read for search (%3$@)", "%2$@: %1$d tiles could not be read for search (%3$@)",
                             outcome.broken.count, path, outcome.broken[0]))
                }
                guard let index = NameIndex.open(archive, folder: folder) else {
                    // Deleted while it was indexed (an area), or changed: nothing to say.
                    guard NameArchive.identity(of: path) == archive.identity else { continue }
                    // TRANSLATORS: why a map cannot be searched, after “Cannot index FILE for search: ”.
                    throw TileSourceError(tr("its index was built but cannot be opened"))
                }
                if index.features == 0, !outcome.readsSchema {
                    // TRANSLATORS: %@ is a street map's name; OpenMapTiles is the name of a schema (not to translate).
                    failure(tr("%@ has no names search can read (its tiles are not of the OpenMapTiles schema)", archive.title))
                }
                add(path, index)
            } catch is NameIndexBuilder.Cancelled {
                progress("", nil)
            } catch is NameIndexBuilder.Busy {
                // Another Meridian builds it: asked again the next time maps change.
                progress("", nil)
            } catch NameArchive.Failure.notVector {
                // Pictures have no names: nothing to say, and nothing to try again.
                lock.lock(); failed.insert(path); lock.unlock()
            } catch {
                progress("", nil)
                lock.lock(); failed.insert(path); lock.unlock()
                // TRANSLATORS: %1$@ is a map file's path, %2$@ why its names cannot be indexed.
                failure(tr("Cannot index %1$@ for search: %2$@", path, error))
            }
            lock.lock(); working = nil; lock.unlock()
        }
    }

    private var pruned = false

    /// Indexes of map files that are gone (moved, deleted outside Meridian) are deleted, once
    /// a run, on this worker: the cache holds only what can be searched.
    private func pruneOnce() {
        lock.lock()
        let first = !pruned
        pruned = true
        lock.unlock()
        guard first else { return }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        for name in names where name.hasSuffix(".sqlite") {
            let file = folder + "/" + name
            guard let db = try? SQLiteDatabase(readOnly: file),
                  let path = (try? db.rows("SELECT value FROM meta WHERE key = 'path'") { SQLiteDatabase.text($0, 0) })?.first,
                  !FileIO.exists(path) else { continue }
            for suffix in ["", ".part", ".lock"] { unlink(file + suffix) }
        }
    }

    private func add(_ path: String, _ index: NameIndex) {
        lock.lock(); ready[path] = index; lock.unlock()
        changed(indexes)
    }
}
