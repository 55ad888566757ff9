import Foundation
import Testing

/// Meridian in the reader's language: a pseudo-translation (every message wrapped in ⟦…⟧)
/// finds any English left in `--help`, the help overlay, the map switcher, the search list and
/// a notice; German and Finnish windows are screenshot (docs/ shows them); labels are drawn in
/// the reader's language, the local one, or both.
@Suite(.serialized) struct LanguageTests {
    static let root = StreetMapRenderTests.fixtures.deletingLastPathComponent().deletingLastPathComponent()
    static let names = StreetMapRenderTests.fixtures.appendingPathComponent("vector/helsinki-names.mbtiles").path

    /// Catalogues of the pseudo-language "xx" under `dir`/locale, made from po/meridian.pot.
    static func pseudoLocale(_ dir: URL) throws -> URL {
        let locale = dir.appendingPathComponent("locale")
        let messages = locale.appendingPathComponent("xx/LC_MESSAGES")
        try FileManager.default.createDirectory(at: messages, withIntermediateDirectories: true)
        let po = dir.appendingPathComponent("xx.po").path
        let pot = root.appendingPathComponent("po/meridian.pot").path
        let en = try run("/usr/bin/msgen", ["-o", po + ".en", pot])
        #expect(en.status == 0, "\(en.stderr)")
        let wrapped = try run("/usr/bin/msgfilter", ["--keep-header", "-i", po + ".en", "-o", po, "sed", "-e", "s/^/⟦/", "-e", "s/$/⟧/"])
        #expect(wrapped.status == 0, "\(wrapped.stderr)")
        let mo = try run("/usr/bin/msgfmt", ["-o", messages.appendingPathComponent("meridian.mo").path, po])
        #expect(mo.status == 0, "\(mo.stderr)")
        return locale
    }

    static func pseudoEnv(_ locale: URL) -> [String: String] {
        ["LANG": "de_DE.UTF-8", "LC_ALL": "", "LANGUAGE": "xx", "MERIDIAN_LOCALE_DIR": locale.path]
    }

    /// What is left of `text` outside ⟦…⟧ (nested ones too) that reads as English prose:
    /// three words or more in a row.
    static func english(in text: String) -> [String] {
        var outside = "", depth = 0
        for c in text {
            if c == "⟦" { depth += 1; outside += " "; continue }
            if c == "⟧" { depth = max(depth - 1, 0); outside += " "; continue }
            outside.append(depth == 0 ? c : " ")
        }
        let prose = try! NSRegularExpression(pattern: "[A-Za-z][a-z]+(?: [a-z]{2,}){2,}")
        let ns = outside as NSString
        return prose.matches(in: outside, range: NSRange(location: 0, length: ns.length)).map { ns.substring(with: $0.range) }
    }

