#!/usr/bin/python3
"""A loopback tile server for the tests: serves small PNG tiles and misbehaves on demand.
Prints its port on the first line of stdout once it accepts connections."""
import http.server
import re, sys, os, socket, struct, sys, threading, time, zlib

def colour(x, y):
    """The colour of tile x, y: what the tests expect to see where it is drawn."""
    return ((x * 40 + y * 90) % 256, 80, 160)

def png(x, y=0):
    raw = b"\x00" + bytes(colour(x, y))
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))

def street(z, x, y, size):
    """A street-map-like tile: a light ground, blocks of park and water, and a grid of white
    streets with grey edges that lines up across tiles (as OSM's do), `size` pixels across.
    Rows repeat, so each distinct one is built once (the server must not be what a client's
    throughput measures)."""
    k = size // 256
    ground, park, water = bytes((242, 239, 233)), bytes((205, 235, 176)), bytes((170, 211, 223))
    road, edge = bytes((255, 255, 255)), bytes((190, 185, 180))
    seed = (x * 7349 + y * 1931 + z * 101) & 0xFFFF
    street_x = edge * (2 * k) + road * (4 * k) + edge * (2 * k)
    edge_row, road_row = b"\x00" + edge * size, b"\x00" + road * size
    rows = []
    for block_y in range(4):
        row = b"".join(street_x + ((park if h == 0 else water if h == 1 else ground) * (56 * k))
                       for h in ((seed + bx * 31 + block_y * 17) % 11 for bx in range(4)))
        plain = b"\x00" + row
        for m in range(64):
            line = edge_row if m < 2 or 6 <= m < 8 else road_row if m < 8 else plain
            rows += [line] * k
    raw = b"".join(rows)
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw, 6)) + chunk(b"IEND", b""))

counts = {}
counts_lock = threading.Lock()
connections = 0
# The OpenFreeMap stand-in (/mbtiles/): tiles changed since (?every=N of /change-tiles), 429s
# still to send (/throttle), requests in flight and the most at once, and each request's
# time and answer (/tile-log).
changed_every = 0
throttle = {"skip": 0, "left": 0, "status": 429, "after": "1"}
tilejson_version = 0
in_flight = 0
most_in_flight = 0
tile_log = []

