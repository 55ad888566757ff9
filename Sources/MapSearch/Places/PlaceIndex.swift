import FoundationEssentials
import Glibc
import MapGeometry
import Platform

/// The embedded places (Resources/places.tsv, made by basemap-builder from GeoNames), searched
/// as a person types: every word of every name (and of the alternate names) is a key, folded
/// (no case, no diacritics), kept sorted so that a prefix is found by binary search. Results
/// rank by how well they match — the whole name, its start, a word in it, another name — then
/// by population: "paris" is Paris, France before Paris, Texas.
public final class PlaceIndex: Sendable {
    public struct Place: Equatable, Sendable {
        public var name: String
        public var country: String
        public var population: Int
        public var coordinate: Coordinate
        /// The country's ISO 3166 code ("FI"), as the file gives it.
        public var countryCode = ""

        public init(name: String, country: String, population: Int, coordinate: Coordinate, countryCode: String = "") {
            self.name = name
            self.country = country
            self.population = population
            self.coordinate = coordinate
            self.countryCode = countryCode
        }

        /// A zoom that shows the place whole: a metropolis wider than a town.
        public var zoom: Double {
            switch population {
            case 5_000_000...: return 10
            case 1_000_000...: return 11
            case 200_000...: return 12
            case 50_000...: return 13
            default: return 14
            }
        }
    }

    public let places: [Place]
    /// How letters fold ("ü" → "u"), from the file.
    private let folds: [Character: String]
    /// Keys, flattened: bytes of each key, where each starts, whose it is, and what it is.
    private let keyBytes: [UInt8]
    private let keyStart: [Int32]
    private let keyPlace: [Int32]
    private let keyKind: [UInt8]
    /// Key numbers in the order of their bytes.
    private let order: [Int32]

    enum Kind: UInt8 { case name = 0, nameWord = 1, other = 2, otherWord = 3 }

    /// A bound on what a damaged or hostile file can make us hold.
    static let maxPlaces = 2_000_000

