import FoundationEssentials
import CIntl
import Glibc

/// The reader's locale, read once at start: the messages' language (gettext), how numbers
/// are written ("1,5 km"), and which languages the map's labels are wanted in.
public enum Localization {
    /// How the locale writes numbers; the C library keeps writing and reading "1.5" (files,
    /// programs and protocols read them so): only text for a person is converted.
    public struct Numbers: Equatable, Sendable {
        public var decimalPoint: String
        public var groupSeparator: String
        public init(decimalPoint: String = ".", groupSeparator: String = ",") {
            self.decimalPoint = decimalPoint
            self.groupSeparator = groupSeparator
        }
        /// English's way (and the C locale's point, grouped as a reader expects).
        public static let english = Numbers()
    }

    private static let numbersChosen = LockedValue<Numbers>()
    private static let languagesChosen = LockedValue<[String]>()

    /// How numbers are written for the reader (English's way until `start` or `use`; a test
    /// sets its own for its task alone with `$numbersHere.withValue`).
    public static var numbers: Numbers { numbersHere ?? numbersChosen.get() ?? .english }
    @TaskLocal public static var numbersHere: Numbers?
    public static func use(_ numbers: Numbers) { numbersChosen.set(numbers) }

    /// The reader's languages, most wanted first, as ISO 639 codes ("sv", "pt"): from
    /// LANGUAGE, then LC_MESSAGES (empty in the C locale: English).
    public static var languages: [String] { languagesChosen.get() ?? [] }
    public static func use(languages: [String]) { languagesChosen.set(languages) }

    /// Sets the locale from the environment (LC_NUMERIC stays C), reads the numbers' and
    /// languages' conventions, and binds the `domain` catalogues in the first of `directories`
    /// holding any (else the system's). Returns false when the locale named is not on this
    /// machine (English then).
    @discardableResult
    public static func start(domain: String, directories: [String], environment env: [String: String]) -> Bool {
        let ok = meridian_setlocale_from_environment() != 0
        var point = [CChar](repeating: 0, count: 16), group = [CChar](repeating: 0, count: 16)
        meridian_numeric_conventions(&point, 16, &group, 16)
        var numbers = Numbers(decimalPoint: String(cBuffer: point), groupSeparator: String(cBuffer: group))
        if numbers.decimalPoint.isEmpty { numbers.decimalPoint = "." }
        // The C and C.UTF-8 locales group nothing; a reader of English expects commas.
        if numbers.groupSeparator.isEmpty, numbers.decimalPoint == "." { numbers.groupSeparator = "," }
        use(numbers)
        let messages = String(cString: meridian_messages_locale())
        use(languages: languages(messagesLocale: messages, language: env["LANGUAGE"]))
        let directory = directories.first { dir in
            ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).contains { FileIO.exists(dir + "/" + $0 + "/LC_MESSAGES/" + domain + ".mo") }
        }
        Translation.use(.gettext(domain: domain, directory: directory))
        return ok
    }

    /// The reader's country as the locale names it ("de_AT.UTF-8" → "AT"), from LC_ALL,
    /// LC_MESSAGES or LANG; nil where none is named (C, C.UTF-8, "en").
    public static func region(environment env: [String: String]) -> String? {
        let name = [env["LC_ALL"], env["LC_MESSAGES"], env["LANG"]].compactMap { $0 }.first { !$0.isEmpty } ?? ""
        guard let underscore = name.firstIndex(of: "_") else { return nil }
        let code = name[name.index(after: underscore)...].prefix { $0 != "." && $0 != "@" }
        return code.count == 2 && code.allSatisfy({ $0.isASCII && $0.isLetter }) ? code.uppercased() : nil
    }

    /// "de_DE.UTF-8" with LANGUAGE "sv:de" → ["sv", "de"]; glibc ignores LANGUAGE in the C
    /// (and POSIX) locale, and so does this — not in C.UTF-8, which names no language itself.
    public static func languages(messagesLocale: String, language: String?) -> [String] {
        func code(_ s: Substring) -> String? {
            let c = s.prefix { $0 != "_" && $0 != "." && $0 != "@" }.lowercased()
            return c.count >= 2 && c.count <= 3 && c.allSatisfy({ $0.isASCII && $0.isLetter }) && c != "c" ? c : nil
        }
        guard messagesLocale != "C", messagesLocale != "POSIX" else { return [] }
        var out: [String] = []
        for part in (language ?? "").split(separator: ":") {
            if let c = code(part), !out.contains(c) { out.append(c) }
        }
        if let own = code(Substring(messagesLocale)), !out.contains(own) { out.append(own) }
        return out
    }
}

extension Localization {
    /// A day as the reader's locale writes dates (strftime's %x: "26.11.2026", "2026/11/26");
    /// nil in the C locale, where the caller's own English form stands.
    public static func date(year: Int, month: Int, day: Int) -> String? {
        guard let name = setlocale(LC_TIME, nil).map({ String(cString: $0) }), name != "C", name != "POSIX",
              !name.hasPrefix("C."), (1...12).contains(month), (1...31).contains(day), (1...9999).contains(year) else { return nil }
        var parts = tm()
        parts.tm_year = Int32(year - 1900)
        parts.tm_mon = Int32(month - 1)
        parts.tm_mday = Int32(day)
        parts.tm_hour = 12
        var buffer = [CChar](repeating: 0, count: 64)
        let n = strftime(&buffer, buffer.count, "%x", &parts)
        return n > 0 ? String(cBuffer: buffer) : nil
    }
}

extension Localization.Numbers {
    /// `text` as C writes numbers ("12,345.6") in the reader's way ("12 345,6").
    public func localized(_ text: String) -> String {
        guard decimalPoint != "." || groupSeparator != "," else { return text }
        var out = ""
        for c in text {
            switch c {
            case ".": out += decimalPoint
            case ",": out += groupSeparator
            default: out.append(c)
            }
        }
        return out
    }
}
