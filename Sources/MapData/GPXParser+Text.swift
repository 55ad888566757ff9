import FoundationEssentials
import MapCore
import Platform

/// The text inside GPX elements: numbers, times, names and Garmin's colour names.
extension GPXParser {
    /// The text of an element that matters, when it ends: into the point, waypoint or track.
    mutating func finishText(_ name: Name, at offset: Int) {
        textBuffer.withUnsafeBufferPointer { value in
            switch name {
            case .ele:
                guard let v = TextNumbers.double(value), v.isFinite else {
                    if !value.allSatisfy(TextNumbers.isBlank) { problem(tr("<ele> that is not a number ignored"), at: offset) }
                    return
                }
                if point != nil { point!.ele = Float(v) } else if waypoint != nil { waypoint!.elevation = Float(v) }
            case .time:
                guard let t = TextNumbers.time(value) else { problem(tr("<time> that is not an ISO 8601 time ignored"), at: offset); return }
                if point != nil { point!.time = t }
            case .hr, .cad:
                guard let v = TextNumbers.double(value), v.isFinite, v >= 0, v < 1000 else { return }
                if name == .hr { point?.hr = UInt16(saturating: v) } else { point?.cad = UInt16(saturating: v) }
            case .name:
                let s = Self.decodeEntities(value)
                if waypoint != nil { waypoint!.name = s } else if track != nil {
                    track!.name = s
                    if continuation?.isOpen == true { continuation!.named = true }
                }
            case .displayColor:
                track?.color = Self.garminColors[Self.decodeEntities(value)]
                if continuation?.isOpen == true { continuation!.colored = true }
            default: break
            }
        }
    }

    /// Text with the predefined entities and character references decoded, trimmed.
    static func decodeEntities(_ p: UnsafeBufferPointer<UInt8>) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(p.count)
        var k = 0
        while k < p.count {
            if p[k] == UInt8(ascii: "&"), let semi = p[k...].prefix(12).firstIndex(of: UInt8(ascii: ";")) {
                let entity = String(decoding: p[(k + 1)..<semi], as: UTF8.self)
                var scalar: Unicode.Scalar?
                switch entity {
                case "amp": scalar = "&"
                case "lt": scalar = "<"
                case "gt": scalar = ">"
                case "quot": scalar = "\""
                case "apos": scalar = "'"
                default:
                    if entity.hasPrefix("#x") { scalar = UInt32(entity.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init) }
                    else if entity.hasPrefix("#") { scalar = UInt32(entity.dropFirst(), radix: 10).flatMap(Unicode.Scalar.init) }
                }
                if let scalar {
                    out.append(contentsOf: Array(String(Character(scalar)).utf8))
                    k = semi + 1
                    continue
                }
            }
            out.append(p[k])
            k += 1
        }
        return String(decoding: out, as: UTF8.self).trimmed
    }

    /// Garmin's `gpxx:DisplayColor` names.
    static let garminColors: [String: Color] = [
        "Black": Color(hex: 0x000000), "DarkRed": Color(hex: 0x8B0000), "DarkGreen": Color(hex: 0x006400),
        "DarkYellow": Color(hex: 0xB5B820), "DarkBlue": Color(hex: 0x00008B), "DarkMagenta": Color(hex: 0x8B008B),
        "DarkCyan": Color(hex: 0x008B8B), "LightGray": Color(hex: 0xD3D3D3), "DarkGray": Color(hex: 0xA9A9A9),
        "Red": Color(hex: 0xFF0000), "Green": Color(hex: 0x00FF00), "Yellow": Color(hex: 0xFFFF00),
        "Blue": Color(hex: 0x0000FF), "Magenta": Color(hex: 0xFF00FF), "Cyan": Color(hex: 0x00FFFF),
        "White": Color(hex: 0xFFFFFF),
    ]
}
