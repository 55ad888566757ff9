import FoundationEssentials
import Glibc
import MapCore
import Platform

/// Writes tracks as GPX 1.1: one `trk` per track, a `trkseg` per segment, each point with its
/// elevation and time where known. What `GPXReader` reads back point for point.
public enum GPXWriter {
    public static func data(_ tracks: [Track], creator: String = "Meridian") -> Data {
        var out = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
        out += #"<gpx version="1.1" creator="\#(escape(creator))" xmlns="http://www.topografix.com/GPX/1/1">"# + "\n"
        for track in tracks {
            out += "  <trk>\n"
            if let name = track.name { out += "    <name>\(escape(name))</name>\n" }
            let p = track.points
            for s in track.segments where !s.isEmpty && s.upperBound <= p.count {
                out += "    <trkseg>\n"
                for k in s {
                    out += String(cFormat: "      <trkpt lat=\"%.7f\" lon=\"%.7f\">", p.latitude[k], p.longitude[k])
                    if p.elevation[k].isFinite { out += String(cFormat: "<ele>%.1f</ele>", Double(p.elevation[k])) }
                    if let t = timestamp(p.time[k]) { out += "<time>\(t)</time>" }
                    out += "</trkpt>\n"
                }
                out += "    </trkseg>\n"
            }
            out += "  </trk>\n"
        }
        out += "</gpx>\n"
        return Data(out.utf8)
    }

    /// "2026-11-22T10:00:05Z" (milliseconds when there are any); nil when unknown or absurd.
    public static func timestamp(_ seconds: Double) -> String? {
        guard seconds.isFinite, seconds >= 0, seconds < 253_402_300_800 else { return nil }
        guard let t = CivilCalendar.moment(seconds) else { return nil }
        let ms = Int(saturating: ((seconds - seconds.rounded(.down)) * 1000).rounded())
        let base = String(cFormat: "%04d-%02d-%02dT%02d:%02d:%02d", t.year, t.month, t.day, t.hour, t.minute, t.second)
        return ms > 0 && ms < 1000 ? base + String(cFormat: ".%03dZ", ms) : base + "Z"
    }

    public static func escape(_ s: String) -> String {
        var out = ""
        for ch in s.unicodeScalars {
            switch ch {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            // Control characters other than tab and newlines are not allowed in XML 1.0.
            case _ where ch.value < 0x20 && ch != "\t" && ch != "\n" && ch != "\r": continue
            default: out.unicodeScalars.append(ch)
            }
        }
        return out
    }
}
