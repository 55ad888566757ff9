import CIntl

/// Every word a person reads goes through here: `tr("Saved areas")`, `trn("%d tile", "%d tiles",
/// n)`, `trc("map", "Directions")` where one English word means two things. Messages are
/// literals (a `StaticString` cannot hold an interpolation): `make pot` extracts them with
/// xgettext's C reader (`-ktr -ktrn:1,2 -ktrc:1c,2 -kN_ -kNC_:1c,2`), so what varies goes in as an
/// argument, placed at `%@` (or `%d`; `%2$@` to reorder, `%%` for a percent sign).
///
/// The library speaks through `Translation.current`, by default glibc's gettext in the
/// `meridian` domain; an app embedding the map sets its own (`Translation.use(_:)`).
public struct Translation: Sendable {
    /// The text for `message`, in `context` when not nil.
    public var text: @Sendable (_ context: String?, _ message: String) -> String
    /// The text for a count: `singular`/`plural` are the English forms, chosen in the
    /// catalogue by its own plural rule.
    public var plural: @Sendable (_ context: String?, _ singular: String, _ plural: String, _ count: Int) -> String

    public init(text: @escaping @Sendable (String?, String) -> String,
                plural: @escaping @Sendable (String?, String, String, Int) -> String) {
        self.text = text
        self.plural = plural
    }

    /// glibc's gettext in `domain`, its catalogues under `directory` (LL/LC_MESSAGES/DOMAIN.mo;
    /// nil: the system's, /usr/share/locale).
    public static func gettext(domain: String, directory: String? = nil) -> Translation {
        if let directory { bindtextdomain(domain, directory) }
        bind_textdomain_codeset(domain, "UTF-8")
        // gettext answers with the very pointer it was given when it has no translation:
        // each C string is held while its answer is read.
        return Translation(
            text: { context, message in
                message.withCString { m in
                    guard let context else { return String(cString: dgettext(domain, m)) }
                    return context.withCString { String(cString: meridian_dpgettext(domain, $0, m)) }
                }
            },
            plural: { context, singular, plural, count in
                let n = UInt(clamping: max(count, 0))
                return singular.withCString { s in
                    plural.withCString { p in
                        guard let context else { return String(cString: dngettext(domain, s, p, n)) }
                        return context.withCString { String(cString: meridian_dnpgettext(domain, $0, s, p, n)) }
                    }
                }
            })
    }

    /// No catalogue: the English messages.
    public static let english = Translation(text: { $1 }, plural: { _, s, p, n in
        // English's own rule (a catalogue brings its language's).
        n == 1 ? s : p
    })

    private static let chosen = LockedValue<Translation>()

    /// What the library says things with: the app's choice, else Meridian's catalogues.
    public static var current: Translation { chosen.get() ?? standard }

    private static let standard = gettext(domain: "meridian")

    /// Chooses how the library speaks. Call it before the map is first used: its tables of
    /// words (the help's keys, the chrome's fixed labels) are made once, at first use, so that
    /// no frame or input event translates them again.
    public static func use(_ translation: Translation) { chosen.set(translation) }
}

/// `message` in the reader's language, with `arguments` at its placeholders.
public func tr(_ message: StaticString, _ arguments: Any...) -> String {
    Translation.fill(Translation.current.text(nil, message.description), arguments)
}

/// `message` in `context` (msgctxt), for a word that means two things in English.
public func trc(_ context: StaticString, _ message: StaticString, _ arguments: Any...) -> String {
    Translation.fill(Translation.current.text(context.description, message.description), arguments)
}

/// The form for `count` (`%d` takes it, unless placed otherwise: `arguments` follow it).
public func trn(_ singular: StaticString, _ plural: StaticString, _ count: Int, _ arguments: Any...) -> String {
    Translation.fill(Translation.current.plural(nil, singular.description, plural.description, count), [count] + arguments)
}

/// Marks a message kept in a table and said later through `tr(_:)` (gettext's N_).
public func N_(_ message: StaticString) -> StaticString { message }

/// Marks a message of `context` kept in a table, looked up later with
/// `Translation.current.text(context, message)`.
public func NC_(_ context: StaticString, _ message: StaticString) -> StaticString { message }

extension Translation {
    /// `text` with `%@`, `%d`, `%s` (in turn) and `%N$@` (the Nth) replaced by the arguments.
    /// A placeholder without an argument stays as it is; `%%` is one percent sign.
    public static func fill(_ text: String, _ arguments: [Any]) -> String {
        guard text.contains("%") else { return text }
        var out = "", next = 0
        var i = text.startIndex
        func argument(_ k: Int) -> String? {
            guard k >= 0, k < arguments.count else { return nil }
            return String(describing: arguments[k])
        }
        while i < text.endIndex {
            let c = text[i]
            guard c == "%" else { out.append(c); i = text.index(after: i); continue }
            let rest = text[text.index(after: i)...]
            if rest.first == "%" { out.append("%"); i = text.index(i, offsetBy: 2); continue }
            // %N$x: the Nth argument.
            let digits = rest.prefix { $0.isASCII && $0.isNumber }
            if !digits.isEmpty, let n = Int(digits), rest.dropFirst(digits.count).first == "$",
               let kind = rest.dropFirst(digits.count + 1).first, "@ds".contains(kind), let v = argument(n - 1) {
                out += v
                i = text.index(i, offsetBy: digits.count + 3)
                continue
            }
            if let kind = rest.first, "@ds".contains(kind), let v = argument(next) {
                out += v
                next += 1
                i = text.index(i, offsetBy: 2)
                continue
            }
            out.append(c)
            i = text.index(after: i)
        }
        return out
    }
}

/// Text from outside (a file, a server, a command line) as a message quotes it: at most 80
/// characters, so that hostile input cannot flood a notice.
public func shownInMessage(_ s: String) -> String { s.count > 80 ? String(s.prefix(77)) + "…" : s }