class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    # Headers and body go out as separate writes: with Nagle on, the body would wait for the
    # client's delayed ACK (40 ms a tile), as no real tile server makes anyone wait.
    disable_nagle_algorithm = True

    def log_message(self, *args):
        pass

    def setup(self):
        # Every TCP connection accepted, for /connections (kept-alive ones are counted once).
        global connections
        with counts_lock:
            connections += 1
        super().setup()

    def send(self, status, body=b"", headers=()):
        # A request counted in flight stops being so once its answer is decided: counting on
        # while the bytes go out would overlap the client's next request on another
        # connection, and the server would see more at once than the client sent.
        self.done_in_flight()
        self.send_response(status)
        for k, v in headers:
            self.send_header(k, v)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def count_in_flight(self):
        global in_flight, most_in_flight
        with counts_lock:
            in_flight += 1
            most_in_flight = max(most_in_flight, in_flight)
        self.in_flight = True

    def done_in_flight(self):
        global in_flight
        if getattr(self, "in_flight", False):
            self.in_flight = False
            with counts_lock:
                in_flight -= 1

    def do_GET(self):
        global changed_every, tilejson_version, in_flight, most_in_flight
        p = self.path.split("?")[0]
        if p == "/count":
            # How often each path was asked for (not counting this one), as "path count" lines.
            with counts_lock:
                text = "".join("%s %d\n" % kv for kv in sorted(counts.items()))
            return self.send(200, text.encode())
        if p == "/connections":
            with counts_lock:
                return self.send(200, str(connections).encode())
        if p == "/change-tiles":
            # /change-tiles?every=N: from now on one tile in N (by x and y) of /mbtiles/ is
            # another tile (a protobuf field readers skip appended), with another ETag.
            changed_every = int(re.search(r"every=(\d+)", self.path).group(1))
            return self.send(200, b"ok")
        if p == "/throttle":
            # /throttle?count=K&after=S[&skip=N][&status=403]: after N more tile requests of
            # /mbtiles/ (and of /file/), the next K get 429 with Retry-After: S (or the status given).
            def arg(name, default):
                m = re.search(name + r"=([^&]+)", self.path)
                return m.group(1) if m else default
            with counts_lock:
                throttle.update(skip=int(arg("skip", "0")), left=int(arg("count", "0")), after=arg("after", "1"), status=int(arg("status", "429")))
            return self.send(200, b"ok")
        if p == "/tilejson-version":
            # /tilejson-version?v=N: the TileJSON documents name tiles at …?v=N from now on (a
            # new planet published under a new address, as OpenFreeMap does).
            tilejson_version = int(re.search(r"v=(\d+)", self.path).group(1))
            return self.send(200, b"ok")
        if p == "/tile-log":
            # "seconds status" per /mbtiles/ and /noise/ tile request, then "most-in-flight N".
            with counts_lock:
                text = "".join("%.4f %d\n" % e for e in tile_log) + "most-in-flight %d\n" % most_in_flight
            return self.send(200, text.encode())
        with counts_lock:
            counts[self.path] = counts.get(self.path, 0) + 1
        if p.startswith("/street/"):
            # /street/{z}/{x}/{y}{r}.png: 256 px, or 512 for @2x.
            name = p[len("/street/"):].removesuffix(".png")
            size = 512 if name.endswith("@2x") else 256
            z, x, y = name.removesuffix("@2x").split("/")
            if "holes" in self.path and (int(x) + int(y)) % 3 == 0:
                return self.send(404, b"no tile")  # ?holes: a third of the tiles are missing
            upto = re.search(r"upto=(\d+)", self.path)
            if upto and int(z) > int(upto.group(1)):
                return self.send(404, b"no tile")  # ?upto=N: nothing deeper than zoom N, as real servers
            return self.send(200, street(int(z), int(x), int(y), size),
                             [("Content-Type", "image/png"), ("Cache-Control", "max-age=86400")])
        if p.startswith("/tile/"):
            if "slow" in self.path:
                time.sleep(0.01)  # ?slow: an extract long enough to interrupt
            z, x, y = p[len("/tile/"):].removesuffix(".png").split("/")
            etag = '"t%s-%s-%s"' % (z, x, y)
            if self.headers.get("If-None-Match") == etag:
                return self.send(304, headers=[("ETag", etag), ("Cache-Control", "max-age=600")])
            return self.send(200, png(int(x), int(y)), [("Content-Type", "image/png"), ("Cache-Control", "max-age=3600"), ("ETag", etag)])
        if p.startswith("/noise/"):
            # /noise/{z}/{x}/{y}.png: 2–12 KB that start like a PNG and then differ for every
            # tile (never stored once for many, as real street tiles are not): for measuring
            # extracts of realistic size. ETags from the bytes, 304s, and changed tiles (as
            # /mbtiles/ has them), for measuring updates.
            arrived, status = time.monotonic(), 0
            self.count_in_flight()
            try:
                z, x, y = (int(v) for v in p[len("/noise/"):].removesuffix(".png").split("/"))
                seed = (z * 1_000_003 + x * 7919 + y) & 0xFFFFFFFF
                n = 2048 + seed % 10240
                changed = changed_every and (x * 31 + y) % changed_every == 0
                body = b"\x89PNG\r\n\x1a\n" + (struct.pack("<IIII", z, x, y, 1 if changed else 0) * (n // 16 + 1))[:n]
                etag = '"%08x"' % (zlib.crc32(body) & 0xFFFFFFFF)
                if self.headers.get("If-None-Match") == etag:
                    status = 304
                    self.send(304, b"", [("ETag", etag)])
                else:
                    status = 200
                    self.send(200, body, [("Content-Type", "image/png"), ("ETag", etag)])
            finally:
                self.done_in_flight()
                with counts_lock:
                    tile_log.append((arrived, status))
            return
        if p.startswith("/meridian-only/"):
            # Tiles only for a client that says it is Meridian (as tile servers require).
            if not (self.headers.get("User-Agent") or "").startswith("Meridian/"):
                return self.send(403, b"say who you are")
            z, x, y = p[len("/meridian-only/"):].removesuffix(".png").split("/")
            return self.send(200, png(int(x), int(y)), [("Content-Type", "image/png")])
        if p.startswith("/file/") or p.startswith("/file-whole/"):
            # /file/ABSOLUTE/PATH: the file, with Range requests (206, or 416 for a range
            # outside it) and an ETag from its size and time; /file-whole/ ignores Range (200
            # with the whole body), as some servers do.
            whole = p.startswith("/file-whole/")
            if self.throttled():
                return
            if "slow" in self.path:
                time.sleep(2)  # ?slow: an extract long enough to interrupt
            path = p[len("/file-whole"):] if whole else p[len("/file"):]
            try:
                st = os.stat(path)
                f = open(path, "rb")
            except OSError:
                return self.send(404, b"no such file")
            with f:
                size = st.st_size
                etag = '"%x-%x"' % (size, int(st.st_mtime_ns))
                rng = self.headers.get("Range")
                if whole or not rng:
                    return self.send(200, f.read(), [("ETag", etag), ("Accept-Ranges", "none" if whole else "bytes")])
                try:
                    unit, spec = rng.split("=", 1)
                    first, last = spec.split("-", 1)
                    first, last = int(first), (int(last) if last else size - 1)
                    assert unit.strip() == "bytes" and 0 <= first <= last
                except (ValueError, AssertionError):
                    return self.send(416, b"bad range", [("Content-Range", "bytes */%d" % size)])
                if first >= size:
                    return self.send(416, b"range outside", [("Content-Range", "bytes */%d" % size)])
                last = min(last, size - 1)
                # Only the range is read: archives for the benchmarks are hundreds of MB.
                f.seek(first)
                return self.send(206, f.read(last + 1 - first), [("ETag", etag), ("Accept-Ranges", "bytes"),
                                                                 ("Content-Range", "bytes %d-%d/%d" % (first, last, size))])
        if p.startswith("/mbtiles/") or p.startswith("/tilejson/"):
            # /mbtiles/ABSOLUTE/PATH.mbtiles/{z}/{x}/{y}.pbf (or .png): a tile of that file, always sent
            # gzip-encoded (as many vector tile servers do); /tilejson/ABSOLUTE/PATH.mbtiles: a
            # TileJSON document for it (?noattribution leaves its attribution out).
            import json, sqlite3, gzip as gz
            if p.startswith("/tilejson/"):
                path = p[len("/tilejson"):]
                db = sqlite3.connect("file:%s?mode=ro" % path, uri=True)
                meta = dict(db.execute("SELECT name, value FROM metadata").fetchall())
                db.close()
                version = "?v=%d" % tilejson_version if tilejson_version else ""
                doc = {"tilejson": "3.0.0", "tiles": ["http://127.0.0.1:%d/mbtiles%s/{z}/{x}/{y}.pbf%s" % (self.server.server_address[1], path, version)],
                       "minzoom": int(meta.get("minzoom", 0)), "maxzoom": int(meta.get("maxzoom", 14)),
                       "vector_layers": json.loads(meta.get("json", "{}")).get("vector_layers", [])}
                if "attribution" in meta and "noattribution" not in self.path:
                    doc["attribution"] = meta["attribution"]
                return self.send(200, json.dumps(doc).encode(), [("Content-Type", "application/json"), ("Cache-Control", "max-age=60")])
            arrived, status = time.monotonic(), 0
            self.count_in_flight()
            try:
                status = self.mbtiles_tile(p, sqlite3, gz)
            finally:
                self.done_in_flight()
                with counts_lock:
                    tile_log.append((arrived, status))
            return

        if p == "/ua":
            return self.send(200, (self.headers.get("User-Agent") or "").encode())
        if p.startswith("/status/"):
            return self.send(int(p[len("/status/"):]), b"no")
        if p == "/429":
            return self.send(429, b"slow down", [("Retry-After", "2")])
        if p == "/stall":
            time.sleep(5)
            return self.send(200, png(1))
        if p == "/truncated":
            self.send_response(200)
            self.send_header("Content-Length", "1000")
            self.end_headers()
            self.wfile.write(b"0123456789")
            self.wfile.flush()
            self.connection.shutdown(socket.SHUT_RDWR)
            return
        if p == "/big":
            self.send_response(200)
            self.send_header("Content-Length", str(50 << 20))
            self.end_headers()
            try:
                for _ in range(50 << 4):
                    self.wfile.write(b"\0" * 65536)
            except OSError:
                pass
            return
        if p == "/forever":
            self.send_response(200)
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            try:
                while True:
                    self.wfile.write(b"10000\r\n" + b"\0" * 65536 + b"\r\n")
            except OSError:
                pass
            return
        if p == "/reset":
            self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            self.connection.close()
            return
        if p == "/fakepng":
            # A PNG's signature, then nonsense: looks like a picture, does not decode. Always
            # the same nonsense, with no "IEND" in it (random bytes now and then ended in an
            # "I", which the unit tests' stand-in decoder takes for a picture's end).
            return self.send(200, b"\x89PNG\r\n\x1a\n" + bytes(range(0x80, 0xC0)) * 8, [("Content-Type", "image/png"), ("Cache-Control", "max-age=3600")])
        if p == "/garbage":
            return self.send(200, os.urandom(3000), [("Content-Type", "image/png")])
        if p == "/moved":
            return self.send(301, b"", [("Location", "/tile/3/1/2.png")])
        if p == "/moved/relative":
            return self.send(302, b"", [("Location", "../tile/3/1/2.png?via=relative")])
        if p == "/loop":
            return self.send(302, b"", [("Location", "/loop")])
        if p == "/chunked":
            # The same tile as /tile/3/1/2.png in small chunks, with an extension and a trailer.
            body = png(1, 2)
            self.send_response(200)
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            for i in range(0, len(body), 7):
                part = body[i:i + 7]
                self.wfile.write(b"%x;n=%d\r\n" % (len(part), i) + part + b"\r\n")
            self.wfile.write(b"0\r\nX-Checked: yes\r\n\r\n")
            return
        if p == "/until-close":
            # No length, no chunks: the body ends when the connection does (HTTP/1.0's way).
            self.send_response(200)
            self.send_header("Connection", "close")
            self.end_headers()
            self.wfile.write(png(1, 2))
            self.close_connection = True
            return
        if p == "/to-file":
            return self.send(302, b"", [("Location", "file:///etc/passwd")])
        self.send(404, b"unknown")

    def throttled(self):
        """Answers as /throttle asked, if it did: the status sent, else None."""
        refusal = None
        with counts_lock:
            if throttle["skip"] > 0:
                throttle["skip"] -= 1
            elif throttle["left"] > 0:
                throttle["left"] -= 1
                refusal = (throttle["status"], throttle["after"])
        if refusal:
            self.send(refusal[0], b"slow down", [("Retry-After", refusal[1])])
            return refusal[0]
        return None

    def mbtiles_tile(self, p, sqlite3, gz):
        """A tile of /mbtiles/PATH/{z}/{x}/{y}.pbf, with an ETag from its bytes and a 304 when
        the client's If-None-Match is it; returns the status sent."""
        refused = self.throttled()
        if refused:
            return refused
        parts = p[len("/mbtiles"):].rsplit("/", 3)
        path, z, x, y = parts[0], int(parts[1]), int(parts[2]), int(parts[3].removesuffix(".pbf").removesuffix(".mvt").removesuffix(".png"))
        db = sqlite3.connect("file:%s?mode=ro" % path, uri=True)
        row = db.execute("SELECT tile_data FROM tiles WHERE zoom_level=? AND tile_column=? AND tile_row=?", (z, x, (1 << z) - 1 - y)).fetchone()
        db.close()
        if row is None:
            self.send(404, b"no tile")
            return 404
        stored = bytes(row[0])
        if stored[:8] == b"\x89PNG\r\n\x1a\n":
            # A picture (heights of a DEM archive): sent as it is.
            etag = '"%08x"' % (zlib.crc32(stored) & 0xFFFFFFFF)
            self.send(200, stored, [("Content-Type", "image/png"), ("Cache-Control", "max-age=3600"), ("ETag", etag)])
            return 200
        if changed_every and (x * 31 + y) % changed_every == 0:
            raw = gz.decompress(stored) if stored[:2] == b"\x1f\x8b" else stored
            body = gz.compress(raw + b"\x80\x01\x01", mtime=0)  # field 16 (the spec's extensions), a varint 1
        else:
            # As stored when gzipped (tilemaker's bytes), else gzipped with a fixed time: the
            # same tile is the same bytes each time.
            body = stored if stored[:2] == b"\x1f\x8b" else gz.compress(stored, mtime=0)
        etag = '"%08x"' % (zlib.crc32(body) & 0xFFFFFFFF)
        headers = [("Cache-Control", "max-age=3600"), ("ETag", etag), ("Last-Modified", "Fri, 20 Nov 2026 06:00:00 GMT")]
        if self.headers.get("If-None-Match") == etag:
            self.send(304, b"", headers)
            return 304
        self.send(200, body, [("Content-Type", "application/x-protobuf"), ("Content-Encoding", "gzip")] + headers)
        return 200

# (The script's folder is on the module path: the shared server sits beside it.)
from loopback_server import serve

serve(Handler)
