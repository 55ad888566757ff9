import Foundation
import MeridianKit
import Testing

/// The maps by name, reached from the library alone: an app gives its own settings (where its
/// sources.json is, where problems go) and gets the same maps Meridian's switcher offers.
struct MapCatalogTests {
    /// Problems the catalogue said, in order.
    final class Heard: @unchecked Sendable {
        private let lock = NSLock()
        private var lines: [String] = []
        func add(_ s: String) { lock.lock(); lines.append(s); lock.unlock() }
        var all: [String] { lock.lock(); defer { lock.unlock() }; return lines }
    }

    /// Offline is the catalogue's setting, given at the start or later (a flag read after the
    /// catalogue was made): its one client follows it, made before or after.
    @Test func offlineIsTheCataloguesSettingAndItsClientFollows() {
        var settings = MapCatalog.Settings()
        settings.offline = true
        let started = MapCatalog(settings: settings)
        #expect(started.isOffline && started.client.isOffline)
        let later = MapCatalog()
        let client = later.client
        #expect(!later.isOffline && !client.isOffline)
        later.isOffline = true
        #expect(client.isOffline && later.client === client)
        later.isOffline = false
        #expect(!client.isOffline)
    }

    @Test func anAppsOwnSourcesAreOfferedAndWhatIsWrongIsSaidToIt() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("catalog-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("""
            {"sources": [{"name": "topo", "title": "Topo of our own", "url": "https://t.example/{z}/{x}/{y}.png"},
                         {"name": "typo", "url": "https://t.example/{zoom}/{x}/{y}.png"}]}
            """.utf8).write(to: folder.appendingPathComponent("sources.json"))
        let heard = Heard()
        var settings = MapCatalog.Settings()
        settings.configFolder = folder.path
        settings.cacheRoot = folder.appendingPathComponent("tiles").path
        settings.userAgent = "CatalogTests/1"
        settings.warn = { heard.add($0) }
        let catalog = MapCatalog(settings: settings)

        let choices = catalog.choices(current: MapCatalog.basemap, saved: [])
        #expect(choices.first?.name == MapCatalog.basemap)
        #expect(choices.contains { $0.name == "topo" && $0.title == "Topo of our own" })
        #expect(choices.contains { $0.name == "osm" })                        // the built-in servers
        #expect(!choices.contains { $0.name == "typo" })
        #expect(heard.all.count == 1 && heard.all[0].contains("{zoom}"), "\(heard.all)")
        // A map by its name: online ones over the embedded basemap, which shows meanwhile.
        let topo = try catalog.tiles("topo")
        #expect(topo.source.isRemote && topo.stack.layers.count == 2)
        let debug = try catalog.tiles("debug")
        #expect(!debug.source.isRemote && debug.stack.layers.count == 1)
        #expect(throws: (any Error).self) { try catalog.tiles("/nonexistent/streets.pmtiles") }
        // Read once: asked again, the sources are not read (nor their problems said) again.
        _ = catalog.choices(current: MapCatalog.basemap, saved: [])
        #expect(heard.all.count == 1)
        // Another catalogue, of settings of its own, knows nothing of this one's sources.
        let plain = MapCatalog()
        #expect(!plain.choices(current: MapCatalog.basemap, saved: []).contains { $0.name == "topo" })
        #expect(try plain.online("topo") == nil)
        #expect(plain.overlays.offered().map(\.name) == [MapOverlays.terrain])
    }
}
