#!/usr/bin/python3
"""A day in ten minutes (make soak): drives the real window (release build, Xvfb 1280x800) for
MINUTES minutes with what a day of use does, over and over: pans, wheel zooms, map switches
(the embedded basemap, loopback raster tiles, the Helsinki street map), searches, a GPX track
opened through the file portal and closed from the list, pins dropped and dragged, and a live
position from a gpsd walking round central Helsinki, followed at times.

Every 30 s it reads the process's resident memory, open file descriptors and threads. After
the first minute and at the end it brings the same view back and holds it still (`rest`), and
says whether resident memory at rest grew more than 5 % between the two, and whether
descriptors or threads grew at all.

    scripts/soak.py [--minutes 10] [--binary .build/release/meridian]

Runs itself under a private session bus (dbus-run-session), where a stand-in file portal
answers Ctrl+O with the track."""
import argparse, os, random, shutil, signal, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURES = os.path.join(ROOT, "Tests/Fixtures")
WIDTH, HEIGHT = 1280, 800

PORTAL = r'''
import sys, dbus, dbus.service
from dbus.mainloop.glib import DBusGMainLoop
from gi.repository import GLib
DBusGMainLoop(set_as_default=True)
bus = dbus.SessionBus()
name = dbus.service.BusName("org.freedesktop.portal.Desktop", bus)
class Request(dbus.service.Object):
    @dbus.service.signal("org.freedesktop.portal.Request", signature="ua{sv}")
    def Response(self, code, results): pass
class Portal(dbus.service.Object):
    @dbus.service.method("org.freedesktop.portal.FileChooser", in_signature="ssa{sv}", out_signature="o", sender_keyword="sender")
    def OpenFile(self, parent, title, options, sender):
        path = "/org/freedesktop/portal/desktop/request/%s/%s" % (sender[1:].replace(".", "_"), options["handle_token"])
        request = Request(bus, path)
        def answer():
            request.Response(dbus.UInt32(0), {"uris": dbus.Array([sys.argv[1]], signature="s")})
            return False
        GLib.timeout_add(300, answer)
        return dbus.ObjectPath(path)
Portal(bus, "/org/freedesktop/portal/desktop")
print("ready", flush=True)
GLib.MainLoop().run()
'''


