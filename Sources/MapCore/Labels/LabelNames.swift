import Platform

/// Which names the map's labels show: the local name, the reader's language where the tiles
/// have it, or both (the reader's over the local one where they differ). The switcher offers
/// it, the view keeps it, `--labels` asks for it; styles apply it (`LabelLanguage`).
public enum LabelNames: String, CaseIterable, Sendable {
    case local, mine, both

    /// As the switcher's row says it.
    public var title: String {
        switch self {
        case .local: tr("Labels: local names")
        case .mine: tr("Labels: in my language")
        case .both: tr("Labels: both")
        }
    }

    /// The one after this, as a click on the row steps.
    public var next: LabelNames {
        let all = Self.allCases
        return all[(all.firstIndex(of: self)! + 1) % all.count]
    }

    /// Where the reader's language is known, the labels are in it; in the C locale, local.
    public static var standard: LabelNames { Localization.languages.isEmpty ? .local : .mine }
}
