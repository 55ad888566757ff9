import Glibc

// The fuzz targets, by the name each runs under: each is one function over hostile bytes, in
// Fuzz/Targets/NAME. This table is the one list of them: scripts/fuzz.sh asks the executable,
// which lists them when run under its own name. (Globals of a file other than main.swift are
// made on first use, whichever main runs.)
let fuzzTargets: KeyValuePairs<String, (UnsafeRawPointer, Int) -> CInt> = [
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
let chosenTarget: (UnsafeRawPointer, Int) -> CInt = {
    let invoked = CommandLine.arguments.first.map { String($0.split(separator: "/").last ?? "") } ?? ""
    if let target = fuzzTargets.first(where: { $0.key == invoked }) { return target.value }
    if invoked != "meridian-fuzz" {
        fputs("meridian-fuzz: no fuzz target is called \(invoked); the targets are:\n", stderr)
    }
    for target in fuzzTargets { print(target.key) }
    exit(invoked == "meridian-fuzz" ? 0 : 2)
}()

