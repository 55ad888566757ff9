import FoundationEssentials
import Glibc
import Platform

/// Decodes MVT bytes. Every count, index and length is checked: a malformed tile is a
/// `ProtobufError` naming what is wrong, never a crash.
public enum MVTDecoder {
    public static func decode(_ data: Data) throws -> VectorTile {
        let bytes = [UInt8](data)
        var r = ProtobufReader(bytes)
        var layers: [VectorTile.Layer] = []
        while !r.isAtEnd {
            let (field, wire) = try r.key()
            if field == 3 && wire == 2 {
                layers.append(try layer(r.subReader(try r.lengthDelimited())))
            } else {
                try r.skip(wire: wire)
            }
        }
        return VectorTile(layers: layers)
    }

    private struct RawFeature {
        var id: UInt64?
        var type = 0
        var tags: [UInt32] = []
        var geometry: [UInt32] = []
    }

    private static func layer(_ reader: ProtobufReader) throws -> VectorTile.Layer {
        var r = reader
        var name: String?
        var extent = 4096
        var version = 1
        var keys: [String] = []
        var values: [VectorTile.Value] = []
        var raws: [RawFeature] = []
        while !r.isAtEnd {
            let (field, wire) = try r.key()
            switch (field, wire) {
            case (1, 2): name = try r.string()
            case (2, 2): raws.append(try feature(r.subReader(try r.lengthDelimited())))
            case (3, 2): keys.append(try r.string())
            case (4, 2): values.append(try value(r.subReader(try r.lengthDelimited())))
            case (5, 0): extent = Int(clamping: try r.varint())
            case (15, 0): version = Int(clamping: try r.varint())
            default: try r.skip(wire: wire)
            }
        }
        guard let name else { throw ProtobufError(tr("layer without a name")) }
        // TRANSLATORS: %1$@ is a vector tile's layer name, %2$@ a version number.
        guard (1...2).contains(version) else { throw ProtobufError(tr("layer %1$@: unsupported version %2$@", name, version)) }
        // TRANSLATORS: %1$@ is a vector tile's layer name; the extent is the size of the layer's grid.
        guard extent > 0 && extent <= 1 << 20 else { throw ProtobufError(tr("layer %1$@: bad extent %2$@", name, extent)) }
        var features: [VectorTile.Feature] = []
        features.reserveCapacity(raws.count)
        for (i, raw) in raws.enumerated() {
            guard raw.tags.count % 2 == 0 else { throw ProtobufError(tr("layer %1$@ feature %2$@: odd number of tags", name, i)) }
            // Room for every tag and the two names a painter may add (`PreparedTile`): a
            // dictionary grown tag by tag hashes its keys again at each doubling.
            var props = [String: VectorTile.Value](minimumCapacity: raw.tags.count / 2 + 2)
            for t in stride(from: 0, to: raw.tags.count, by: 2) {
                let k = Int(raw.tags[t]), v = Int(raw.tags[t + 1])
                guard k < keys.count else {
                    throw ProtobufError(tr("layer %1$@ feature %2$@: key index %3$@ out of range (%4$@ keys)", name, i, k, keys.count))
                }
                guard v < values.count else {
                    throw ProtobufError(tr("layer %1$@ feature %2$@: value index %3$@ out of range (%4$@ values)", name, i, v, values.count))
                }
                props[keys[k]] = values[v]
            }
            let type = VectorTile.GeometryType(rawValue: raw.type) ?? .unknown
            let parts: [[VectorTile.Point]]
            do { parts = try geometry(raw.geometry, type: type) } catch let e as ProtobufError {
                // TRANSLATORS: %1$@ is a vector tile's layer name, %2$@ a feature's number, %3$@ what is wrong with it.
                throw ProtobufError(tr("layer %1$@ feature %2$@: %3$@", name, i, e.description))
            }
            features.append(VectorTile.Feature(id: raw.id, type: type, parts: parts, properties: props))
        }
        return VectorTile.Layer(name: name, extent: extent, features: features)
    }

