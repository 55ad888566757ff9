import Glibc

// Every fuzz target in one libFuzzer executable: one sanitized link instead of one a target
// (make test builds the fuzzers in a third of the time). Each target is one function over
// hostile bytes, in Fuzz/Targets/NAME; the name the executable is run under picks it
// (scripts/fuzz.sh links each name to it). Run under its own name, it lists the targets.
// This table is the one list of them: scripts/fuzz.sh asks the executable.
private let targets: KeyValuePairs<String, (UnsafeRawPointer, Int) -> CInt> = [
    "fuzz-csv": fuzzCSV,
    "fuzz-dem": fuzzDEM,
    "fuzz-extract": fuzzExtract,
    "fuzz-fit": fuzzFIT,
    "fuzz-geocoder": fuzzGeocoder,
    "fuzz-geojson": fuzzGeoJSON,
    "fuzz-gpx": fuzzGPX,
    "fuzz-http": fuzzHTTP,
    "fuzz-image": fuzzImage,
    "fuzz-kml": fuzzKML,
    "fuzz-mbtiles": fuzzMBTiles,
    "fuzz-mvt": fuzzMVT,
    "fuzz-names": fuzzNames,
    "fuzz-osrm": fuzzOSRM,
    "fuzz-pins": fuzzPins,
    "fuzz-pmtiles": fuzzPMTiles,
    "fuzz-position": fuzzPosition,
    "fuzz-routino": fuzzRoutino,
    "fuzz-search": fuzzSearch,
    "fuzz-sources": fuzzSources,
    "fuzz-sprites": fuzzSprites,
    "fuzz-style": fuzzStyle,
    "fuzz-tcx": fuzzTCX,
    "fuzz-track-render": fuzzTrackRender,
    "fuzz-trail": fuzzTrail,
    "fuzz-viewstate": fuzzViewState,
]

/// The target this process runs: a global, so made once (thread-safely) from the name the
/// process was started under, before libFuzzer's first input (LLVMFuzzerInitialize).
private let chosen: (UnsafeRawPointer, Int) -> CInt = {
    let invoked = CommandLine.arguments.first.map { String($0.split(separator: "/").last ?? "") } ?? ""
    if let target = targets.first(where: { $0.key == invoked }) { return target.value }
    if invoked != "meridian-fuzz" {
        fputs("meridian-fuzz: no fuzz target is called \(invoked); the targets are:\n", stderr)
    }
    for target in targets { print(target.key) }
    exit(invoked == "meridian-fuzz" ? 0 : 2)
}()

@_cdecl("LLVMFuzzerInitialize")
public func fuzzerInitialize(_ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>) -> CInt {
    _ = chosen
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    chosen(start, count)
}
