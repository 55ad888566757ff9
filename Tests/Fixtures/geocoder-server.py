#!/usr/bin/python3
"""A loopback stand-in for a geocoder (Nominatim's /search, Photon's /api) for the tests: answers
with the answers in geocoder/ and misbehaves when the query asks it to. Every search is
recorded with the time it arrived (the monotonic clock), for /log. Prints its port on the
first line of stdout once it accepts connections.

Queries that misbehave (the whole query, any case):
  busy         429 with Retry-After: 2
  busy-date    429 with Retry-After as an HTTP date 2 s ahead
  broken       500
  garbage      200 with an HTML page
  huge         200 with 3 MiB of JSON
  silent       no answer at all (the connection is held for a minute)
  refuse       400 with Nominatim's JSON error
/reverse (what is at a point) answers the first place of
geocoder/nominatim-aleksanterinkatu-52.json, alone, as Nominatim's /reverse does.
Any other query: /search answers geocoder/nominatim-aleksanterinkatu-52.json when the query
mentions Aleksanterinkatu, else geocoder/nominatim-helsinki.json; /api answers
geocoder/photon-aleksanterinkatu-52.json."""
import email.utils, http.server, json, os, sys, threading, time, urllib.parse

here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "geocoder")
log = []
log_lock = threading.Lock()


def answer(name):
    with open(os.path.join(here, name), "rb") as f:
        return f.read()


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

    def do_GET(self):
        arrived = time.monotonic()
        url = urllib.parse.urlsplit(self.path)
        if url.path == "/log":
            with log_lock:
                return self.send(200, json.dumps(log).encode(), [("Content-Type", "application/json")])
        if url.path not in ("/search", "/api", "/reverse"):
            return self.send(404, b"unknown")
        q = urllib.parse.parse_qs(url.query).get("q", [""])[0]
        with log_lock:
            log.append({"t": arrived, "path": self.path, "q": q, "ua": self.headers.get("User-Agent") or "",
                        "lang": self.headers.get("Accept-Language")})
        kind = q.lower()
        json_type = [("Content-Type", "application/json; charset=utf-8")]
        if kind == "busy":
            return self.send(429, b"Too Many Requests", [("Retry-After", "2")])
        if kind == "busy-date":
            return self.send(429, b"Too Many Requests", [("Retry-After", email.utils.formatdate(time.time() + 2, usegmt=True))])
        if kind == "broken":
            return self.send(500, b"Internal Server Error")
        if kind == "garbage":
            return self.send(200, b"<html><body><h1>502 Bad Gateway</h1></body></html>", [("Content-Type", "text/html")])
        if kind == "huge":
            return self.send(200, b"[" + b" " * (3 << 20) + b"]", json_type)
        if kind == "silent":
            time.sleep(60)
            return
        if kind == "refuse":
            body = {"error": {"code": 400, "message": "Nothing to search for."}}
            return self.send(400, json.dumps(body).encode(), json_type)
        if url.path == "/reverse":
            # Nominatim's /reverse answers one place: the first of the Aleksanterinkatu answer.
            one = json.loads(answer("nominatim-aleksanterinkatu-52.json"))[0]
            return self.send(200, json.dumps(one).encode(), json_type)
        if url.path == "/api":
            return self.send(200, answer("photon-aleksanterinkatu-52.json"), json_type)
        name = "nominatim-aleksanterinkatu-52.json" if "aleksanterinkatu" in kind else "nominatim-helsinki.json"
        return self.send(200, answer(name), json_type)


# (The script's folder is on the module path: the shared server sits beside it.)
from loopback_server import serve

serve(Handler)
