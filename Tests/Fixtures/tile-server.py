#!/usr/bin/python3
"""A loopback tile server for the tests: serves small PNG tiles and misbehaves on demand.
Prints its port on the first line of stdout once it accepts connections."""
import http.server, os, socket, struct, sys, threading, time, zlib

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
    streets with grey edges that lines up across tiles (as OSM's do), `size` pixels across."""
    k = size // 256
    ground, park, water = bytes((242, 239, 233)), bytes((205, 235, 176)), bytes((170, 211, 223))
    road, edge = bytes((255, 255, 255)), bytes((190, 185, 180))
    seed = (x * 7349 + y * 1931 + z * 101) & 0xFFFF
    rows = []
    for py in range(size):
        gy = py // k
        block_y = gy // 64
        row = bytearray()
        for bx in range(4):
            h = (seed + bx * 31 + block_y * 17) % 11
            fill = park if h == 0 else water if h == 1 else ground
            row += fill * (64 * k)
        # Streets every 64 points, 6 wide, edged.
        for sx in range(0, 256, 64):
            a = sx * k
            row[a * 3:(a + 2 * k) * 3] = edge * (2 * k)
            row[(a + 2 * k) * 3:(a + 6 * k) * 3] = road * (4 * k)
            row[(a + 6 * k) * 3:(a + 8 * k) * 3] = edge * (2 * k)
        m = gy % 64
        if m < 8:
            line = edge if m < 2 or m >= 6 else road
            row = bytearray(line * size)
        rows.append(b"\x00" + bytes(row))
    raw = b"".join(rows)
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw, 6)) + chunk(b"IEND", b""))

counts = {}
counts_lock = threading.Lock()

class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

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
        p = self.path.split("?")[0]
        if p == "/count":
            # How often each path was asked for (not counting this one), as "path count" lines.
            with counts_lock:
                text = "".join("%s %d\n" % kv for kv in sorted(counts.items()))
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
            return self.send(200, street(int(z), int(x), int(y), size),
                             [("Content-Type", "image/png"), ("Cache-Control", "max-age=86400")])
        if p.startswith("/tile/"):
            z, x, y = p[len("/tile/"):].removesuffix(".png").split("/")
            etag = '"t%s-%s-%s"' % (z, x, y)
            if self.headers.get("If-None-Match") == etag:
                return self.send(304, headers=[("ETag", etag), ("Cache-Control", "max-age=600")])
            return self.send(200, png(int(x), int(y)), [("Content-Type", "image/png"), ("Cache-Control", "max-age=3600"), ("ETag", etag)])
        if p.startswith("/meridian-only/"):
            # Tiles only for a client that says it is Meridian (as tile servers require).
            if not (self.headers.get("User-Agent") or "").startswith("Meridian/"):
                return self.send(403, b"say who you are")
            z, x, y = p[len("/meridian-only/"):].removesuffix(".png").split("/")
            return self.send(200, png(int(x), int(y)), [("Content-Type", "image/png")])
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
            # A PNG's signature, then nonsense: looks like a picture, does not decode.
            return self.send(200, b"\x89PNG\r\n\x1a\n" + os.urandom(500), [("Content-Type", "image/png"), ("Cache-Control", "max-age=3600")])
        if p == "/garbage":
            return self.send(200, os.urandom(3000), [("Content-Type", "image/png")])
        if p == "/to-file":
            return self.send(302, b"", [("Location", "file:///etc/passwd")])
        self.send(404, b"unknown")

server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
server.daemon_threads = True
print(server.server_address[1], flush=True)
server.serve_forever()
