import Foundation
@testable import MapTiles
import Testing

/// Which geocoder online search asks: geocoder.json read, a broken one refused in words.
@Suite struct GeocoderTests {
    @Test func settingsFileChoosesTheServiceAndABrokenOneFallsBack() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("geocoder-config-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        defer { try? FileManager.default.removeItem(at: dir) }
        let env = ["XDG_CONFIG_HOME": dir.path, "HOME": "/nonexistent"]
        let file = dir.appendingPathComponent("meridian/geocoder.json")
        #expect(GeocoderConfig.path(environment: env) == file.path)
        #expect(GeocoderConfig.path(environment: ["HOME": "/home/u"]) == "/home/u/.config/meridian/geocoder.json")
        let missing = GeocoderConfig.load(environment: env)
        #expect(missing.config == .standard && missing.problem == nil)
        #expect(missing.config.minimumInterval == 1 && missing.config.credit == "© OpenStreetMap contributors · Nominatim")

        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(#"{"url": "https://photon.example.org/", "kind": "photon"}"#.utf8).write(to: file)
        let photon = GeocoderConfig.load(environment: env)
        #expect(photon.problem == nil)
        #expect(photon.config == GeocoderConfig(url: "https://photon.example.org", kind: .photon, credit: "© OpenStreetMap contributors · Photon",
                                               minimumInterval: 0.5, enabled: true))

        try Data(#"{"url": "http://127.0.0.1:8080", "credit": "Our own Nominatim", "minimumInterval": 0, "enabled": false}"#.utf8).write(to: file)
        let own = GeocoderConfig.load(environment: env).config
        #expect(own.kind == .nominatim && own.minimumInterval == 0 && !own.enabled && own.credit == "Our own Nominatim")
        // OpenStreetMap's own instance is never asked more than once a second.
        try Data(#"{"url": "https://nominatim.openstreetmap.org", "minimumInterval": 0.1}"#.utf8).write(to: file)
        #expect(GeocoderConfig.load(environment: env).config.minimumInterval == 1)

        for (text, words) in [("{\"url\": ", "not valid JSON"), ("[1]", "not a JSON object"), (#"{"kind": "google"}"#, "\"kind\""),
                              (#"{"url": "ftp://x"}"#, "\"url\""), (#"{"minimumInterval": "1"}"#, "\"minimumInterval\""),
                              (#"{"enabled": 1}"#, "\"enabled\"")] {
            try Data(text.utf8).write(to: file)
            let broken = GeocoderConfig.load(environment: env)
            #expect(broken.config == .standard)
            let problem = try #require(broken.problem, "\(text)")
            #expect(problem.hasPrefix(file.path) && problem.contains(words) && problem.contains("Nominatim's public instance"), "\(problem)")
        }
    }

    @Test func languageComesFromTheLocale() {
        #expect(GeocoderConfig.language(environment: ["LANG": "fi_FI.UTF-8"]) == "fi")
        #expect(GeocoderConfig.language(environment: ["LANG": "fi_FI.UTF-8", "LC_ALL": "de_DE"]) == "de")
        #expect(GeocoderConfig.language(environment: ["LANG": "C.UTF-8"]) == nil)
        #expect(GeocoderConfig.language(environment: ["LANG": "POSIX"]) == nil)
        #expect(GeocoderConfig.language(environment: ["LANG": "", "LC_MESSAGES": "sv_FI@euro"]) == "sv")
        #expect(GeocoderConfig.language(environment: [:]) == nil)
    }
}
