import FoundationEssentials
import Glibc

/// Any JSON document as a value, read with JSONDecoder (FoundationEssentials, no ICU):
/// what JSONSerialization's `Any` trees were, but typed, so a wrong shape is a clear error.
public enum JSONValue: Codable, Equatable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    public init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() { self = .null }
        else if let b = try? c.decode(Bool.self) { self = .bool(b) }
        else if let n = try? c.decode(Double.self) { self = .number(n) }
        else if let s = try? c.decode(String.self) { self = .string(s) }
        else if let a = try? c.decode([JSONValue].self) { self = .array(a) }
        else { self = .object(try c.decode([String: JSONValue].self)) }
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case .null: try c.encodeNil()
        case let .bool(b): try c.encode(b)
        case let .number(n): try c.encode(n)
        case let .string(s): try c.encode(s)
        case let .array(a): try c.encode(a)
        case let .object(o): try c.encode(o)
        }
    }

    /// Parses `data`; the error names what is wrong and where, as the decoder says it.
    public static func parse(_ data: Data) throws -> JSONValue {
        do { return try JSONDecoder().decode(JSONValue.self, from: data) } catch let e as DecodingError {
            throw JSONParseError(reason: Self.reason(e))
        }
    }

    static func reason(_ e: DecodingError) -> String {
        switch e {
        case let .dataCorrupted(ctx): return ctx.debugDescription
        default: return "\(e)"
        }
    }

    public subscript(key: String) -> JSONValue? {
        if case let .object(o) = self { return o[key] } else { return nil }
    }

    public var string: String? { if case let .string(s) = self { return s } else { return nil } }
    public var number: Double? { if case let .number(n) = self { return n } else { return nil } }
    public var array: [JSONValue]? { if case let .array(a) = self { return a } else { return nil } }
    public var object: [String: JSONValue]? { if case let .object(o) = self { return o } else { return nil } }
}

public struct JSONParseError: Error, CustomStringConvertible, Sendable {
    public let reason: String
    // TRANSLATORS: %@ is the JSON reader's own message (in English).
    public var description: String { tr("not valid JSON (%@)", reason) }
}

// Literals, for JSON written in code (a style made for tiles of an unknown schema).
extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral, ExpressibleByBooleanLiteral,
                     ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral {
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
    public init(floatLiteral value: Double) { self = .number(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) { self = .object(Dictionary(elements, uniquingKeysWith: { a, _ in a })) }
}
