import Platform

/// ArgumentParser's own words in `--help` and its errors (its headings, the help and version
/// options' lines), in the reader's language: the library has no catalogue of its own.
enum HelpText {
    static func translated(_ text: String) -> String {
        let headings: [(String, String)] = [
            ("OVERVIEW:", trc("help heading", "OVERVIEW:")), ("USAGE:", trc("help heading", "USAGE:")),
            ("ARGUMENTS:", trc("help heading", "ARGUMENTS:")), ("OPTIONS:", trc("help heading", "OPTIONS:")),
            ("SUBCOMMANDS:", trc("help heading", "SUBCOMMANDS:")), ("Error:", trc("help heading", "Error:")),
            ("Usage:", trc("help heading", "Usage:")),
        ]
        let phrases: [(String, String)] = [
            ("Show help information.", tr("Show help information.")), ("Show the version.", tr("Show the version.")),
            ("(default: ", tr("(default: ")), ("for detailed help.", tr("for detailed help.")), ("See '", tr("See '")),
            ("(default)", tr("(default)")), ("(values: ", tr("(values: ")), ("; default: ", tr("; default: ")),
        ]
        return text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            var s = String(line)
            for (english, own) in headings where s.hasPrefix(english) {
                s = own + s.dropFirst(english.count)
                break
            }
            for (english, own) in phrases where s.contains(english) {
                s = s.replacing(english, with: own)
            }
            return s
        }.joined(separator: "\n")
    }
}
