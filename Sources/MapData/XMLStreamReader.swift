import CLibXML2
import FoundationEssentials
import Glibc
import Platform

/// What is wrong with an XML document, and on which line.
public struct XMLReadError: Error, CustomStringConvertible, Sendable {
    public let line: Int
    public let reason: String
    // TRANSLATORS: %1$d is a line of a file, %2$@ what is wrong there.
    public var description: String { tr("line %1$d: %2$@", line, reason) }
}

/// libxml2's streaming reader (xmlTextReader), thinly wrapped: one node at a time, so a
/// 100 MB track never becomes a tree in memory. Hostile documents are refused: no network,
/// no external entities, no entity expansion, and no DTD at all (GPX and KML never have one;
/// a DTD is how billion-laughs and external-entity attacks arrive).
public final class XMLStreamReader {
    public enum Node: Equatable { case element, endElement, text, other }

    private let reader: OpaquePointer
    private let bytes: [UInt8]
    /// The first error libxml2 reported, with its line.
    private var error: XMLReadError?

    public init(data: Data, name: String) throws {
        if let why = mx_load() { throw XMLReadError(line: 1, reason: String(cString: why)) }
        bytes = [UInt8](data)
        let r: OpaquePointer? = bytes.withUnsafeBufferPointer { buf in
            buf.baseAddress!.withMemoryRebound(to: CChar.self, capacity: max(buf.count, 1)) {
                mx_reader_for_memory($0, Int32(clamping: buf.count), name)
            }
        }
        guard let r else { throw XMLReadError(line: 1, reason: tr("cannot start the XML reader")) }
        reader = r
        // Errors come to us (with their line) instead of libxml2 printing them to stderr.
        mx_set_error_handler(reader, { arg, message, _, _ in
            guard let arg else { return }
            let me = Unmanaged<XMLStreamReader>.fromOpaque(arg).takeUnretainedValue()
            guard me.error == nil else { return }
            let text = message.map { String(cString: $0).trimmed } ?? tr("parse error")
            // Where the parser stands as it complains (the locator says line 1 in reader mode).
            // TRANSLATORS: %@ is libxml2's own message (in English).
            me.error = XMLReadError(line: Int(mx_parser_line(me.reader)), reason: tr("not well-formed XML (%@)", text))
        }, Unmanaged.passUnretained(self).toOpaque())
    }

    deinit { mx_free_reader(reader) }

    /// Moves to the next node; false at the end of the document.
    public func next() throws -> Bool {
        let rc = mx_read(reader)
        if let error { throw error }
        if rc < 0 { throw XMLReadError(line: line, reason: tr("not well-formed XML")) }
        if rc == 1, mx_node(reader) == MX_DOCUMENT_TYPE {
            throw XMLReadError(line: line, reason: tr("a document type declaration (DTD) is not accepted"))
        }
        return rc == 1
    }

    public var node: Node {
        switch mx_node(reader) {
        case MX_ELEMENT: return .element
        case MX_END_ELEMENT: return .endElement
        case MX_TEXT: return .text
        default: return .other
        }
    }

    /// An element's name without its namespace prefix ("trkpt" for "gpx:trkpt").
    public var localName: String {
        mx_local_name(reader).map { String(cString: $0) } ?? ""
    }

    /// The element was written `<x/>`: no end-element node follows.
    public var isEmptyElement: Bool { mx_is_empty_element(reader) == 1 }

    /// The current text node's content.
    public var value: String {
        mx_value(reader).map { String(cString: $0) } ?? ""
    }

    public func attribute(_ name: String) -> String? {
        guard let v = mx_attribute(reader, name) else { return nil }
        defer { mx_free(v) }
        return String(cString: v)
    }

    /// The current node's line (the parser itself may have read ahead).
    public var line: Int { Int(mx_line(reader)) }
}
