#!/usr/bin/python3
"""A loopback stand-in for FOSSGIS's OSRM (routing.openstreetmap.de) for the tests: answers
GET /routed-{car,bike,foot}/route/v1/{any}/LON,LAT;LON,LAT[;...] with the answers in routing/
and misbehaves when told to. Every route request is recorded with the time it arrived (the
monotonic clock), its path and User-Agent, for /log. Prints its port on the first line of
stdout once it accepts connections.

A route answer is routing/osrm-helsinki-{car,bike,foot}.json (by the path's profile) moved
onto the asked points: each pair of consecutive points gets a copy of the answer's one leg
whose first and last geometry points, depart/arrive maneuver locations (and their first
intersection) are the asked points, the middle kept as it is (central Helsinki); the
route's geometry is the legs' joined, its distance/duration/weight their sums, and there is one
waypoint per asked point at that point. So n points give n-1 legs, as OSRM does. steps=false
empties the steps (and summary), overview=false drops the route geometry; the geometry is
GeoJSON whatever `geometries` says. A path that does not parse answers OSRM's 400 InvalidUrl,
one point 400 InvalidOptions, a point out of range 400 InvalidValue, with OSRM's messages.

What the next answers are (the mode), until changed: the first argument or the environment's
ROUTING_SERVER_MODE at start (else normal), then GET /mode?set=MODE[&times=N] or POST /mode
with the body MODE or {"mode": MODE, "times": N} (or the same query). With times=N only the
next N route requests get MODE, then it is normal again. GET /mode answers {"mode", "times"}.
  normal     200, the route as above
  busy       429 with Retry-After: 2 (an HTML page, as FOSSGIS's rate limiter sends)
  busy-date  429 with Retry-After as an HTTP date 2 s ahead
  broken     500
  garbage    200 with an HTML page
  huge       200 with 3 MiB of JSON
  silent     no answer at all (the connection is held for a minute)
  noroute    400 with routing/osrm-noroute.json (OSRM sends NoRoute with HTTP 400)
  nosegment  400 with routing/osrm-nosegment.json
GET /log answers the record as JSON ([{"t", "path", "profile", "ua", "mode"}]);
GET /log?clear=1 answers it and empties it."""
import copy, email.utils, http.server, json, os, re, sys, threading, time, urllib.parse

here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "routing")
MODES = ("normal", "busy", "busy-date", "broken", "garbage", "huge", "silent", "noroute", "nosegment")
log = []
lock = threading.Lock()
state = {"mode": (sys.argv[1:] or [os.environ.get("ROUTING_SERVER_MODE") or "normal"])[0], "times": None}
if state["mode"] not in MODES:
    sys.exit("unknown mode %r (one of %s)" % (state["mode"], ", ".join(MODES)))
ROUTE = re.compile(r"/routed-(car|bike|foot)/route/v1/[^/]+/(.*)")
JSON_TYPE = [("Content-Type", "application/json; charset=UTF-8"), ("Access-Control-Allow-Origin", "*")]
BLOCKED = (b"<!DOCTYPE html>\n<html><head><title>Too Many Requests</title></head><body>\n"
           b"<h1>Bandwidth limit exceeded</h1><p>You have been temporarily blocked: one request per "
           b"second max. Send a valid User-Agent.</p></body></html>\n")


def answer(name):
    with open(os.path.join(here, name), "rb") as f:
        return f.read()


def take_mode():
    """The mode for this request, counting down a limited one."""
    with lock:
        mode = state["mode"]
        if state["times"] is not None:
            state["times"] -= 1
            if state["times"] <= 0:
                state["mode"], state["times"] = "normal", None
        return mode


def route(profile, points, steps, overview):
    base = json.loads(answer("osrm-helsinki-%s.json" % profile))
    first, wps = base["routes"][0], base["waypoints"]
    legs, line = [], []
    for a, b in zip(points, points[1:]):
        leg = copy.deepcopy(first["legs"][0])
        depart, arrive = leg["steps"][0], leg["steps"][-1]
        depart["geometry"]["coordinates"][0] = depart["maneuver"]["location"] = a
        depart["intersections"][0]["location"] = a
        leg["steps"][-2]["geometry"]["coordinates"][-1] = b
        arrive["geometry"]["coordinates"] = [b, b]
        arrive["maneuver"]["location"] = arrive["intersections"][0]["location"] = b
        if not steps:
            leg["steps"], leg["summary"] = [], ""
        legs.append(leg)
        middle = first["geometry"]["coordinates"][1:-1]
        line += ([] if line else [a]) + middle + [b]
    r = dict(first, legs=legs, geometry={"type": "LineString", "coordinates": line})
    for k in ("distance", "duration", "weight"):
        r[k] = round(sum(leg[k] for leg in legs), 1)
    if overview == "false":
        del r["geometry"]
    waypoints = [dict(wps[0 if i == 0 else -1], location=p) for i, p in enumerate(points)]
    return {"code": "Ok", "routes": [r], "waypoints": waypoints}


