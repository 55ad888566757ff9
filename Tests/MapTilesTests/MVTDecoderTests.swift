import Foundation
import MapTiles
import Testing
import TestSupport

/// Hand-built tiles: the bytes are written out field by field here, so the decoder is
/// checked against the spec, not against our own encoder.
struct MVTDecoderTests {
    /// A layer named "x" (extent 4096) holding one feature with the given raw geometry and tags.
    static func tile(geometry: [UInt32], type: UInt64 = 3, tags: [UInt32] = [], keys: [String] = [], values: [[UInt8]] = []) -> Data {
        var f = ProtobufWriter()
        f.varintField(1, 7)
        if !tags.isEmpty { f.packedField(2, tags) }
        f.varintField(3, type)
        f.packedField(4, geometry)
        var l = ProtobufWriter()
        l.varintField(15, 2)
        l.stringField(1, "x")
        l.bytesField(2, f.bytes)
        for k in keys { l.stringField(3, k) }
        for v in values { l.bytesField(4, v) }
        l.varintField(5, 4096)
        var t = ProtobufWriter()
        t.bytesField(3, l.bytes)
        return Data(t.bytes)
    }

    // The spec's own examples (MVT 2.1 §4.3.5): a point at (25,17); a line (2,2)→(2,10)→(10,10);
    // a polygon (3,6)→(8,12)→(20,34) closed.
    @Test func specExamples() throws {
        let point = try MVTDecoder.decode(Self.tile(geometry: [9, 50, 34], type: 1))
        #expect(point.layers[0].features[0].parts == [[VectorTile.Point(x: 25, y: 17)]])
        let line = try MVTDecoder.decode(Self.tile(geometry: [9, 4, 4, 18, 0, 16, 16, 0], type: 2))
        #expect(line.layers[0].features[0].parts == [[.init(x: 2, y: 2), .init(x: 2, y: 10), .init(x: 10, y: 10)]])
        let poly = try MVTDecoder.decode(Self.tile(geometry: [9, 6, 12, 18, 10, 12, 24, 44, 15], type: 3))
        let f = poly.layers[0].features[0]
        #expect(f.type == .polygon && f.id == 7)
        #expect(f.parts == [[.init(x: 3, y: 6), .init(x: 8, y: 12), .init(x: 20, y: 34)]])
    }

    @Test func propertiesOfEveryValueType() throws {
        var s = ProtobufWriter(); s.stringField(1, "Paris")
        var d = ProtobufWriter(); d.doubleField(3, 2.5)
        var i = ProtobufWriter(); i.varintField(5, 2_161_000)
        var z = ProtobufWriter(); z.key(6, 0); z.varint(UInt64(ProtobufWriter.zigzag(-3)))
        var b = ProtobufWriter(); b.varintField(7, 1)
        let t = try MVTDecoder.decode(Self.tile(geometry: [9, 50, 34], type: 1, tags: [0, 0, 1, 1, 2, 2, 3, 3, 4, 4],
                                                 keys: ["name", "ratio", "population", "delta", "capital"],
                                                 values: [s.bytes, d.bytes, i.bytes, z.bytes, b.bytes]))
        let p = t.layers[0].features[0].properties
        #expect(p["name"] == .string("Paris"))
        #expect(p["ratio"] == .double(2.5))
        #expect(p["population"] == .int(2_161_000))
        #expect(p["delta"] == .int(-3))
        #expect(p["capital"] == .bool(true))
    }

    @Test func roundTripsThroughTheEncoder() throws {
        let ring: [VectorTile.Point] = [.init(x: 0, y: 0), .init(x: 4096, y: 0), .init(x: 4096, y: 4096), .init(x: 0, y: 4096)]
        let hole: [VectorTile.Point] = [.init(x: 100, y: 100), .init(x: 100, y: 200), .init(x: 200, y: 200)]
        let tile = VectorTile(layers: [
            .init(name: "land", features: [.init(type: .polygon, parts: [ring, hole], properties: ["kind": .string("island")])]),
            .init(name: "places", features: [.init(type: .point, parts: [[.init(x: -5, y: 4100)]], properties: ["population": .int(42)])]),
        ])
        let back = try MVTDecoder.decode(MVTEncoder.encode(tile))
        #expect(back.layer("land")?.features[0].parts == [ring, hole])
        #expect(back.layer("land")?.features[0].properties["kind"] == .string("island"))
        #expect(back.layer("places")?.features[0].parts == [[.init(x: -5, y: 4100)]])
    }

