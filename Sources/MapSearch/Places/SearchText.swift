import FoundationEssentials
import Platform

/// How names are compared in search: lower case, without diacritics ("Töölönkatu" →
/// "toolonkatu"), punctuation as spaces, and — for keys — runs of one letter as one, so that
/// "tolonkatu", typed without the dots and one o short, still finds Töölönkatu, and "Aleksanterinkatu"
/// with a doubled k finds it too. Used for the street index's keys and for every query.
public enum SearchText {
    /// Letters with diacritics (precomposed), and the plain letters they stand for: Latin,
    /// Greek with tonos, a few Cyrillic. Decomposed marks are dropped by their class.
    static let folds: [Unicode.Scalar: String] = {
        let table =
        "ßss àa áa âa ãa äa åa æae çc èe ée êe ëe ìi íi îi ïi ðd ñn òo óo ôo õo öo øo ùu úu ûu üu " +
        "ýy þth ÿy āa ăa ąa ćc ĉc ċc čc ďd đd ēe ĕe ėe ęe ěe ĝg ğg ġg ģg ĥh ħh ĩi īi ĭi įi ıi ĵj ķk " +
        "ĸk ĺl ļl ľl ŀl łl ńn ņn ňn ŉn ōo ŏo őo œoe ŕr ŗr řr śs ŝs şs šs ţt ťt ŧt ũu ūu ŭu ůu űu ųu " +
        "ŵw ŷy źz żz žz ſs ƀb ƒf ơo ưu ǎa ǐi ǒo ǔu ǖu ǘu ǚu ǜu ǟa ǡa ǧg ǩk ǫo ǭo ǰj ǵg ǹn ǻa ȁa ȃa " +
        "ȅe ȇe ȉi ȋi ȍo ȏo ȑr ȓr ȕu ȗu șs țt ȟh ȧa ȩe ȫo ȭo ȯo ȱo ȳy ɨi ʉu ΐι άα έε ήη ίι ΰυ ϊι ϋυ " +
        "όο ύυ ώω йи ёе ўу ḁa ḃb ḅb ḇb ḉc ḋd ḍd ḏd ḑd ḓd ḕe ḗe ḙe ḛe ḝe ḟf ḡg ḣh ḥh ḧh ḩh ḫh ḭi ḯi " +
        "ḱk ḳk ḵk ḷl ḹl ḻl ḽl ḿm ṁm ṃm ṅn ṇn ṉn ṋn ṍo ṏo ṑo ṓo ṕp ṗp ṙr ṛr ṝr ṟr ṡs ṣs ṥs ṧs ṩs ṫt " +
        "ṭt ṯt ṱt ṳu ṵu ṷu ṹu ṻu ṽv ṿv ẁw ẃw ẅw ẇw ẉw ẋx ẍx ẏy ẑz ẓz ẕz ẖh ẗt ẘw ẙy ạa ảa ấa ầa ẩa " +
        "ẫa ậa ắa ằa ẳa ẵa ặa ẹe ẻe ẽe ếe ềe ểe ễe ệe ỉi ịi ọo ỏo ốo ồo ổo ỗo ộo ớo ờo ởo ỡo ợo ụu " +
        "ủu ứu ừu ửu ữu ựu ỳy ỵy ỷy ỹy "
        var out: [Unicode.Scalar: String] = [:]
        for pair in table.split(separator: " ") {
            guard let first = pair.unicodeScalars.first else { continue }
            out[first] = String(String.UnicodeScalarView(pair.unicodeScalars.dropFirst()))
        }
        return out
    }()

    /// Lower case, no diacritics, apostrophes gone, other punctuation a space, single spaces.
    public static func fold(_ s: String) -> String {
        var out = String.UnicodeScalarView()
        var space = true
        for scalar in s.lowercased().unicodeScalars {
            if scalar.properties.canonicalCombiningClass != .notReordered { continue }
            if scalar == "'" || scalar == "\u{2019}" || scalar == "`" { continue }
            let letter = scalar.properties.isAlphabetic || scalar.properties.numericType != nil
            guard letter else {
                if !space { out.append(" "); space = true }
                continue
            }
            space = false
            if scalar.isASCII { out.append(scalar) } else if let f = folds[scalar] { out.append(contentsOf: f.unicodeScalars) } else { out.append(scalar) }
        }
        if out.last == " " { out.removeLast() }
        return String(out)
    }

    /// `fold`, with runs of one letter as one ("toolonkatu" → "tolonkatu"): what is indexed
    /// and what is looked up.
    public static func key(_ s: String) -> String {
        var out = String.UnicodeScalarView()
        for scalar in fold(s).unicodeScalars where scalar != out.last || scalar == " " || scalar.properties.numericType != nil {
            out.append(scalar)
        }
        return String(out)
    }

    /// The words of a key.
    public static func words(_ key: String) -> [Substring] { key.split(separator: " ") }
}
