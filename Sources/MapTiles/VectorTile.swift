import FoundationEssentials
import Glibc
import Platform

/// A decoded Mapbox Vector Tile (spec 2.1): layers of features whose geometry is in tile
/// coordinates, 0…extent across the tile (beyond it in the buffer).
public struct VectorTile: Sendable {
    public var layers: [Layer]

    public init(layers: [Layer]) { self.layers = layers }

    public func layer(_ name: String) -> Layer? { layers.first { $0.name == name } }

    public struct Layer: Sendable {
        public var name: String
        public var extent: Int
        public var features: [Feature]
        public init(name: String, extent: Int = 4096, features: [Feature] = []) {
            self.name = name; self.extent = extent; self.features = features
        }
    }

    public enum GeometryType: Int, Sendable { case unknown = 0, point = 1, lineString = 2, polygon = 3 }

    public struct Point: Hashable, Sendable {
        public var x: Int32
        public var y: Int32
        public init(x: Int32, y: Int32) { self.x = x; self.y = y }
    }

    public enum Value: Hashable, Sendable {
        case string(String), double(Double), int(Int64), bool(Bool)
        public var number: Double? {
            switch self {
            case let .double(d): return d
            case let .int(i): return Double(i)
            default: return nil
            }
        }
        public var string: String? { if case let .string(s) = self { return s } else { return nil } }
    }

    public struct Feature: Sendable {
        public var id: UInt64?
        public var type: GeometryType
        /// Points: each part one point. Lines: each part a line. Polygons: each part a ring
        /// (closing point not repeated); exterior rings clockwise, holes anticlockwise.
        public var parts: [[Point]]
        public var properties: [String: Value]
        public init(id: UInt64? = nil, type: GeometryType, parts: [[Point]], properties: [String: Value] = [:]) {
            self.id = id; self.type = type; self.parts = parts; self.properties = properties
        }
    }
}
