import FoundationEssentials
import MapCore
import MapSearch
import MapTiles

// A geocoder's answer, read as Nominatim's and as Photon's (a server may send either, or
// anything): whatever is read must be a real place a result row can show, and whatever is not
// must be a GeocoderError. The same bytes are also a geocoder.json.
func fuzzGeocoder(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let data = Data(bytes: start, count: count)
    for kind in GeocoderConfig.Kind.allCases {
        do {
            let results = try GeocoderAnswer.read(data, kind: kind, credit: "credit")
            precondition(results.count <= GeocoderAnswer.maxResults)
            for r in results {
                precondition(r.coordinate.isValid, "an impossible place: \(r.coordinate)")
                precondition(r.zoom.isFinite && r.zoom >= 3 && r.zoom <= 18, "zoom \(r.zoom)")
                precondition(!r.name.isEmpty && r.name.count <= GeocoderAnswer.maxNameLength, "name \(r.name.count)")
                precondition((r.area?.count ?? 0) <= GeocoderAnswer.maxNameLength && r.area != "")
                precondition(!r.what.isEmpty && r.what.count <= 60, "what \(r.what)")
                precondition(r.match.isFinite && r.origin == .online(credit: "credit"))
            }
        } catch let e as GeocoderError {
            precondition(!e.description.isEmpty)
        } catch {
            preconditionFailure("not a GeocoderError: \(error)")
        }
    }
    if let config = try? GeocoderConfig(reading: data) {
        precondition(config.minimumInterval.isFinite && config.minimumInterval >= 0 && config.minimumInterval <= 3600)
        // The scheme in any case ("htTps://"), as HTTP's clients accept it.
        precondition(config.url.lowercased().hasPrefix("http") && config.credit.count <= 200)
    }
    return 0
}