def points_of(text):
    """[[lon, lat], ...] from "lon,lat;lon,lat", or an OSRM error (code, message)."""
    pts = []
    for i, pair in enumerate(text.split(";")):
        m = re.fullmatch(r"(-?\d+(?:\.\d*)?),(-?\d+(?:\.\d*)?)", pair)
        if not m:
            at = len(";".join(text.split(";")[:i])) + (1 if i else 0)
            return "InvalidUrl", 'URL string malformed close to position %d: "%s"' % (at, pair[:6])
        lon, lat = float(m.group(1)), float(m.group(2))
        if not (-180 <= lon <= 180 and -90 <= lat <= 90):
            return "InvalidValue", "Invalid coordinate value."
        pts.append([round(lon, 6), round(lat, 6)])
    if len(pts) < 2:
        return "InvalidOptions", "Number of coordinates needs to be at least two."
    return pts


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True

    def log_message(self, *args):
        pass

    def send(self, status, body=b"", headers=()):
        self.send_response(status)
        for k, v in headers:
            self.send_header(k, v)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def set_mode(self, mode, times):
        if mode not in MODES:
            return self.send(400, json.dumps({"error": "unknown mode %r" % mode, "modes": MODES}).encode(), JSON_TYPE)
        try:
            times = int(times) if times not in (None, "") else None
        except ValueError:
            return self.send(400, b'{"error": "times is not a number"}', JSON_TYPE)
        with lock:
            state["mode"], state["times"] = mode, times
            body = json.dumps(state).encode()
        return self.send(200, body, JSON_TYPE)

    def do_POST(self):
        url = urllib.parse.urlsplit(self.path)
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0)).decode("utf-8", "replace").strip()
        if url.path != "/mode":
            return self.send(404, b"unknown")
        q = {k: v[0] for k, v in urllib.parse.parse_qs(url.query).items()}
        try:
            given = json.loads(body) if body.startswith("{") else {"mode": body} if body else {}
        except ValueError:
            return self.send(400, b'{"error": "not JSON"}', JSON_TYPE)
        q.update({("set" if k == "mode" else k): v for k, v in given.items()})
        return self.set_mode(q.get("set"), q.get("times"))

    def do_GET(self):
        arrived = time.monotonic()
        url = urllib.parse.urlsplit(self.path)
        q = {k: v[0] for k, v in urllib.parse.parse_qs(url.query).items()}
        if url.path == "/log":
            with lock:
                body = json.dumps(log).encode()
                if q.get("clear") not in (None, "", "0"):
                    log.clear()
            return self.send(200, body, [("Content-Type", "application/json")])
        if url.path == "/mode":
            if "set" in q:
                return self.set_mode(q["set"], q.get("times"))
            with lock:
                body = json.dumps(state).encode()
            return self.send(200, body, JSON_TYPE)
        m = ROUTE.fullmatch(url.path)
        if not m:
            return self.send(404, b"unknown")
        mode = take_mode()
        with lock:
            log.append({"t": arrived, "path": self.path, "profile": m.group(1),
                        "ua": self.headers.get("User-Agent") or "", "mode": mode})
        if mode == "busy":
            return self.send(429, BLOCKED, [("Content-Type", "text/html"), ("Retry-After", "2")])
        if mode == "busy-date":
            return self.send(429, BLOCKED, [("Content-Type", "text/html"),
                                            ("Retry-After", email.utils.formatdate(time.time() + 2, usegmt=True))])
        if mode == "broken":
            return self.send(500, b"Internal Server Error")
        if mode == "garbage":
            return self.send(200, b"<html><body><h1>502 Bad Gateway</h1></body></html>", [("Content-Type", "text/html")])
        if mode == "huge":
            return self.send(200, b'{"code":"Ok","routes":[' + b" " * (3 << 20) + b'],"waypoints":[]}', JSON_TYPE)
        if mode == "silent":
            time.sleep(60)
            self.close_connection = True
            return
        if mode in ("noroute", "nosegment"):
            return self.send(400, answer("osrm-%s.json" % mode), JSON_TYPE)
        points = points_of(urllib.parse.unquote(m.group(2)))
        if isinstance(points, tuple):
            return self.send(400, json.dumps({"code": points[0], "message": points[1]}).encode(), JSON_TYPE)
        body = route(m.group(1), points, q.get("steps") == "true", q.get("overview", "simplified"))
        return self.send(200, json.dumps(body, separators=(",", ":"), ensure_ascii=False).encode(), JSON_TYPE)


# (The script's folder is on the module path: the shared server sits beside it.)
from loopback_server import serve

serve(Handler)
