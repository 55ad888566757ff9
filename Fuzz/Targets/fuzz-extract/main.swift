import FoundationEssentials
import MapGeometry
import MapTiles

// Hostile bytes as the state an interrupted extract leaves (its journal and plan.json) and
// as a --bbox: what a resumed run trusts must point inside the tiles on disk, a plan that is
// not one is an error, and a box is either refused or sane. Traps and hangs are bugs.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzExtract(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = Data(bytes: start, count: count)
    // The journal (after 8 bytes), against a tiles file of the size the first 8 say.
    let size = bytes.prefix(8).reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
    let journal = bytes.dropFirst(8)
    let (records, whole) = ExtractJournal.parse(Data(journal), dataSize: size)
    precondition(whole == records.count * ExtractJournal.recordSize && whole <= journal.count, "the trusted part is not whole records")
    for r in records {
        precondition(r.offset <= size && UInt64(r.length) <= size - r.offset, "a record past the tiles on disk was trusted")
        precondition(!r.absent || r.length == 0, "an absent tile with bytes")
        precondition(ExtractJournal.encode(r).count == ExtractJournal.recordSize)
    }
    // The plan, as a resumed run reads plan.json.
    if let plan = try? ExtractPlan.decode(bytes, path: "plan.json") {
        let area = try? plan.area
        precondition(area != nil, "a plan whose area is not one was accepted")
    }
    // The same bytes as a --bbox, at zooms from the last byte.
    let text = String(decoding: bytes.prefix(300), as: UTF8.self)
    if let area = try? TileArea(bbox: text, zooms: 0...Int(bytes.last ?? 0) % (TileArea.maxZoom + 1)) {
        precondition(area.south < area.north && area.tileCount <= TileArea.maxTiles && area.tileCount > 0, "a box without tiles")
        if area.count(atZoom: area.zooms.upperBound) <= 100_000 { _ = area.tileIDs(atZoom: area.zooms.upperBound) }
    }
    return 0
}
