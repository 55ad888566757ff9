import CGio
import FoundationEssentials
import Glibc
import MapPosition
import Platform

/// Ctrl+P: printing through the desktop's print dialog, the XDG desktop portal's Print
/// interface: PreparePrint shows the dialog (printer, copies), then Print hands it the page
/// as a PDF file descriptor. Runs on a thread of its own.
enum PortalPrint {
    enum Outcome: Sendable {
        case printed
        case cancelled
        /// No print portal: why (the caller offers the PDF instead).
        case unavailable(String)
    }

    private static let interface = "org.freedesktop.portal.Print"

    /// Prints the PDF at `path`; `done` is called once, on the printing thread.
    static func print(title: String, pdf path: String, done: @escaping @Sendable (Outcome) -> Void) {
        startThread(name: "print") { done(run(title: title, pdf: path)) }
    }

    private static func run(title: String, pdf path: String) -> Outcome {
        // (parent_window, title, settings, page_setup, options): the dialog first.
        let prepared = PortalRequest.ask(interface, "PreparePrint") { token in
            GDBus.tuple([g_variant_new_string(""), g_variant_new_string(title), GDBus.array("{sv}", []), GDBus.array("{sv}", []),
                         GDBus.array("{sv}", [GDBus.entry("handle_token", g_variant_new_string(token))])])
        }
        let printToken: UInt32
        switch prepared {
        case let .failure(e): return .unavailable(e.reason)
        case let .success(answer):
            defer { if let r = answer.results { g_variant_unref(r) } }
            guard answer.code == 0 else { return .cancelled }
            printToken = answer.results.flatMap { GDBus.lookup($0, "token") }.flatMap(GDBus.uint32) ?? 0
        }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return .unavailable("\(path): \(FileIO.reason())") }
        defer { close(fd) }
        // (parent_window, title, fd, options): the page, with the dialog's token.
        let printed = PortalRequest.ask(interface, "Print", fd: fd) { token in
            GDBus.tuple([g_variant_new_string(""), g_variant_new_string(title), g_variant_new_handle(0),
                         GDBus.array("{sv}", [GDBus.entry("handle_token", g_variant_new_string(token)),
                                             GDBus.entry("token", g_variant_new_uint32(printToken))])])
        }
        switch printed {
        case let .failure(e): return .unavailable(e.reason)
        case let .success(answer):
            if let r = answer.results { g_variant_unref(r) }
            return answer.code == 0 ? .printed : .cancelled
        }
    }
}
