import FoundationEssentials
import Glibc
import Platform

/// Encodes vector tiles (MVT 2.1): the basemap builder writes them, tests build tiles with it.
public enum MVTEncoder {
    public static func encode(_ tile: VectorTile) -> Data {
        var w = ProtobufWriter()
        for layer in tile.layers where !layer.features.isEmpty {
            w.bytesField(3, encode(layer))
        }
        return Data(w.bytes)
    }

    static func encode(_ layer: VectorTile.Layer) -> [UInt8] {
        var w = ProtobufWriter()
        w.varintField(15, 2)
        w.stringField(1, layer.name)
        var keys: [String] = [], keyIndex: [String: Int] = [:]
        var values: [VectorTile.Value] = [], valueIndex: [VectorTile.Value: Int] = [:]
        for f in layer.features {
            var fw = ProtobufWriter()
            if let id = f.id { fw.varintField(1, id) }
            var tags: [UInt32] = []
            for (k, v) in f.properties.sorted(by: { $0.key < $1.key }) {
                let ki = keyIndex[k] ?? { keys.append(k); keyIndex[k] = keys.count - 1; return keys.count - 1 }()
                let vi = valueIndex[v] ?? { values.append(v); valueIndex[v] = values.count - 1; return values.count - 1 }()
                tags += [UInt32(ki), UInt32(vi)]
            }
            if !tags.isEmpty { fw.packedField(2, tags) }
            fw.varintField(3, UInt64(f.type.rawValue))
            fw.packedField(4, geometry(f.parts, type: f.type))
            w.bytesField(2, fw.bytes)
        }
        for k in keys { w.stringField(3, k) }
        for v in values {
            var vw = ProtobufWriter()
            switch v {
            case let .string(s): vw.stringField(1, s)
            case let .double(d): vw.doubleField(3, d)
            case let .int(i): vw.key(6, 0); vw.varint(UInt64(bitPattern: (i << 1) ^ (i >> 63)))
            case let .bool(b): vw.varintField(7, b ? 1 : 0)
            }
            w.bytesField(4, vw.bytes)
        }
        w.varintField(5, UInt64(layer.extent))
        return w.bytes
    }

    static func command(_ id: UInt32, _ count: Int) -> UInt32 { (id & 7) | UInt32(count) << 3 }

    public static func geometry(_ parts: [[VectorTile.Point]], type: VectorTile.GeometryType) -> [UInt32] {
        var out: [UInt32] = []
        var x: Int32 = 0, y: Int32 = 0
        func delta(_ p: VectorTile.Point) {
            out.append(ProtobufWriter.zigzag(p.x &- x))
            out.append(ProtobufWriter.zigzag(p.y &- y))
            x = p.x; y = p.y
        }
        if type == .point {
            let pts = parts.flatMap { $0 }
            guard !pts.isEmpty else { return [] }
            out.append(command(1, pts.count))
            pts.forEach(delta)
            return out
        }
        for part in parts where part.count >= 2 {
            out.append(command(1, 1))
            delta(part[0])
            out.append(command(2, part.count - 1))
            part.dropFirst().forEach(delta)
            if type == .polygon { out.append(command(7, 1)) }
        }
        return out
    }
}
