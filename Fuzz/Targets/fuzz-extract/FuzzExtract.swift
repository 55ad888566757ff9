import FoundationEssentials
import MapGeometry
import MapTiles

// Hostile bytes as the state an interrupted extract leaves (its journal, validators and
// plan.json), as a saved area's validators, as text a source gives a date in, and as a
// --bbox: what a resumed run trusts must point inside the tiles on disk, a validator kept is
// one a request may carry, a plan that is not one is an error, a day is a day, and a box is
// either refused or sane. Traps and hangs are bugs.
func fuzzExtract(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
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
    // Validators, as the journal's file (known tiles only) and as an area's.
    let known = Set(records.map(\.tileID))
    for (id, v) in TileValidators.parse(bytes, known: known) {
        precondition(known.contains(id), "a validator for a tile the journal lacks")
        precondition(!v.isEmpty && v.utf8.count <= 256 && v.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F }, "a validator no header may carry: \(v)")
    }
    _ = TileValidators.parse(bytes, known: nil)
    // A day, from an address, a metadata value or a Last-Modified.
    if let day = ExtractDates.day(in: String(decoding: bytes.prefix(4096), as: UTF8.self)) {
        let p = day.split(separator: "-")
        precondition(p.count == 3 && day.count == 10, "not a day: \(day)")
        _ = ExtractDates.spoken(day)
    }
    _ = ExtractDates.spoken(String(decoding: bytes.prefix(64), as: UTF8.self))
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
