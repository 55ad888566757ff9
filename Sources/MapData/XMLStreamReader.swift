import CLibXML2
import FoundationEssentials
import Glibc

/// What is wrong with an XML document, and on which line.
public struct XMLReadError: Error, CustomStringConvertible, Sendable {
    public let line: Int
    public let reason: String
    public var description: String { "line \(line): \(reason)" }
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
        bytes = [UInt8](data)
        let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOWARNING.rawValue | XML_PARSE_NOCDATA.rawValue)
        let r: OpaquePointer? = bytes.withUnsafeBufferPointer { buf in
            buf.baseAddress!.withMemoryRebound(to: CChar.self, capacity: max(buf.count, 1)) {
                xmlReaderForMemory($0, Int32(clamping: buf.count), name, nil, options)
            }
        }
        guard let r else { throw XMLReadError(line: 1, reason: "cannot start the XML reader") }
        reader = r
        // Errors come to us (with their line) instead of libxml2 printing them to stderr.
        xmlTextReaderSetErrorHandler(reader, { arg, message, _, _ in
            guard let arg else { return }
            let me = Unmanaged<XMLStreamReader>.fromOpaque(arg).takeUnretainedValue()
            guard me.error == nil else { return }
            let text = message.map { String(cString: $0).trimmed } ?? "parse error"
            // Where the parser stands as it complains (the locator says line 1 in reader mode).
            me.error = XMLReadError(line: Int(xmlTextReaderGetParserLineNumber(me.reader)), reason: "not well-formed XML (\(text))")
        }, Unmanaged.passUnretained(self).toOpaque())
    }

    deinit { xmlFreeTextReader(reader) }

    /// Moves to the next node; false at the end of the document.
    public func next() throws -> Bool {
        let rc = xmlTextReaderRead(reader)
        if let error { throw error }
        if rc < 0 { throw XMLReadError(line: line, reason: "not well-formed XML") }
        if rc == 1, xmlTextReaderNodeType(reader) == Int32(XML_READER_TYPE_DOCUMENT_TYPE.rawValue) {
            throw XMLReadError(line: line, reason: "a document type declaration (DTD) is not accepted")
        }
        return rc == 1
    }

    public var node: Node {
        switch xmlTextReaderNodeType(reader) {
        case Int32(XML_READER_TYPE_ELEMENT.rawValue): return .element
        case Int32(XML_READER_TYPE_END_ELEMENT.rawValue): return .endElement
        case Int32(XML_READER_TYPE_TEXT.rawValue), Int32(XML_READER_TYPE_SIGNIFICANT_WHITESPACE.rawValue): return .text
        default: return .other
        }
    }

    /// An element's name without its namespace prefix ("trkpt" for "gpx:trkpt").
    public var localName: String {
        xmlTextReaderConstLocalName(reader).map { String(cString: $0) } ?? ""
    }

    /// The element was written `<x/>`: no end-element node follows.
    public var isEmptyElement: Bool { xmlTextReaderIsEmptyElement(reader) == 1 }

    /// The current text node's content.
    public var value: String {
        xmlTextReaderConstValue(reader).map { String(cString: $0) } ?? ""
    }

    public func attribute(_ name: String) -> String? {
        let found = name.withCString { $0.withMemoryRebound(to: xmlChar.self, capacity: name.utf8.count + 1) { xmlTextReaderGetAttribute(reader, $0) } }
        guard let v = found else { return nil }
        defer { meridian_xml_free(v) }
        return String(cString: v)
    }

    /// The current node's line (the parser itself may have read ahead).
    public var line: Int {
        if let node = xmlTextReaderCurrentNode(reader) { let n = xmlGetLineNo(node); if n > 0 { return n } }
        return Int(xmlTextReaderGetParserLineNumber(reader))
    }
}
