import ArgumentParser
import CSystem
import FoundationEssentials
import Glibc
import MapNetwork
import MapTiles
import MapWindow
import MeridianKit
import Platform

@main
struct Meridian: ParsableCommand {
    static let version = "0.1.0"
    static let configuration = CommandConfiguration(
        commandName: "meridian",
        abstract: tr("A map viewer for the Linux desktop."),
        discussion: tr("Drag to pan (flick to glide), scroll to zoom around the pointer, double-click to zoom in (Shift: out), arrow keys pan, +/- zoom, L chooses the map, F follows the position, F11 fullscreen, Ctrl+Q quits."),
        version: version,
        subcommands: [Open.self, Render.self, Extract.self, Search.self, RouteCommand.self, Info.self, Bench.self],
        defaultSubcommand: Open.self)

    static func main() {
        meridian_tune_malloc()
        // A file size limit must be an error the writer handles (a save says the disk is
        // full and keeps what it has), not a killing signal.
        signal(SIGXFSZ, SIG_IGN)
        SDL.identity = SDL.Identity(appID: "io.github.meridian.Meridian", name: "Meridian", quitsOnSignals: true)
        let env = ProcessInfo.processInfo.environment
        Resources.directory = env["MERIDIAN_DATA_DIR"]
        Localization.start(domain: "meridian", directories: env["MERIDIAN_LOCALE_DIR"].map { [$0] } ?? Resources.localeDirectories, environment: env)
        if AppSettings.read(folder: catalog.settings.configFolder, warn: warn).offline == true { catalog.isOffline = true }
        do {
            var command = try parseAsRoot(nil)
            try command.run()
        } catch {
            // ArgumentParser's own words (USAGE:, OPTIONS: …) in the reader's language too.
            let code = exitCode(for: error)
            let message = HelpText.translated(fullMessage(for: error))
            if !message.isEmpty {
                if code == .success { print(message) } else { FileIO.printError(message) }
            }
            Glibc.exit(code.rawValue)
        }
    }

    /// The app's catalogue of maps, made once with its settings (first asked for in `main`,
    /// after the resources and the locale are set): handed to what makes maps.
    static let catalog = MapCatalog(settings: catalogSettings(ProcessInfo.processInfo.environment))

    /// Who Meridian says it is to tile servers, where its sources.json and tile cache are, and
    /// that the catalogue's problems are said on stderr.
    static func catalogSettings(_ env: [String: String]) -> MapCatalog.Settings {
        var s = MapCatalog.Settings()
        s.userAgent = userAgent
        s.configFolder = FileIO.userFolder("XDG_CONFIG_HOME", else: ".config", environment: env) + "/meridian"
        s.cacheRoot = TileDiskCache.defaultRoot(environment: env)
        s.savedAreasFolder = SavedArea.folder(environment: env)
        s.warn = { warn($0) }
        if env["MERIDIAN_HTTP_LOG"] != nil { s.httpLog = { FileIO.printError("http " + $0) } }
        return s
    }

    /// Who asks, on every request: tile servers block library defaults.
    static let userAgent = "Meridian/\(version) (+https://github.com/meridian-maps/meridian)"
}

/// `--overlay NAME` or `NAME@OPACITY` (0.05…1).
extension OverlayRequest: ExpressibleByArgument {}

extension StyleChoice {
    /// Dark also where the desktop prefers dark (the settings portal), for the built-in style.
    func followingDesktop() -> StyleChoice {
        var c = self
        if path == nil, !dark { c.dark = Self.desktopPrefersDark }
        return c
    }

    /// Asked once, when a window first needs it.
    private static let desktopPrefersDark = DesktopColorScheme.prefersDark()
}

/// Prints a message for a person on stderr.
func warn(_ message: String) {
    FileIO.printError("meridian: \(message)")
}
