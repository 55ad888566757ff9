import Platform
import Testing

/// The pieces of the translation that need no catalogue: placeholders filled, the reader's
/// languages read from the locale, numbers written the locale's way.
@Suite struct TranslationTests {
    @Test func placeholdersAreFilledInTurnOrByNumber() {
        #expect(Translation.fill("Saved “%@” offline (%@)", ["Helsinki", "12 MB"]) == "Saved “Helsinki” offline (12 MB)")
        #expect(Translation.fill("%2$@ tiles of %1$@", ["A", "7"]) == "7 tiles of A")
        #expect(Translation.fill("%d pins", [3]) == "3 pins")
        #expect(Translation.fill("100 %% done, %@", ["ok"]) == "100 % done, ok")
        // A placeholder with no argument stays; a lone % too.
        #expect(Translation.fill("%@ and %@", ["one"]) == "one and %@")
        #expect(Translation.fill("50 % of it", []) == "50 % of it")
        #expect(Translation.fill("%9$@", ["x"]) == "%9$@")
    }

    @Test func englishNeedsNoCatalogue() {
        #expect(Translation.english.text(nil, "Saved areas") == "Saved areas")
        #expect(Translation.english.plural(nil, "%d pin", "%d pins", 1) == "%d pin")
        #expect(Translation.english.plural(nil, "%d pin", "%d pins", 2) == "%d pins")
        // Without a catalogue for the C locale, gettext answers with the English too.
        #expect(tr("Saved areas") == "Saved areas")
        #expect(trn("%d pin", "%d pins", 5) == "5 pins")
    }

    @Test func theReadersLanguagesComeFromTheLocale() {
        #expect(Localization.languages(messagesLocale: "sv_FI.UTF-8", language: nil) == ["sv"])
        #expect(Localization.languages(messagesLocale: "de_DE.UTF-8", language: "fi:sv_SE:de") == ["fi", "sv", "de"])
        #expect(Localization.languages(messagesLocale: "pt_BR.UTF-8", language: "") == ["pt"])
        // glibc ignores LANGUAGE in the C locale: English, and names left as they are; C.UTF-8
        // names no language, but LANGUAGE counts there.
        #expect(Localization.languages(messagesLocale: "C", language: "de") == [])
        #expect(Localization.languages(messagesLocale: "C.UTF-8", language: "de") == ["de"])
        #expect(Localization.languages(messagesLocale: "C.UTF-8", language: nil) == [])
    }

    @Test func numbersAreWrittenTheLocalesWay() {
        let finnish = Localization.Numbers(decimalPoint: ",", groupSeparator: "\u{A0}")
        #expect(finnish.localized("12,345.6") == "12\u{A0}345,6")
        #expect(finnish.localized("1.5") == "1,5")
        #expect(Localization.Numbers.english.localized("12,345.6") == "12,345.6")
    }
}
