import ArgumentParser
import CSystem
import FoundationEssentials
import Glibc
import MapWindow
import MeridianKit
import Platform

@main
struct Meridian: ParsableCommand {
    static let version = "0.1.0"
    static let configuration = CommandConfiguration(
        commandName: "meridian",
        abstract: "A map viewer for the Linux desktop.",
        discussion: """
        Drag to pan (flick to glide), scroll to zoom around the pointer, double-click to zoom in
        (Shift: out), arrow keys pan, +/- zoom, L chooses the map, F follows the position, F11 fullscreen, Ctrl+Q quits.
        """,
        version: version,
        subcommands: [Open.self, Render.self, Extract.self, Search.self, Bench.self],
        defaultSubcommand: Open.self)

    static func main() {
        meridian_tune_malloc()
        // A file size limit must be an error the writer handles (a save says the disk is
        // full and keeps what it has), not a killing signal.
        signal(SIGXFSZ, SIG_IGN)
        SDL.identity = SDL.Identity(appID: "io.github.meridian.Meridian", name: "Meridian", quitsOnSignals: true)
        Resources.directory = ProcessInfo.processInfo.environment["MERIDIAN_DATA_DIR"]
        main(nil)
    }
}

/// Prints a message for a person on stderr.
func warn(_ message: String) {
    FileIO.printError("meridian: \(message)")
}
