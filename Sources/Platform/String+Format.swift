import Glibc

/// printf-style formatting and trimming without full Foundation (whose String(format:) and
/// CharacterSet come with ICU, 44 MB of it): the C library formats numbers the same way.
extension String {
    /// `format` filled by vsnprintf; numbers only (%d %f %g %X …), never %@ or %s.
    public init(cFormat format: String, _ args: CVarArg...) {
        var buffer = [CChar](repeating: 0, count: 128)
        let needed = withVaList(args) { vsnprintf(&buffer, buffer.count, format, $0) }
        if needed >= buffer.count {
            buffer = [CChar](repeating: 0, count: Int(needed) + 1)
            _ = withVaList(args) { vsnprintf(&buffer, buffer.count, format, $0) }
        }
        self.init(cBuffer: buffer)
    }

    /// The text a C function wrote into `buffer`, up to its first NUL (all of it if none).
    public init(cBuffer buffer: [CChar]) {
        self = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Without leading and trailing spaces, tabs and line breaks.
    public var trimmed: String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0.isNewline }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(self[first...last])
    }
}

extension Substring {
    public var trimmed: String { String(self).trimmed }
}
