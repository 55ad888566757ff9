import FoundationEssentials
import MapNetwork
import MapTiles

// A tile server's answer as it arrives: the first byte says how the network cuts the rest in
// pieces. Read whole and read in pieces, it must end the same way; a body never passes its
// limit. The same bytes as text are also an address and a redirect's Location.
func fuzzHTTP(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    guard count > 0 else { return 0 }
    let all = UnsafeRawBufferPointer(start: start, count: count)
    let step = Int(all[0]) + 1
    let bytes = UnsafeRawBufferPointer(rebasing: all[1...])
    let whole = read(bytes, step: bytes.count + 1)
    let pieces = read(bytes, step: step)
    precondition(whole == pieces, "read whole: \(whole), in pieces of \(step): \(pieces)")
    let text = String(decoding: bytes, as: UTF8.self)
    if let address = HTTPAddress(text) {
        precondition(address.port >= 1 && address.port <= 65535 && address.target.hasPrefix("/") && !address.host.isEmpty)
        _ = HTTPAddress(address.resolve(text))
    }
    return 0
}

/// How the answer ended: status, body and keep-alive, or the reason it failed.
private func read(_ bytes: UnsafeRawBufferPointer, step: Int) -> String {
    var reader = HTTPResponseReader(limit: 4096)
    var i = 0
    do {
        while i < bytes.count && !reader.isComplete {
            let n = min(step, bytes.count - i)
            let used = try reader.feed(UnsafeRawBufferPointer(rebasing: bytes[i..<(i + n)]))
            precondition(used <= n && (used == n || reader.isComplete))
            i += used
            if used < n { break }
        }
        if !reader.isComplete { try reader.end() }
    } catch let failure as HTTPFailure {
        return "failed: \(failure.reason)"
    } catch {
        preconditionFailure("not an HTTPFailure: \(error)")
    }
    precondition(reader.body.count <= 4096 && reader.status >= 100 && reader.status <= 999)
    return "\(reader.status) \(reader.headers.count) \(reader.body.count) \(reader.body.hashValue) \(reader.keepAlive) \(i)"
}
