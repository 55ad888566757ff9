"""The map scenario peer-bench measures, for the scripts that look inside it (memory-account.py,
hot-code.py): Xvfb at 1280x800 with one undecorated window (matchbox), the loopback tile server,
a private session bus, and Meridian on the street tiles at zoom 6, its stderr kept in a file.

    with MapScenario(binary, wrapper=["valgrind", ...]) as s:
        s.wait_for("memory ", 30); s.pid(); s.xdotool("click", "4")"""
import os, re, shutil, signal, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class MapScenario:
    def __init__(self, binary, wrapper=(), env=None, args=()):
        self.binary, self.wrapper, self.extra_env, self.extra_args = binary, list(wrapper), env or {}, list(args)
        self.procs = []

    def __enter__(self):
        self.work = tempfile.mkdtemp(prefix="meridian-scenario-")
        try:
            self._start()
        except BaseException:
            self.__exit__(None, None, None)
            raise
        return self

    def _start(self):
        xvfb = subprocess.Popen(["Xvfb", "-displayfd", "1", "-screen", "0", "1280x800x24", "-nolisten", "tcp", "-noreset"],
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.procs.append(xvfb)
        display = ":" + xvfb.stdout.readline().decode().strip()
        w = self.work
        self.env = dict(os.environ, DISPLAY=display, HOME=w, XDG_CACHE_HOME=w + "/cache", XDG_STATE_HOME=w + "/state",
                        XDG_DATA_HOME=w + "/data", XDG_CONFIG_HOME=w + "/config", MERIDIAN_MEMORY_LOG="1",
                        WAYLAND_DISPLAY="", **self.extra_env)
        if shutil.which("matchbox-window-manager"):  # one 1280x800 window, as peer-bench has
            self.procs.append(subprocess.Popen(["matchbox-window-manager", "-use_titlebar", "no"], env=self.env,
                                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        server = subprocess.Popen([sys.executable, os.path.join(ROOT, "Tests/Fixtures/tile-server.py")],
                                  stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.procs.append(server)
        self.port = server.stdout.readline().decode().strip()
        args = self.wrapper + [self.binary, "--no-location", "--tiles", f"http://127.0.0.1:{self.port}/street/{{z}}/{{x}}/{{y}}.png",
                               "--center", "47.0,8.0", "--zoom", "6"] + self.extra_args
        if shutil.which("dbus-run-session"):  # a session bus, as a desktop has
            args = ["dbus-run-session", "--"] + args
        self.log_file = open(os.path.join(self.work, "stderr"), "w+")
        self.app = subprocess.Popen(args, env=self.env, stderr=self.log_file, stdout=subprocess.DEVNULL)
        self.procs.append(self.app)
        self.started = time.time()

    def log(self):
        self.log_file.seek(0)
        return self.log_file.read()

    def pid(self, pattern=None):
        """The app's process (under dbus-run-session and any wrapper): the newest matching `pattern`."""
        pattern = pattern or "^" + re.escape(self.binary)
        out = subprocess.run(["pgrep", "-n", "-f", pattern], capture_output=True, text=True).stdout.split()
        return out[0] if out else None

    def wait_for(self, text, seconds, at_least=0):
        """Until the app has written `text` on stderr (and `at_least` seconds have passed since it
        started); whether it has."""
        deadline = time.time() + seconds
        while time.time() < deadline:
            if text in self.log() and time.time() >= self.started + at_least:
                return True
            if self.app.poll() is not None:
                return False
            time.sleep(0.2)
        return False

    def xdotool(self, *args):
        subprocess.run(["xdotool"] + list(args), env=self.env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def __exit__(self, *exc):
        for p in reversed(self.procs):
            p.send_signal(signal.SIGTERM)
            try:
                p.wait(5)
            except subprocess.TimeoutExpired:
                p.kill()
        shutil.rmtree(self.work, ignore_errors=True)
