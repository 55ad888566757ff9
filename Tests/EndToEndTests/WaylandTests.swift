import Foundation
import Testing

/// A smoke run on a real Wayland compositor: headless sway, as an unprivileged user (sway
/// refuses root), with its own XDG_RUNTIME_DIR.
@Suite(.serialized)
struct WaylandTests {
    static let user = "meridian-test"

    /// Runs a shell script as the test user, or as ourselves when we are not root.
    func asUser(_ script: String, timeout: Double = 60) throws -> RunResult {
        if getuid() == 0 {
            if try run("/usr/bin/id", [Self.user]).status != 0 {
                let r = try run("/usr/sbin/useradd", ["--system", "--create-home", "--shell", "/bin/sh", Self.user])
                guard r.status == 0 else { throw HarnessError("useradd: \(r.stderr)") }
            }
            return try run("/usr/sbin/runuser", ["-u", Self.user, "--", "/bin/sh", "-c", script], timeout: timeout)
        }
        return try run("/bin/sh", ["-c", script], timeout: timeout)
    }

    @Test func opensRendersAndQuitsUnderHeadlessSway() throws {
        guard which("sway") != nil else { throw HarnessError("sway is not installed (make test installs it)") }
        let work = temporaryDirectory("wayland")
        defer { try? FileManager.default.removeItem(at: work) }
        try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: work.path)
        // The checkout may live where the test user cannot read (CI clones under /root): run a copy.
        let bin = work.appendingPathComponent("meridian").path
        try FileManager.default.copyItem(atPath: meridianBinary, toPath: bin)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: bin)
        // Starts sway, waits for its socket, runs meridian on it, then (once it has presented a
        // frame) asks it to quit by closing its window through sway's IPC; prints the driver
        // meridian chose. The sleeps are polls.
        let script = """
        set -u
        export XDG_RUNTIME_DIR=\(work.path)/run; mkdir -p -m 700 "$XDG_RUNTIME_DIR"
        export WLR_BACKENDS=headless WLR_LIBINPUT_NO_DEVICES=1 WLR_RENDERER=pixman
        printf 'output HEADLESS-1 resolution 1024x768\\n' > \(work.path)/sway.conf
        unset DISPLAY WAYLAND_DISPLAY SWAYSOCK
        sway -c \(work.path)/sway.conf > \(work.path)/sway.log 2>&1 &
        SWAY=$!
        for i in $(seq 1 300); do ls "$XDG_RUNTIME_DIR"/wayland-* >/dev/null 2>&1 && break; sleep 0.1; done
        export WAYLAND_DISPLAY=$(basename $(ls "$XDG_RUNTIME_DIR"/wayland-? | head -1))
        export SWAYSOCK=$(ls "$XDG_RUNTIME_DIR"/sway-ipc.* | head -1)
        XDG_STATE_HOME=\(work.path)/state MERIDIAN_REPORT_DRIVER=1 MERIDIAN_FRAME_LOG=1 \(bin) --center 10,10 --zoom 4 --size 640x480 --tiles debug > \(work.path)/app.log 2>&1 &
        APP=$!
        for i in $(seq 1 300); do swaymsg -t get_tree 2>/dev/null | grep -q '"app_id": "io.github.meridian.Meridian"' && break; sleep 0.1; done
        swaymsg -t get_tree | grep -o '"app_id": "[A-Za-z.]*"' | head -3
        for i in $(seq 1 300); do grep -q '^present ' \(work.path)/app.log && break; sleep 0.1; done
        grep -q '^present ' \(work.path)/app.log || echo "NO FRAME"
        swaymsg '[app_id="io.github.meridian.Meridian"] kill' > /dev/null
        for i in $(seq 1 300); do kill -0 $APP 2>/dev/null || break; sleep 0.1; done
        if kill -0 $APP 2>/dev/null; then echo "STILL RUNNING"; kill -9 $APP; fi
        wait $APP; echo "APP EXIT $?"
        kill $SWAY; wait $SWAY 2>/dev/null
        grep -v '^present \\|^frame-cpu \\|^idle \\|^quit ' \(work.path)/app.log
        """
        let r = try asUser(script, timeout: 150)
        #expect(r.stdout.contains(#""app_id": "io.github.meridian.Meridian""#), "window not seen by sway:\n\(r.stdout)\n\(r.stderr)")
        #expect(r.stdout.contains("APP EXIT 0"), "\(r.stdout)\n\(r.stderr)")
        #expect(r.stdout.contains("video driver: wayland"), "\(r.stdout)")
        #expect(!r.stdout.contains("NO FRAME"), "\(r.stdout)")
        #expect(!r.stdout.contains("STILL RUNNING"))
        #expect(FileManager.default.fileExists(atPath: work.appendingPathComponent("state/meridian/view.json").path))
    }
}
