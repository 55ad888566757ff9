import FoundationEssentials
import MapGeometry
import MapNetwork
import MapTiles

// What a user, a server or the disk hands the online sources: sources.json, TileJSON
// documents, tile URL templates, HTTP caching headers and tile cache files. Whatever is accepted must be safe.
func fuzzSources(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let data = Data(bytes: start, count: count)
    if let (sources, _) = try? OnlineSource.catalog(data, file: "sources.json") {
        for s in sources {
            precondition(OnlineSource.isValidName(s.name), "an unsafe source name was accepted")
            precondition(s.zoomRange.lowerBound >= 0 && s.zoomRange.upperBound <= TileID.maxZoom, "zooms out of range")
            check(s.template)
        }
    }
    // The same file's OpenStreetMap extracts, for directions: absolute paths of .pbf files.
    for path in OSMExtractEntries.read(data, file: "sources.json", home: "/home/u").paths {
        precondition(path.hasPrefix("/") && path.lowercased().hasSuffix(".pbf") && !path.contains("\0"), "an extract that is not a file's path")
    }
    // A TileJSON document as a server hands it out.
    if let doc = try? TileJSON(data, url: "https://t.example/tiles.json") {
        precondition(!doc.tiles.isEmpty && doc.minZoom >= 0 && doc.minZoom <= doc.maxZoom && doc.maxZoom <= 30, "a TileJSON out of range")
        precondition(doc.dataZoomRange.upperBound <= TileID.maxZoom, "zooms beyond a TileID's")
        doc.tiles.forEach(check)
        let source = OnlineSource.openFreeMap.resolved(by: doc)
        precondition(source.kind == .vector && source.zoomRange == doc.dataZoomRange, "not resolved")
        check(source.template)
    }
    if let entry = TileDiskCache.decode(data) {
        precondition(entry.freshness.expires.isFinite && entry.body.count < count, "a cache entry out of its file")
        precondition(TileDiskCache.decode(TileDiskCache.encode(entry.body, entry.freshness))?.body == entry.body, "no round trip")
    }
    let text = String(decoding: data, as: UTF8.self)
    for line in text.split(separator: "\n").prefix(64) {
        if let t = try? TileURLTemplate(String(line)) { check(t) }
        _ = HTTPFreshness.parseDate(String(line))
    }
    // Every line a header; the answer must be a finite time.
    let headers = text.split(separator: "\n").prefix(64).map { line -> (String, String) in
        let parts = line.split(separator: ":", maxSplits: 1)
        return (String(parts.first ?? ""), parts.count > 1 ? String(parts[1]) : "")
    }
    let f = HTTPFreshness(headers: headers, receivedAt: 1_700_000_000)
    precondition(f.expires.isFinite && f.expires >= 1_700_000_000 && f.expires <= 1_700_000_000 + HTTPFreshness.maxLifetime,
                 "a lifetime out of range")
    return 0
}

/// An accepted template expands to an http(s) address with no space or control character.
private func check(_ t: TileURLTemplate) {
    for tile in [TileID(z: 0, x: 0, y: 0), TileID(z: 22, x: 4_194_303, y: 4_194_303)] {
        let url = t.url(for: tile, retina: true)
        precondition(url.hasPrefix("http://") || url.hasPrefix("https://") || url.lowercased().hasPrefix("http"), "not an http address")
        precondition(url.unicodeScalars.allSatisfy { $0.value > 0x20 && $0.value < 0x7F }, "a control character in an address")
    }
}
