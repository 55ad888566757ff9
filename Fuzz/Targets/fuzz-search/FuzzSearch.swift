import FoundationEssentials
import MapCore
import MapSearch

// What is typed or pasted into the search box, or handed over as a geo: link, and a damaged
// places file: coordinates read must be real places; the index built from the bytes must
// search without trapping, its answers real places too.
func fuzzSearch(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let data = Data(bytes: start, count: count)
    let text = String(decoding: data, as: UTF8.self)
    for candidate in [text, "geo:" + text, "https://www.openstreetmap.org/#map=" + text] {
        if case let .success(p)? = CoordinateParser.parse(candidate) {
            precondition(p.coordinate.isValid, "an impossible place was read from \(candidate)")
            if let z = p.zoom { precondition(z.isFinite && z >= 0 && z <= 19) }
        }
    }
    let index = PlaceIndex(reading: data)
    for query in [text, String(text.prefix(3)), "a", "zur"] {
        for place in index.search(query) { precondition(place.coordinate.isValid && place.population >= 0) }
    }
    return 0
}