def write_track(path):
    """A 2,000-point walk through Helsinki, with times and elevations."""
    rng = random.Random(7)
    lat, lon, ele = 60.1650, 24.9200, 20.0
    points = []
    for i in range(2000):
        lat += rng.uniform(-0.00005, 0.00009)
        lon += rng.uniform(-0.00005, 0.00012)
        ele += rng.uniform(-0.4, 0.4)
        points.append('<trkpt lat="%.6f" lon="%.6f"><ele>%.1f</ele><time>2026-11-26T08:%02d:%02dZ</time></trkpt>'
                      % (lat, lon, ele, (i // 60) % 60, i % 60))
    with open(path, "w") as f:
        f.write('<?xml version="1.0"?>\n<gpx version="1.1" creator="soak" xmlns="http://www.topografix.com/GPX/1/1">'
                "<trk><name>Soak walk</name><trkseg>" + "".join(points) + "</trkseg></trk></gpx>\n")


class Soak:
    def __init__(self, args):
        self.args = args
        self.work = tempfile.mkdtemp(prefix="meridian-soak-")
        self.procs = []
        self.env = None
        self.pid = None

    def start(self, argv, **kw):
        p = subprocess.Popen(argv, **kw)
        self.procs.append(p)
        return p

    def xdotool(self, *a):
        subprocess.run(["xdotool"] + [str(x) for x in a], env=self.env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def setup(self):
        xvfb = self.start(["Xvfb", "-displayfd", "1", "-screen", "0", "%dx%dx24" % (WIDTH, HEIGHT), "-nolisten", "tcp", "-noreset"],
                          stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        display = ":" + xvfb.stdout.readline().decode().strip()
        w = self.work
        self.env = dict(os.environ, DISPLAY=display, WAYLAND_DISPLAY="", HOME=w, XDG_CACHE_HOME=w + "/cache", MERIDIAN_MEMORY_LOG="1",
                        XDG_STATE_HOME=w + "/state", XDG_DATA_HOME=w + "/data", XDG_CONFIG_HOME=w + "/config")
        if shutil.which("matchbox-window-manager"):
            self.start(["matchbox-window-manager", "-use_titlebar", "no"], env=self.env,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        tiles = self.start([sys.executable, os.path.join(FIXTURES, "tile-server.py")], stdout=subprocess.PIPE,
                           stderr=subprocess.DEVNULL)
        port = tiles.stdout.readline().decode().strip()
        gpsd = self.start([sys.executable, os.path.join(FIXTURES, "fake-gpsd.py"), "walk"], stdout=subprocess.PIPE,
                          stderr=subprocess.DEVNULL)
        gpsd_port = gpsd.stdout.readline().decode().strip()
        os.makedirs(w + "/config/meridian")
        with open(w + "/config/meridian/sources.json", "w") as f:
            f.write('{"sources": [{"name": "loop", "title": "Loopback streets", '
                    '"url": "http://127.0.0.1:%s/street/{z}/{x}/{y}.png", "maxZoom": 19}]}' % port)
        self.track_path = w + "/walk.gpx"
        write_track(self.track_path)
        with open(w + "/portal.py", "w") as f:
            f.write(PORTAL)
        portal = self.start(["/usr/bin/python3", w + "/portal.py", "file://" + self.track_path], stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, env=self.env)
        if b"ready" not in portal.stdout.readline():
            sys.exit("the stand-in portal did not start")
        self.log = open(w + "/stderr", "w+")
        self.app = self.start([self.args.binary, "--location-source", "gpsd:127.0.0.1:" + gpsd_port,
                               "--tiles", os.path.join(FIXTURES, "vector/helsinki.mbtiles"),
                               "--center", "60.1699,24.9384", "--zoom", "14"],
                              env=self.env, stdout=subprocess.DEVNULL, stderr=self.log)
        self.pid = self.app.pid
        deadline = time.time() + 30
        while time.time() < deadline and not self.window():
            time.sleep(0.2)
        if not self.window():
            sys.exit("no window appeared")
        self.xdotool("windowfocus", "--sync", self.window())

    def window(self):
        r = subprocess.run(["xdotool", "search", "--onlyvisible", "--name", "^Meridian"], env=self.env,
                           capture_output=True, text=True)
        ids = r.stdout.split()
        return ids[0] if ids else None

    def held(self):
        """What the tile and sprite stores said they hold the last time the loop slept."""
        self.log.seek(0)
        lines = [l for l in self.log.read().splitlines() if l.startswith("memory ")]
        if not lines:
            return ""
        f = lines[-1].split()
        return "tiles %s %.1f, under %s %.1f, sprites %s %.1f MiB" % (f[2], int(f[3]) / 1048576, f[5], int(f[6]) / 1048576,
                                                                  f[8], int(f[9]) / 1048576)

    def sample(self):
        status = {}
        with open("/proc/%d/status" % self.pid) as f:
            for line in f:
                k, _, v = line.partition(":")
                status[k] = v.split()
        fds = len(os.listdir("/proc/%d/fd" % self.pid))
        return int(status["VmRSS"][0]), int(status["VmHWM"][0]), fds, int(status["Threads"][0])

    # What a day does, one step at a time (each a few seconds).
    def pan(self, rng):
        x, y = rng.randint(300, 900), rng.randint(250, 550)
        self.xdotool("mousemove", x, y)
        self.xdotool("mousedown", 1)
        for _ in range(30):
            self.xdotool("mousemove_relative", "--", rng.randint(-12, 12), rng.randint(-8, 8))
            time.sleep(0.016)
        self.xdotool("mouseup", 1)

    def zoom(self, rng):
        self.xdotool("mousemove", rng.randint(300, 900), rng.randint(250, 550))
        n = rng.randint(2, 5)
        for b in [4] * n + [5] * n:
            self.xdotool("click", b)
            time.sleep(0.15)

    def switch_map(self, rng):
        # 1 the basemap, 5 the loopback streets (sources.json), 6 the Helsinki street map.
        self.xdotool("key", rng.choice(["1", "5", "6", "6"]))
        time.sleep(1.5)

    def search(self, rng):
        self.xdotool("key", "slash")
        time.sleep(0.3)
        self.xdotool("type", "--delay", 60, rng.choice(["Helsinki", "Tampere", "Paris", "60.17, 24.94"]))
        time.sleep(0.5)
        self.xdotool("key", "Return")
        time.sleep(2.5)
        self.xdotool("key", "Escape")
        time.sleep(0.3)
        # Back where the position walks.
        self.xdotool("key", "f")
        time.sleep(1.5)

    def track(self, rng):
        self.xdotool("key", "ctrl+o")
        time.sleep(2.5)
        self.xdotool("key", "t")
        time.sleep(0.8)
        # The ✕ of the second row, then of the first (the list ends 54 points from the right
        # edge, its rows 20 apart from 78): the track and the trail, in either order (the
        # trail comes back at the next fix).
        for y in (108, 88):
            self.xdotool("mousemove", WIDTH - 67, y)
            self.xdotool("click", 1)
            time.sleep(0.5)
        self.xdotool("key", "Escape")

    def pins(self, rng):
        x, y = rng.randint(300, 900), rng.randint(250, 550)
        self.xdotool("mousemove", x, y)
        self.xdotool("click", 3)
        time.sleep(0.6)
        self.xdotool("key", "Escape")
        self.xdotool("mousemove", x, y - 26)
        time.sleep(0.15)
        self.xdotool("mousedown", 1)
        time.sleep(0.45)
        for _ in range(10):
            self.xdotool("mousemove_relative", "--", 6, 3)
            time.sleep(0.02)
        self.xdotool("mouseup", 1)
        time.sleep(0.3)

    def follow(self, rng):
        self.xdotool("key", "f")
        time.sleep(4)
        self.xdotool("key", "f")

    def rest(self):
        """The same view every time (the Helsinki street map at the start's place), held still
        a while: its memory is comparable from one rest to the next, as a busy moment's is not."""
        self.xdotool("key", "Escape")
        self.xdotool("key", "6")
        time.sleep(1.5)
        self.xdotool("key", "slash")
        time.sleep(0.3)
        self.xdotool("type", "--delay", 60, "60.1699, 24.9384")
        self.xdotool("key", "Return")
        time.sleep(1)
        self.xdotool("key", "Escape")
        time.sleep(12)
        return (0.0,) + self.sample()

    def run(self):
        self.setup()
        rng = random.Random(1)
        steps = [self.pan, self.zoom, self.switch_map, self.pan, self.search, self.zoom, self.track, self.pins,
                 self.follow, self.switch_map]
        start = time.time()
        end = start + self.args.minutes * 60
        samples = [(0.0,) + self.sample()]
        print("  time    RSS MiB   peak MiB   fds   threads")
        print("  %4.0f s  %7.1f   %7.1f   %4d   %4d" % (0, samples[0][1] / 1024, samples[0][2] / 1024, samples[0][3], samples[0][4]),
              flush=True)
        next_sample = start + 30
        i = 0
        rests = []
        while time.time() < end:
            if not rests and time.time() >= start + 60:
                rests.append(self.rest())
                print("  rest after the first minute: %.1f MiB, %d fds, %d threads; %s"
                      % (rests[0][1] / 1024, rests[0][3], rests[0][4], self.held()), flush=True)
            if self.app.poll() is not None:
                self.log.seek(0)
                sys.exit("the app ended (%s): %s" % (self.app.returncode, self.log.read()[-2000:]))
            steps[i % len(steps)](rng)
            if self.args.shots and i < len(steps):
                # What each step left on screen, once, to look at.
                subprocess.run(["import", "-window", "root", os.path.join(self.args.shots, "%02d-%s.png" % (i, steps[i].__name__))],
                               env=self.env, stderr=subprocess.DEVNULL)
            i += 1
            if time.time() >= next_sample:
                s = (time.time() - start,) + self.sample()
                samples.append(s)
                print("  %4.0f s  %7.1f   %7.1f   %4d   %4d   %s" % (s[0], s[1] / 1024, s[2] / 1024, s[3], s[4], self.held()), flush=True)
                next_sample += 30
        rests.append(self.rest())
        print("  rest at the end: %.1f MiB, %d fds, %d threads; %s" % (rests[-1][1] / 1024, rests[-1][3], rests[-1][4], self.held()),
              flush=True)
        return self.report(samples, rests, i)

    def report(self, samples, rests, steps):
        # Like with like: the same view at rest after the first minute and at the end. The
        # samples every 30 s show the busy moments (their peak is printed too).
        first, last = rests[0], rests[-1]
        growth = (last[1] - first[1]) / first[1] * 100
        busy = [s[1] for s in samples if s[0] >= 55]
        if busy:
            print("busy samples after the first minute: %.1f–%.1f MiB (first minute up to %.1f)"
                  % (min(busy) / 1024, max(busy) / 1024, max(s[1] for s in samples if s[0] < 55) / 1024))
        fd_growth, thread_growth = last[3] - first[3], last[4] - first[4]
        print("%d steps in %.0f minutes; at rest, after the first minute and at the end, resident memory went %.1f → %.1f MiB (%+.1f %%), "
              "file descriptors %d → %d, threads %d → %d; peak %.1f MiB"
              % (steps, self.args.minutes, first[1] / 1024, last[1] / 1024, growth, first[3], last[3], first[4], last[4],
                 last[2] / 1024))
        self.log.seek(0)
        problems = [l for l in self.log.read().splitlines() if not l.startswith("memory ") and ("fatal" in l.lower() or "error" in l.lower())]
        for l in problems[:10]:
            print("  the app said: " + l)
        ok = growth <= 5 and fd_growth <= 0 and thread_growth <= 0
        print("PASS" if ok else "FAIL: " + ", ".join(
            w for w, bad in (("memory grew more than 5 %", growth > 5), ("file descriptors leak", fd_growth > 0),
                             ("threads leak", thread_growth > 0)) if bad))
        return ok

    def stop(self):
        for p in reversed(self.procs):
            if p.poll() is None:
                p.send_signal(signal.SIGTERM)
                try:
                    p.wait(5)
                except subprocess.TimeoutExpired:
                    p.kill()
        shutil.rmtree(self.work, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser(description="Drive the window for a while and watch its memory, descriptors and threads.")
    ap.add_argument("--minutes", type=float, default=10)
    ap.add_argument("--binary", default=os.path.join(ROOT, ".build/release/meridian"))
    ap.add_argument("--shots", help="a folder for a screenshot after each kind of step (first round only)")
    args = ap.parse_args()
    if not os.environ.get("MERIDIAN_SOAK_BUS"):
        # A private session bus for the stand-in portal (and nothing else of the desktop's).
        os.execvp("dbus-run-session", ["dbus-run-session", "--", "env", "MERIDIAN_SOAK_BUS=1", sys.executable] + sys.argv)
    soak = Soak(args)
    try:
        ok = soak.run()
    finally:
        soak.stop()
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
