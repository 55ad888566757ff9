import MapCore
import Platform

/// Which names a style's labels show: the local name the style chose, the reader's language
/// where the tiles have it (`name:LL`, in OpenMapTiles and Protomaps tiles alike), or both
/// (the reader's above the local one where they differ). Applied once, when a style is read:
/// a label's text field that reads a name is rewritten, not each label each frame.
public struct LabelLanguage: Hashable, Sendable {
    public typealias Mode = LabelNames

    public var mode: Mode
    /// The reader's languages, most wanted first (ISO 639 codes: "sv", "de").
    public var languages: [String]

    public init(mode: Mode, languages: [String]) {
        self.mode = mode
        self.languages = languages.filter { !$0.isEmpty && $0.count <= 12 }
    }

    /// The names as the style has them.
    public static let local = LabelLanguage(mode: .local, languages: [])

    /// `mode` in the reader's languages (`Localization.languages`).
    public static func reader(_ mode: LabelNames) -> LabelLanguage {
        LabelLanguage(mode: mode, languages: Localization.languages)
    }

    /// Whether the rewrite changes anything.
    public var rewrites: Bool { mode != .local && !languages.isEmpty }

    /// The fields that hold a feature's name in some script or for everyone: a text field
    /// reading one of these is a name label (`{name}`, `{name:latin}`, `name_en`, …).
    static let nameKeys: Set<String> = ["name", "name:latin", "name:nonlatin", "name_int", "name_en", "name:en", "name_de", "name:local"]

    /// Other keys a language's names go by: Protomaps writes Chinese by script
    /// (`name:zh-Hans`, `name:zh-Hant`) and Norwegian as `name:no`, where a locale says zh, nb or nn.
    static let otherKeys: [String: [String]] = ["zh": ["zh-Hans", "zh-Hant"], "nb": ["no"], "nn": ["no"]]

    /// The reader's name of a feature: `name:LL` for each language in turn (and OpenMapTiles'
    /// `name_en`/`name_de` columns for those two, and the keys of `otherKeys`).
    private var translatedName: Node {
        var keys: [Node] = []
        for l in languages {
            keys.append(.get(.literal(.string("name:" + l)), from: nil))
            if l == "en" || l == "de" { keys.append(.get(.literal(.string("name_" + l)), from: nil)) }
            for other in Self.otherKeys[l] ?? [] { keys.append(.get(.literal(.string("name:" + other)), from: nil)) }
        }
        return keys.count == 1 ? keys[0] : .coalesce(keys)
    }

    /// `field` (a text-field) rewritten to read the reader's names first; unchanged when it
    /// reads no name.
    func rewrite(_ field: Node) -> Node {
        guard rewrites, Self.readsName(field) else { return field }
        let translated = translatedName
        switch mode {
        case .local: return field
        case .mine: return .coalesce([translated, field])
        case .both:
            // "Alexandersgatan\nAleksanterinkatu" where the two differ; the reader's name alone
            // where the tiles have no local one; the style's own text otherwise.
            let local = Node.get(.literal(.string("name")), from: nil)
            let differs = Node.all([
                .call(.notEqual, [translated, .literal(.null)]),
                .call(.notEqual, [translated, local]),
            ])
            let hasLocal = Node.call(.notEqual, [local, .literal(.null)])
            return .caseOf([
                (.all([differs, hasLocal]), .call(.concat, [translated, .literal(.string("\n")), local])),
                (differs, translated),
            ], otherwise: field)
        }
    }

    static func readsName(_ n: Node) -> Bool {
        var found = false
        n.visit { node in
            if case let .get(.literal(.string(k)), nil) = node, nameKeys.contains(k) { found = true }
        }
        return found
    }
}