    /// The texts a draw list dump holds (`text("…"`, and any other quoted string).
    static func texts(inDrawList dump: String) -> [String] {
        let quoted = try! NSRegularExpression(pattern: #""((?:[^"\\]|\\.)*)""#)
        let ns = dump as NSString
        return quoted.matches(in: dump, range: NSRange(location: 0, length: ns.length)).map { ns.substring(with: $0.range(at: 1)) }
    }

    @Test func noEnglishIsLeftInTheCommandLinesHelp() throws {
        let dir = temporaryDirectory("lang-cli")
        defer { try? FileManager.default.removeItem(at: dir) }
        let env = Self.pseudoEnv(try Self.pseudoLocale(dir)).merging(["XDG_CONFIG_HOME": dir.path, "XDG_CACHE_HOME": dir.path]) { $1 }
        for args in [["--help"], ["open", "--help"], ["render", "--help"], ["extract", "--help"], ["search", "--help"], ["route", "--help"], ["bench", "--help"]] {
            let r = try run(meridianBinary, args, env: env)
            #expect(r.status == 0, "\(args): \(r.stderr)")
            #expect(r.stdout.contains("⟦"), "\(args): nothing translated")
            let left = Self.english(in: r.stdout)
            #expect(left.isEmpty, "\(args): English left: \(left.prefix(12))")
        }
        // An error said to a person, and ArgumentParser's own.
        let bad = try run(meridianBinary, ["route", "95,24.94", "60.171,24.941", "--offline"], env: env)
        #expect(bad.status == 64 && bad.stderr.contains("⟦") && Self.english(in: bad.stderr).isEmpty, "\(bad.stderr)")
        let unknown = try run(meridianBinary, ["render", "--no-such-option"], env: env)
        #expect(unknown.status != 0 && unknown.stderr.contains("⟦"), "\(unknown.stderr)")
    }

    @Test func noEnglishIsLeftInTheWindow() throws {
        let x = try Xvfb()
        let dir = temporaryDirectory("lang-window")
        defer { try? FileManager.default.removeItem(at: dir) }
        let drawList = dir.appendingPathComponent("drawlist.txt").path
        var env = Self.pseudoEnv(try Self.pseudoLocale(dir))
        env["MERIDIAN_FRAME_LOG"] = "1"
        env["MERIDIAN_DRAWLIST_OUT"] = drawList
        env["XDG_CONFIG_HOME"] = dir.path
        env["XDG_CACHE_HOME"] = dir.path
        // A file that is not there: a notice says so.
        let (app, id) = try startWindow(x, dir: dir, ["--size", "800x600", "--no-location", "/nonexistent/walk.gpx"], env: env)
        try app.waitUntilReady()
        func shown(_ what: String, _ key: String..., until done: @escaping ([String]) -> Bool) throws -> [String] {
            for k in key { _ = try x.xdotool("key", k) }
            var texts: [String] = []
            try waitUntil(what, detail: { texts.suffix(30).joined(separator: " | ") }) {
                texts = Self.texts(inDrawList: (try? String(contentsOfFile: drawList, encoding: .utf8)) ?? "")
                return done(texts)
            }
            return texts
        }
        func check(_ what: String, _ texts: [String]) {
            let left = texts.flatMap { Self.english(in: $0) }
            #expect(left.isEmpty, "\(what): English left: \(left.prefix(12))")
        }
        check("the notice", try shown("the notice drawn") { $0.contains { $0.contains("walk.gpx") && $0.contains("⟦") } })
        check("the help overlay", try shown("the help drawn", "F1") { $0.filter { $0.contains("⟦") }.count > 20 })
        _ = try x.xdotool("key", "Escape")
        check("the map switcher", try shown("the switcher drawn", "l") { $0.contains { $0.contains("OpenStreetMap") } && $0.filter { $0.contains("⟦") }.count > 3 })
        _ = try x.xdotool("key", "Escape")
        try app.settle(after: "/") { _ = try x.xdotool("key", "slash") }
        _ = try x.xdotool("type", "--delay", "60", "hels")
        check("the search list", try shown("the search list drawn") { $0.contains { $0.hasPrefix("Helsinki") } })
        try quit(x, id, app)
    }

    /// The message `msgid` of po/LL.po (one-line entries), for what a screenshot should show.
    static func translation(_ msgid: String, in language: String) throws -> String? {
        let lines = try String(contentsOf: root.appendingPathComponent("po/\(language).po"), encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        for (i, line) in lines.enumerated() where line == "msgid \"\(msgid)\"" && i + 1 < lines.count {
            let s = lines[i + 1]
            guard s.hasPrefix("msgstr \""), s.count > 9 else { return nil }
            return String(s.dropFirst(8).dropLast())
        }
        return nil
    }

    /// German and Finnish, as a reader with that desktop sees them: the help overlay and a
    /// notice, screenshot into .build/screenshots for a person to look at.
    @Test(arguments: ["de", "fi"]) func theHelpAndANoticeInTheLanguage(language: String) throws {
        let x = try Xvfb()
        let dir = temporaryDirectory("lang-\(language)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let locale = ["de": "de_DE.UTF-8", "fi": "fi_FI.UTF-8"][language]!
        let drawList = dir.appendingPathComponent("drawlist.txt").path
        let want = try #require(try Self.translation("these keys and gestures", in: language), "po/\(language).po lacks the help's words")
        let (app, id) = try startWindow(x, dir: dir, ["--size", "800x600", "--no-location", "/nonexistent/walk.gpx"],
                                        env: ["LANG": locale, "LC_ALL": "", "LANGUAGE": "", "MERIDIAN_FRAME_LOG": "1", "MERIDIAN_DRAWLIST_OUT": drawList,
                                              "XDG_CONFIG_HOME": dir.path, "XDG_CACHE_HOME": dir.path])
        try app.waitUntilReady()
        _ = try x.xdotool("key", "F1")
        try waitUntil("the help drawn in \(language)") {
            ((try? String(contentsOfFile: drawList, encoding: .utf8)) ?? "").contains(want)
        }
        let shots = Self.root.appendingPathComponent(".build/screenshots")
        try FileManager.default.createDirectory(at: shots, withIntermediateDirectories: true)
        let png = try screenshot(x, to: shots.appendingPathComponent("help-\(language).png").path) { _ in true }
        #expect(png.width == 800)
        try quit(x, id, app)
    }

    /// The Helsinki names fixture's street drawn with LANGUAGE=sv: its Swedish name; with
    /// --labels local the Finnish one; with both, both (the labels the render placed, and the
    /// PDF's text).
    @Test func labelsInTheReadersLanguage() throws {
        let dir = temporaryDirectory("lang-labels")
        defer { try? FileManager.default.removeItem(at: dir) }
        func placed(_ extra: [String], locale: String = "C.UTF-8", language: String = "sv") throws -> (labels: String, pdf: String) {
            let out = dir.appendingPathComponent("m.pdf").path, labels = dir.appendingPathComponent("l.json").path
            let r = try run(meridianBinary, ["render", "--tiles", Self.names, "--center", "60.1688,24.9440", "--zoom", "17", "--size", "900x700",
                                             "--out", out, "--labels-out", labels] + extra,
                            env: ["LANG": locale, "LC_ALL": "", "LANGUAGE": language, "DISPLAY": "", "WAYLAND_DISPLAY": "",
                                  "XDG_CONFIG_HOME": dir.path, "XDG_CACHE_HOME": dir.path])
            #expect(r.status == 0, "\(r.stderr)")
            let text = try run("/usr/bin/pdftotext", [out, "-"])
            return (try String(contentsOfFile: labels, encoding: .utf8), text.stdout)
        }
        let swedish = try placed([])
        #expect(swedish.labels.contains("Alexandersgatan") && !swedish.labels.contains("Aleksanterinkatu"), "\(swedish.labels.prefix(600))")
        #expect(swedish.pdf.contains("Alexandersgatan"), "\(swedish.pdf.prefix(400))")
        let local = try placed(["--labels", "local"])
        #expect(local.labels.contains("Aleksanterinkatu") && !local.labels.contains("Alexandersgatan"))
        #expect(local.pdf.contains("Aleksanterinkatu"))
        let both = try placed(["--labels", "both"])
        #expect(both.labels.contains("Alexandersgatan") && both.labels.contains("Aleksanterinkatu"))
        // A language the tiles lack (Japanese): the local names.
        let japanese = try placed([], locale: "ja_JP.UTF-8", language: "")
        #expect(japanese.labels.contains("Aleksanterinkatu"))
    }
}