    /// Reads the index's text; lines that are not understood are skipped (counted in `skipped`).
    public init(reading data: Data) {
        var places: [Place] = [], folds: [Character: String] = [:], countries: [String: String] = [:]
        var rows: [(name: String, others: [Substring])] = []
        var skipped = 0
        for raw in data.split(separator: UInt8(ascii: "\n")) {
            guard raw.first != UInt8(ascii: "#"), raw.count < 8192 else { continue }
            let fields = raw.split(separator: UInt8(ascii: "\t"), omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
            switch fields.first {
            case "F"? where fields.count == 3 && fields[1].count == 1 && fields[2].utf8.count <= 8:
                folds[fields[1].first!] = fields[2]
            case "C"? where fields.count == 3:
                countries[fields[1]] = fields[2]
            case "P"? where fields.count == 7 && places.count < Self.maxPlaces:
                guard !fields[1].isEmpty, let pop = Int(fields[3]), pop >= 0,
                      let lat = Double(fields[4]), let lon = Double(fields[5]), abs(lat) <= 90, abs(lon) <= 180 else { skipped += 1; continue }
                places.append(Place(name: fields[1], country: countries[fields[2]] ?? fields[2], population: pop,
                                    coordinate: Coordinate(latitude: lat, longitude: lon), countryCode: fields[2]))
                rows.append((fields[1], fields[6].split(separator: "|")))
            default:
                skipped += 1
            }
        }
        self.places = places
        self.folds = folds
        self.skipped = skipped
        var bytes: [UInt8] = [], starts: [Int32] = [], owners: [Int32] = [], kinds: [UInt8] = []
        func add(_ key: Substring.UTF8View, _ place: Int, _ kind: Kind) {
            guard !key.isEmpty, key.count < 256 else { return }
            starts.append(Int32(bytes.count))
            bytes += key
            owners.append(Int32(place))
            kinds.append(kind.rawValue)
        }
        func addWords(_ folded: String, _ place: Int, whole: Kind, word: Kind) {
            add(Substring(folded).utf8, place, whole)
            var previous: Character = " "
            for i in folded.indices {
                let ch = folded[i]
                if i != folded.startIndex, " -(/".contains(previous), ch.isLetter || ch.isNumber { add(folded[i...].utf8, place, word) }
                previous = ch
            }
        }
        for (k, row) in rows.enumerated() {
            addWords(Self.fold(row.name, folds), k, whole: .name, word: .nameWord)
            for other in row.others where !other.isEmpty { addWords(String(other), k, whole: .other, word: .otherWord) }
        }
        starts.append(Int32(bytes.count))
        keyBytes = bytes
        keyStart = starts
        keyPlace = owners
        keyKind = kinds
        order = bytes.withUnsafeBufferPointer { b in
            func key(_ k: Int32) -> UnsafeBufferPointer<UInt8> {
                UnsafeBufferPointer(rebasing: b[Int(starts[Int(k)])..<Int(starts[Int(k) + 1])])
            }
            return (0..<Int32(owners.count)).sorted { key($0).lexicographicallyPrecedes(key($1)) }
        }
    }

    /// Lines of the file that were not understood.
    public let skipped: Int

    /// Lower case without diacritics, by the file's table of letters.
    public func fold(_ s: String) -> String { Self.fold(s, folds) }

    static func fold(_ s: String, _ folds: [Character: String]) -> String {
        var out = ""
        var space = false
        for ch in s.lowercased() {
            // Runs of spaces are one, as in the keys.
            if ch == " " { if !space, !out.isEmpty { out.append(" ") }; space = true; continue }
            space = false
            if ch.isASCII { out.append(ch) } else { out += folds[ch] ?? String(ch) }
        }
        if out.last == " " { out.removeLast() }
        return out
    }

    /// The best `limit` places for what was typed, best first.
    public func search(_ query: String, limit: Int = 8) -> [Place] {
        matches(query, limit: limit).map(\.place)
    }

    /// The best `limit` places with how well each matched, on `SearchRanking.match`'s scale:
    /// the whole name 6, its start 5, a whole word 4, a word's start 3; another name (an
    /// exonym: "wien" is Vienna) typed whole 5.5, its start 4.5, a word of it 3.5 or 2.
    public func matches(_ query: String, limit: Int = 8) -> [(place: Place, match: Double)] {
        let q = Array(fold(query).utf8)
        guard !q.isEmpty, !order.isEmpty else { return [] }
        // The best match of each place found, and the places found (in the order found).
        var best = [Float](repeating: 0, count: places.count)
        // Which kind of key gave the best (3.5 is a word of the name or another name whole).
        var kindOfBest = [UInt8](repeating: 0, count: places.count)
        var found: [Int32] = []
        keyBytes.withUnsafeBufferPointer { b in
            func key(_ k: Int32) -> UnsafeBufferPointer<UInt8> {
                UnsafeBufferPointer(rebasing: b[Int(keyStart[Int(k)])..<Int(keyStart[Int(k) + 1])])
            }
            // The first key not before the query: every key it prefixes follows it.
            var lo = 0, hi = order.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if key(order[mid]).lexicographicallyPrecedes(q) { lo = mid + 1 } else { hi = mid }
            }
            var i = lo
            while i < order.count {
                let k = order[i]
                let bytes = key(k)
                guard bytes.starts(with: q) else { break }
                let whole = bytes.count == q.count
                let kind = Kind(rawValue: keyKind[Int(k)]) ?? .otherWord
                let quality: Float
                switch kind {
                case .name: quality = whole ? 6 : 4
                case .nameWord: quality = whole ? 3.5 : 3
                case .other: quality = whole ? 3.5 : 2
                case .otherWord: quality = whole ? 1.5 : 1
                }
                let p = Int(keyPlace[Int(k)])
                if best[p] == 0 { found.append(Int32(p)) }
                if quality > best[p] { best[p] = quality; kindOfBest[p] = kind.rawValue }
                i += 1
            }
        }
        // Match quality, weighed against size (log scale: a tenfold town is one step, a
        // better kind of match three): "wien" is Vienna before Wiener Neustadt;
        // the best few kept as they come, rather than all of them sorted.
        var top: [(place: Int32, score: Double)] = []
        for p in found {
            let score = Double(best[Int(p)]) * 3 + log10(Double(places[Int(p)].population) + 1)
            guard top.count < limit || score > top[top.count - 1].score else { continue }
            let at = top.firstIndex { $0.score < score } ?? top.count
            top.insert((p, score), at: at)
            if top.count > limit { top.removeLast() }
        }
        return top.map { t in
            let quality = best[Int(t.place)]
            let match: Double = switch quality {
            case 6: 6
            case 4: 5
            case 3.5 where kindOfBest[Int(t.place)] == Kind.nameWord.rawValue: 4
            case 3.5: 5.5
            case 3: 3
            case 2: 4.5
            case 1.5: 3.5
            default: 2
            }
            return (places[Int(t.place)], match)
        }
    }
}