    private static func feature(_ reader: ProtobufReader) throws -> RawFeature {
        var r = reader
        var f = RawFeature()
        while !r.isAtEnd {
            let (field, wire) = try r.key()
            switch (field, wire) {
            case (1, 0): f.id = try r.varint()
            case (2, 2): f.tags = try r.packedVarints()
            case (3, 0): f.type = Int(clamping: try r.varint())
            case (4, 2): f.geometry = try r.packedVarints()
            default: try r.skip(wire: wire)
            }
        }
        return f
    }

    private static func value(_ reader: ProtobufReader) throws -> VectorTile.Value {
        var r = reader
        var v: VectorTile.Value?
        while !r.isAtEnd {
            let (field, wire) = try r.key()
            switch (field, wire) {
            case (1, 2): v = .string(try r.string())
            case (2, 5): v = .double(Double(Float(bitPattern: try r.fixed32())))
            case (3, 1): v = .double(Double(bitPattern: try r.fixed64()))
            case (4, 0): v = .int(Int64(bitPattern: try r.varint()))
            case (5, 0): v = .int(Int64(bitPattern: try r.varint()))
            case (6, 0):
                let z = try r.varint()
                v = .int(Int64(bitPattern: z >> 1) ^ -Int64(bitPattern: z & 1))
            case (7, 0): v = .bool(try r.varint() != 0)
            default: try r.skip(wire: wire)
            }
        }
        guard let v else { throw ProtobufError(tr("empty property value")) }
        return v
    }

    /// Runs the geometry commands (MoveTo 1, LineTo 2, ClosePath 7) with a cursor.
    static func geometry(_ cmds: [UInt32], type: VectorTile.GeometryType) throws -> [[VectorTile.Point]] {
        var parts: [[VectorTile.Point]] = []
        var current: [VectorTile.Point] = []
        var x: Int32 = 0, y: Int32 = 0
        var i = 0
        while i < cmds.count {
            let id = cmds[i] & 7, count = Int(cmds[i] >> 3)
            i += 1
            switch id {
            case 1, 2:
                // TRANSLATORS: %@ is a geometry command's number.
                guard count > 0 else { throw ProtobufError(tr("command %@ with count 0", id)) }
                guard count <= (cmds.count - i) / 2 else {
                    // TRANSLATORS: %1$@ is a geometry command's number, %2$@ and %3$@ numbers of points.
                    throw ProtobufError(tr("command %1$@ wants %2$@ points but %3$@ remain", id, count, (cmds.count - i) / 2))
                }
                // TRANSLATORS: MoveTo, LineTo and ClosePath are the names of vector tile geometry commands.
                if id == 1 && type != .point && count != 1 { throw ProtobufError(tr("MoveTo with %@ points", count)) }
                if id == 2 && current.isEmpty { throw ProtobufError(tr("LineTo before MoveTo")) }
                for _ in 0..<count {
                    let (dx, ovx) = x.addingReportingOverflow(ProtobufWriter.unzigzag(cmds[i]))
                    let (dy, ovy) = y.addingReportingOverflow(ProtobufWriter.unzigzag(cmds[i + 1]))
                    guard !ovx && !ovy else { throw ProtobufError(tr("coordinate overflow")) }
                    x = dx; y = dy
                    i += 2
                    if id == 1 {
                        if !current.isEmpty { parts.append(current) }
                        current = [VectorTile.Point(x: x, y: y)]
                        if type == .point { parts.append(current); current = [] }
                    } else {
                        current.append(VectorTile.Point(x: x, y: y))
                    }
                }
            case 7:
                guard count == 1 else { throw ProtobufError(tr("ClosePath with count %@", count)) }
                guard current.count >= 3 || type != .polygon else { throw ProtobufError(tr("ring with %@ points", current.count)) }
                parts.append(current)
                current = []
            default:
                throw ProtobufError(tr("unknown command %@", id))
            }
        }
        if !current.isEmpty {
            if type == .polygon { throw ProtobufError(tr("ring not closed")) }
            parts.append(current)
        }
        return parts
    }
}
