#!/usr/bin/env python3
"""Works out Tests/Fixtures/fit/expected.json with fitdecode (PyPI, MIT), a FIT reader
independent of Meridian's, for FITReaderTests to compare with.

  python3 -m venv /tmp/venv && /tmp/venv/bin/pip install fitdecode==0.11.0
  /tmp/venv/bin/python scripts/fit-expected.py [Tests/Fixtures/fit]

For each .fit file, counting the records (messages 20) fitdecode reads before it stops:
  records             all of them; first_record_time / last_record_time among their times
  points              those with a position (latitude and longitude both given, in range)
  distance            metres, great-circle (haversine, mean Earth radius 6 371 008.8 m as
                      MapCore's TrackStatistics) between consecutive positioned records
  first_time, last_time   seconds since 1970 of the first and last positioned records
  heart_rate, cadence, power   positioned records with that value
  sessions            the sessions' sports (FIT sport numbers)
Times are whole seconds (FIT's date_time) plus 631065600, FIT's epoch after 1970's.
"""
import json, math, os, sys, hashlib

import fitdecode

EPOCH = 631065600
RADIUS = 6371008.8
SEMI = 180.0 / 2 ** 31


def haversine(a, b):
    rad = math.pi / 180
    dlat, dlon = (b[0] - a[0]) * rad, (b[1] - a[1]) * rad
    h = math.sin(dlat / 2) ** 2 + math.cos(a[0] * rad) * math.cos(b[0] * rad) * math.sin(dlon / 2) ** 2
    return 2 * RADIUS * math.asin(min(1, math.sqrt(h)))


def raw(frame, name):
    """A field's stored value (before scale), or None."""
    if not frame.has_field(name):
        return None
    return frame.get_field(name).raw_value


def seconds(frame):
    t = raw(frame, "timestamp")
    return None if t is None else t + EPOCH


def summarise(path):
    out = dict(records=0, points=0, distance=0.0, first_time=None, last_time=None,
               first_record_time=None, last_record_time=None,
               heart_rate=0, cadence=0, power=0, sessions=[])
    last = None
    try:
        with fitdecode.FitReader(path, check_crc=fitdecode.CrcCheck.DISABLED,
                                 error_handling=fitdecode.ErrorHandling.WARN) as reader:
            for frame in reader:
                if not isinstance(frame, fitdecode.FitDataMessage):
                    continue
                # fitdecode gives a compressed-timestamp header's time as the timestamp field.
                t = seconds(frame)
                if frame.global_mesg_num == 18:
                    out["sessions"].append(raw(frame, "sport"))
                if frame.global_mesg_num != 20:
                    continue
                out["records"] += 1
                if t is not None:
                    out["first_record_time"] = out["first_record_time"] or t
                    out["last_record_time"] = t
                lat, lon = raw(frame, "position_lat"), raw(frame, "position_long")
                if not isinstance(lat, int) or not isinstance(lon, int):
                    continue
                p = (lat * SEMI, lon * SEMI)
                if abs(p[0]) > 90 or abs(p[1]) > 180:
                    continue
                out["points"] += 1
                if last is not None:
                    out["distance"] += haversine(last, p)
                last = p
                if t is not None:
                    out["first_time"] = out["first_time"] or t
                    out["last_time"] = t
                for name in ("heart_rate", "cadence", "power"):
                    v = raw(frame, name)
                    if isinstance(v, int) and v != 0:
                        out[name] += 1
    except fitdecode.FitError as e:
        out["fitdecode_stopped"] = str(e)
    out["distance"] = round(out["distance"], 3)
    return out


def main():
    folder = sys.argv[1] if len(sys.argv) > 1 else "Tests/Fixtures/fit"
    files = sorted(f for f in os.listdir(folder) if f.lower().endswith(".fit"))
    result = {}
    for f in files:
        path = os.path.join(folder, f)
        s = summarise(path)
        s["sha256"] = hashlib.sha256(open(path, "rb").read()).hexdigest()
        result[f] = s
    with open(os.path.join(folder, "expected.json"), "w") as out:
        json.dump(result, out, indent=1, sort_keys=True)
        out.write("\n")


if __name__ == "__main__":
    main()
