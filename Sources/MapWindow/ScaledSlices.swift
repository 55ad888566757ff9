/// How a scaled copy that crosses the edge of what it is drawn into is cut into copies that
/// stay inside. SDL's software renderer scales such a copy into a temporary surface of its
/// whole size and then clips that (an allocation and twice the work, for every tile at the
/// edge of every moving frame); pieces inside the surface are scaled straight into it.
///
/// Along one axis, texel `i` of the source covers destination pixels from `P(i)` to `P(i+1)`,
/// where `P(i)` is the rounded position of its edge. The visible range becomes the whole
/// texels inside it, plus at each end the sliver of the texel cut by the edge, drawn as that
/// one texel stretched: exactly the pixels the whole copy would have put there.
struct ScaledSlices {
    struct Piece: Equatable {
        var source: Int32, sourceLength: Int32, destination: Int32, destinationLength: Int32
    }

    /// The pieces of a copy of `sourceLength` texels from `source` onto `destinationLength`
    /// pixels from `destination`, inside `0..<limit`. Empty when nothing shows.
    static func pieces(source: Int32, sourceLength: Int32, destination: Int32, destinationLength: Int32,
                       limit: Int32) -> [Piece] {
        let s = Int64(sourceLength), d0 = Int64(destination), dl = Int64(destinationLength)
        let v0 = max(d0, 0), v1 = min(d0 + dl, Int64(limit))
        guard s > 0, dl > 0, v1 > v0 else { return [] }
        if v0 == d0, v1 == d0 + dl {
            return [Piece(source: source, sourceLength: sourceLength, destination: destination, destinationLength: destinationLength)]
        }
        // The pixel where texel i begins.
        func edge(_ i: Int64) -> Int64 { d0 + (2 * i * dl + s) / (2 * s) }
        // a: the first texel beginning at or after v0; b: the last texel edge at or before v1.
        var a = min(max((v0 - d0) * s / dl, 0), s)
        while a < s, edge(a) < v0 { a += 1 }
        while a > 0, edge(a - 1) >= v0 { a -= 1 }
        var b = min(max((v1 - d0) * s / dl, 0), s)
        while b > 0, edge(b) > v1 { b -= 1 }
        while b < s, edge(b + 1) <= v1 { b += 1 }
        func piece(_ from: Int64, _ count: Int64, _ at: Int64, _ length: Int64) -> Piece {
            Piece(source: source + Int32(from), sourceLength: Int32(count), destination: Int32(at), destinationLength: Int32(length))
        }
        // The visible range lies inside one texel.
        if a > b { return [piece(b, 1, v0, v1 - v0)] }
        var out: [Piece] = []
        if edge(a) > v0 { out.append(piece(a - 1, 1, v0, edge(a) - v0)) }
        if b > a, edge(b) > edge(a) { out.append(piece(a, b - a, edge(a), edge(b) - edge(a))) }
        if v1 > edge(b) { out.append(piece(b, 1, edge(b), v1 - edge(b))) }
        return out
    }
}
