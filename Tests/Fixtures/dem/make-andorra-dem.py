#!/usr/bin/env python3
"""Makes andorra-dem.mbtiles: terrarium-encoded DEM tiles (256 x 256 PNG, height =
R*256 + G + B/256 - 32768 m) of central Andorra, from the SRTM3 cell N42E001.hgt.

    python3 make-andorra-dem.py N42E001.hgt andorra-dem.mbtiles

Standard library only. Each pixel's centre is sampled bicubically (Catmull-Rom) from the 1201 x 1201 grid
of 3-arc-second posts (big-endian int16, north row first; -32768 is a void, filled from
its nearest valid neighbour along the row), rounded to 1/4 m. See README.md."""
import math, sqlite3, struct, sys, zlib

ZOOMS = {9: None, 10: None, 11: None, 12: None}
# Central Andorra: Andorra la Vella and Escaldes-Engordany in the Gran Valira valley.
WEST, SOUTH, EAST, NORTH = 1.50, 42.49, 1.57, 42.555
N = 1201

def read_hgt(path):
    raw = open(path, 'rb').read()
    assert len(raw) == N * N * 2, "not an SRTM3 cell"
    h = list(struct.unpack('>%dh' % (N * N), raw))
    for r in range(N):
        row = h[r * N:(r + 1) * N]
        last = next((v for v in row if v != -32768), 0)
        for c in range(N):
            if row[c] == -32768: row[c] = last
            else: last = row[c]
        h[r * N:(r + 1) * N] = row
    return h

def weights(t):
    t2, t3 = t * t, t * t * t
    return ((-t3 + 2 * t2 - t) / 2, (3 * t3 - 5 * t2 + 2) / 2, (-3 * t3 + 4 * t2 + t) / 2, (t3 - t2) / 2)

def height(h, lon, lat):
    # Cell N42E001: lat 42..43, lon 1..2; row 0 is 43 N. Bicubic (Catmull-Rom) between the
    # posts: bilinear would make each 90 m cell a flat facet, which hillshading shows as blocks.
    fx = (lon - 1.0) * (N - 1)
    fy = (43.0 - lat) * (N - 1)
    x0, y0 = int(fx), int(fy)
    wx, wy = weights(fx - x0), weights(fy - y0)
    def at(x, y): return h[min(max(y, 0), N - 1) * N + min(max(x, 0), N - 1)]
    return sum(wy[j] * sum(wx[i] * at(x0 - 1 + i, y0 - 1 + j) for i in range(4)) for j in range(4))

def lonlat(z, x, y):
    n = 2 ** z
    lon = x / n * 360 - 180
    lat = math.degrees(math.atan(math.sinh(math.pi * (1 - 2 * y / n))))
    return lon, lat

def tile_range(z):
    n = 2 ** z
    def tx(lon): return int((lon + 180) / 360 * n)
    def ty(lat):
        r = math.radians(lat)
        return int((1 - math.log(math.tan(r) + 1 / math.cos(r)) / math.pi) / 2 * n)
    return range(tx(WEST), tx(EAST) + 1), range(ty(NORTH), ty(SOUTH) + 1)

def png(rgb_rows):
    # Each row with PNG's Up filter (the difference from the row above): smooth heights
    # compress several times smaller than unfiltered.
    raw = b''
    above = [0] * (256 * 3)
    for r in rgb_rows:
        raw += b'\x02' + bytes((v - u) & 0xff for v, u in zip(r, above))
        above = r
    def chunk(t, d): return struct.pack('>I', len(d)) + t + d + struct.pack('>I', zlib.crc32(t + d) & 0xffffffff)
    return (b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', 256, 256, 8, 2, 0, 0, 0))
            + chunk(b'IDAT', zlib.compress(raw, 9)) + chunk(b'IEND', b''))

def tile(h, z, x, y):
    rows = []
    for j in range(256):
        row = []
        for i in range(256):
            lon, lat = lonlat(z, x + (i + 0.5) / 256, y + (j + 0.5) / 256)
            v = round(height(h, lon, lat) * 4) / 4 + 32768
            r = int(v // 256); g = int(v - r * 256); b = int(round((v - r * 256 - g) * 256)) & 0xff
            row += [r, g, b]
        rows.append(row)
    return png(rows)

def main(src, out):
    h = read_hgt(src)
    db = sqlite3.connect(out)
    db.executescript('DROP TABLE IF EXISTS tiles; DROP TABLE IF EXISTS metadata;'
                     'CREATE TABLE metadata (name TEXT, value TEXT);'
                     'CREATE TABLE tiles (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, tile_data BLOB);'
                     'CREATE UNIQUE INDEX tile_index ON tiles (zoom_level, tile_column, tile_row);')
    meta = {'name': 'Andorra heights (SRTM3, terrarium)', 'format': 'png', 'type': 'overlay', 'encoding': 'terrarium',
            'minzoom': str(min(ZOOMS)), 'maxzoom': str(max(ZOOMS)), 'bounds': '%g,%g,%g,%g' % (WEST, SOUTH, EAST, NORTH),
            'attribution': 'SRTM3: NASA / USGS (public domain)'}
    db.executemany('INSERT INTO metadata VALUES (?, ?)', meta.items())
    for z in sorted(ZOOMS):
        xs, ys = tile_range(z)
        for x in xs:
            for y in ys:
                db.execute('INSERT INTO tiles VALUES (?, ?, ?, ?)', (z, x, 2 ** z - 1 - y, tile(h, z, x, y)))
                print(z, x, y, file=sys.stderr)
    db.commit()
    db.execute('VACUUM')
    db.close()

if __name__ == '__main__':
    main(sys.argv[1], sys.argv[2])
