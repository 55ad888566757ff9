import Foundation
import Testing

@Suite(.serialized)
struct CommandLineTests {
    @Test func versionAndHelp() throws {
        let v = try run(meridianBinary, ["--version"])
        #expect(v.status == 0)
        #expect(v.stdout.range(of: #"^\d+\.\d+\.\d+\s*$"#, options: .regularExpression) != nil)
        let h = try run(meridianBinary, ["--help"])
        #expect(h.status == 0)
        for word in ["render", "bench", "Ctrl+Q"] { #expect(h.stdout.contains(word)) }
        let rh = try run(meridianBinary, ["render", "--help"])
        for word in ["--size", "--scale", "--at", "--out", "--center", "--zoom", "--tiles"] { #expect(rh.stdout.contains(word)) }
    }

    /// Bad arguments: a clear message, the parser's usage exit code (64), and no window —
    /// DISPLAY points nowhere, so reaching SDL would fail differently.
    @Test("Invalid arguments are refused clearly", arguments: [
        (["--zoom", "99"], "--zoom"),
        (["--zoom", "abc"], "zoom"),
        (["--center", "95,0"], "center"),
        (["--center", "1"], "center"),
        (["--size", "0x10"], "size"),
        (["--tiles", "/nonexistent/tiles"], "/nonexistent/tiles"),
        (["render", "--size", "100x100"], "--out"),
        (["render", "--size", "100x100", "--out", "x.png", "--scale", "9"], "--scale"),
        (["--frobnicate"], "frobnicate"),
    ])
    func invalidArguments(args: [String], mentions: String) throws {
        let r = try run(meridianBinary, args, env: ["DISPLAY": ":9999", "WAYLAND_DISPLAY": ""])
        #expect(r.status == 64, "status \(r.status): \(r.stderr)")
        #expect(r.stderr.contains(mentions), "stderr: \(r.stderr)")
        #expect(!r.stderr.contains("Fatal error"))
    }

    @Test func aMissingDisplayIsAClearErrorNotACrash() throws {
        let r = try run(meridianBinary, ["--zoom", "3"], env: ["DISPLAY": ":9999", "WAYLAND_DISPLAY": "", "XDG_STATE_HOME": temporaryDirectory("nodisplay").path])
        #expect(r.status == 1)
        #expect(r.stderr.contains("display"))
    }
}
