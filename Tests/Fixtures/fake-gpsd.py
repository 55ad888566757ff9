#!/usr/bin/python3
"""A fake gpsd for the tests: listens on 127.0.0.1 (port printed on stdout's first line) and
behaves as MODE says for every client:
  tpv      VERSION, then a TPV a tenth of a second apart, moving north; closes after 10
           (a gpsd restart, as the client sees it), and takes the next connection the same way
  garbage  VERSION, then lines that are not JSON, then good TPVs
  flood    VERSION, then 1 MiB without a newline, then good TPVs
  silent   accepts and never says anything
  walk     VERSION, then a TPV twice a second for ever, walking round a 300 m circle in
           central Helsinki (for the soak run)"""
import json, math, socket, sys, threading, time

mode = sys.argv[1]
server = socket.socket()
server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
server.bind(("127.0.0.1", 0))
server.listen(8)
print(server.getsockname()[1], flush=True)

def tpv(i):
    return (json.dumps({"class": "TPV", "mode": 3, "lat": 46.0 + i * 0.001, "lon": 7.0, "eph": 12.0,
                        "track": 0.0, "speed": 11.0, "time": "2026-11-21T10:00:%02d.000Z" % (i % 60)}) + "\n").encode()

def walk(i):
    a = i * 2 * math.pi / 240  # once round every two minutes
    return (json.dumps({"class": "TPV", "mode": 3, "lat": 60.1699 + 0.0027 * math.sin(a), "lon": 24.9384 + 0.0054 * math.cos(a),
                        "eph": 8.0, "track": (math.degrees(-a) + 360) % 360, "speed": 1.4,
                        "time": time.strftime("%Y-%m-%dT%H:%M:%S.000Z", time.gmtime())}) + "\n").encode()

def serve(conn):
    try:
        if mode == "silent":
            time.sleep(3600)
            return
        conn.sendall(b'{"class":"VERSION","release":"3.22","proto_major":3,"proto_minor":14}\n')
        conn.recv(4096)  # the ?WATCH
        if mode == "garbage":
            conn.sendall(b"\x00\xffnot json at all\n{\"class\": \n")
        if mode == "flood":
            conn.sendall(b"x" * (1 << 20))
            conn.sendall(b"\n")
        if mode == "walk":
            i = 0
            while True:
                conn.sendall(walk(i))
                i += 1
                time.sleep(0.5)
        for i in range(10 if mode == "tpv" else 1000):
            conn.sendall(tpv(i))
            time.sleep(0.1)
    except OSError:
        pass
    finally:
        conn.close()

while True:
    c, _ = server.accept()
    threading.Thread(target=serve, args=(c,), daemon=True).start()
