import FoundationEssentials
import MapCore
import MapData
import Platform

/// A route as GPX 1.1: an `<rte>` whose `<rtept>`s are the steps (the instruction as the
/// description, the maneuver as the type), and a `<trk>` of its line (with each point's height
/// when the terrain's were at hand), so that any program that reads tracks shows it (and
/// Meridian opens it as a track, with its elevation profile).
public enum RouteGPX {
    public static func data(_ route: Route, name: String = "Route", creator: String = "Meridian") -> Data {
        var out = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
        out += #"<gpx version="1.1" creator="\#(GPXWriter.escape(creator))" xmlns="http://www.topografix.com/GPX/1/1">"# + "\n"
        out += "  <metadata><desc>\(GPXWriter.escape(summary(route)))</desc>"
        out += "<copyright author=\"OpenStreetMap contributors\"><license>https://www.openstreetmap.org/copyright</license></copyright></metadata>\n"
        out += "  <rte>\n    <name>\(GPXWriter.escape(name))</name>\n"
        for step in route.readableSteps {
            out += String(cFormat: "    <rtept lat=\"%.7f\" lon=\"%.7f\">", step.at.latitude, step.at.longitude)
            out += "<desc>\(GPXWriter.escape(step.instruction))</desc><type>\(step.maneuver.name)</type></rtept>\n"
        }
        out += "  </rte>\n  <trk>\n    <name>\(GPXWriter.escape(name))</name>\n    <trkseg>\n"
        // With heights (the terrain's), each point carries its own: the track has a profile.
        let heights = route.heights.count == route.geometry.count ? route.heights : []
        for (i, c) in route.geometry.enumerated() {
            if i < heights.count, heights[i].isFinite {
                out += String(cFormat: "      <trkpt lat=\"%.7f\" lon=\"%.7f\"><ele>%.1f</ele></trkpt>\n", c.latitude, c.longitude, Double(heights[i]))
            } else {
                out += String(cFormat: "      <trkpt lat=\"%.7f\" lon=\"%.7f\"/>\n", c.latitude, c.longitude)
            }
        }
        out += "    </trkseg>\n  </trk>\n</gpx>\n"
        return Data(out.utf8)
    }

    /// "2.4 km · 0:06 by car · Routino · © OpenStreetMap contributors".
    public static func summary(_ route: Route) -> String {
        var s = TrackStatistics.distanceText(route.distance, imperial: false) + " · " + TrackStatistics.durationText(route.duration)
        if let up = route.ascent, let down = route.descent {
            s += " · ↑ " + TrackStatistics.heightText(up, imperial: false) + " ↓ " + TrackStatistics.heightText(down, imperial: false)
        }
        switch route.request.mode {
        // TRANSLATORS: a route's summary: %1$@ is its distance and time ("2.4 km · 0:06"), %2$@ the engine that found it
        // (Routino, OSRM), %3$@ the data's credit ("© OpenStreetMap contributors").
        case .car: return tr("%1$@ by car · %2$@ · %3$@", s, route.engine, route.credit)
        case .bike: return tr("%1$@ by bike · %2$@ · %3$@", s, route.engine, route.credit)
        case .foot: return tr("%1$@ by foot · %2$@ · %3$@", s, route.engine, route.credit)
        }
    }
}