    /// Every malformed tile is an error that says what is wrong — never a crash.
    @Test("Malformed tiles are errors", arguments: [
        ("truncated varint", Data([0x1a, 0x85])),
        ("length overrun", Data([0x1a, 0x7f, 0x01])),
        ("overlong varint", Data([0x08] + [UInt8](repeating: 0xff, count: 11))),
        ("bad wire type", Data([0x1f])),
    ])
    func malformedBytes(name: String, data: Data) {
        #expect(throws: ProtobufError.self) { try MVTDecoder.decode(data) }
    }

    static func cmd(_ id: UInt32, _ count: UInt32) -> UInt32 { id | count << 3 }
    static let badGeometry: [([UInt32], String)] = [
        ([cmd(1, 8), 2, 2], "wants 8 points"),                      // MoveTo of 8 points with one pair
        ([cmd(1, 1), 2, 2, cmd(2, 5), 1, 1], "wants 5 points"),      // LineTo overruns
        ([cmd(2, 1), 2, 2], "LineTo before MoveTo"),
        ([cmd(1, 1), 2, 2, cmd(2, 1), 4, 4, cmd(7, 2)], "ClosePath with count 2"),
        ([cmd(1, 1), 2, 2, cmd(2, 1), 4, 4, cmd(7, 1)], "ring with 2 points"),
        ([cmd(1, 1), 2, 2, cmd(2, 2), 4, 4, 6, 6], "ring not closed"),
        ([cmd(4, 1), 1, 1], "unknown command 4"),
        ([cmd(1, 0)], "count 0"),
    ]

    @Test("Malformed geometry is an error", arguments: badGeometry)
    func malformedGeometry(geometry: [UInt32], message: String) {
        do {
            _ = try MVTDecoder.decode(Self.tile(geometry: geometry))
            Issue.record("decoded malformed geometry")
        } catch let e as ProtobufError {
            #expect(e.description.contains(message), "\(e.description)")
            #expect(e.description.contains("layer x feature 0"))
        } catch { Issue.record("\(error)") }
    }

    @Test func outOfRangeTagIndicesAreErrors() {
        var s = ProtobufWriter(); s.stringField(1, "v")
        #expect(throws: ProtobufError("layer x feature 0: key index 3 out of range (1 keys)")) {
            try MVTDecoder.decode(Self.tile(geometry: [9, 2, 2], type: 1, tags: [3, 0], keys: ["k"], values: [s.bytes]))
        }
        #expect(throws: ProtobufError("layer x feature 0: value index 9 out of range (1 values)")) {
            try MVTDecoder.decode(Self.tile(geometry: [9, 2, 2], type: 1, tags: [0, 9], keys: ["k"], values: [s.bytes]))
        }
        #expect(throws: ProtobufError("layer x feature 0: odd number of tags")) {
            try MVTDecoder.decode(Self.tile(geometry: [9, 2, 2], type: 1, tags: [0], keys: ["k"], values: [s.bytes]))
        }
    }

    @Test func randomBytesNeverCrash() {
        var rng = SeededGenerator(seed: 11)
        let good = [UInt8](Self.tile(geometry: [9, 6, 12, 18, 10, 12, 24, 44, 15]))
        for _ in 0..<3000 {
            var bytes = good
            for _ in 0..<Int.random(in: 1...4, using: &rng) {
                bytes[Int.random(in: 0..<bytes.count, using: &rng)] = UInt8.random(in: 0...255, using: &rng)
            }
            if Bool.random(using: &rng) { bytes = Array(bytes.prefix(Int.random(in: 0..<bytes.count, using: &rng))) }
            _ = try? MVTDecoder.decode(Data(bytes))
        }
    }
}
