import Platform

/// What a search result is, in the reader's language. The maps' names index keeps it in
/// English ("tram stop", "peak · 1,245 m": the index is shared by every language and compared
/// in code); a row translates it when it is shown. These are the words the index writes most
/// (from OSM's and OpenMapTiles' classes); any other is shown as the index has it.
enum PlaceKinds {
    /// Marked for the catalogue only: `shown(_:)` looks them up by their English.
    static let words: [StaticString] = [
        NC_("kind of place", "café"), NC_("kind of place", "restaurant"), NC_("kind of place", "bar"), NC_("kind of place", "pub"),
        NC_("kind of place", "fast food"), NC_("kind of place", "bank"), NC_("kind of place", "ATM"), NC_("kind of place", "pharmacy"),
        NC_("kind of place", "hospital"), NC_("kind of place", "school"), NC_("kind of place", "university"), NC_("kind of place", "library"),
        NC_("kind of place", "theatre"), NC_("kind of place", "cinema"), NC_("kind of place", "hotel"), NC_("kind of place", "museum"),
        NC_("kind of place", "supermarket"), NC_("kind of place", "bakery"), NC_("kind of place", "clothes"), NC_("kind of place", "shop"),
        NC_("kind of place", "post office"), NC_("kind of place", "police"), NC_("kind of place", "toilets"), NC_("kind of place", "car park"),
        NC_("kind of place", "petrol station"), NC_("kind of place", "town hall"), NC_("kind of place", "place of worship"),
        NC_("kind of place", "ice cream parlour"), NC_("kind of place", "bus station"), NC_("kind of place", "ferry terminal"),
        NC_("kind of place", "railway station"), NC_("kind of place", "railway stop"), NC_("kind of place", "tram stop"),
        NC_("kind of place", "metro entrance"), NC_("kind of place", "metro station"), NC_("kind of place", "metro"),
        NC_("kind of place", "cable car station"), NC_("kind of place", "shopping centre"), NC_("kind of place", "convenience store"),
        NC_("kind of place", "department store"), NC_("kind of place", "sight"), NC_("kind of place", "tourist information"),
        NC_("kind of place", "bus stop"), NC_("kind of place", "footpath"), NC_("kind of place", "cycle path"),
        NC_("kind of place", "pedestrian street"), NC_("kind of place", "motorway"), NC_("kind of place", "main road"),
        NC_("kind of place", "path"), NC_("kind of place", "track"), NC_("kind of place", "steps"), NC_("kind of place", "motorway junction"),
        NC_("kind of place", "service road"), NC_("kind of place", "river"), NC_("kind of place", "stream"), NC_("kind of place", "lake"),
        NC_("kind of place", "national park"), NC_("kind of place", "protected area"), NC_("kind of place", "nature reserve"),
        NC_("kind of place", "island"), NC_("kind of place", "building"), NC_("kind of place", "railway"), NC_("kind of place", "garden"),
        NC_("kind of place", "playground"), NC_("kind of place", "sports centre"), NC_("kind of place", "stadium"), NC_("kind of place", "zoo"),
        NC_("kind of place", "castle"), NC_("kind of place", "church"), NC_("kind of place", "monument"), NC_("kind of place", "viewpoint"),
        NC_("kind of place", "attraction"), NC_("kind of place", "marketplace"), NC_("kind of place", "kindergarten"), NC_("kind of place", "college"),
        NC_("kind of place", "dentist"), NC_("kind of place", "doctors"), NC_("kind of place", "veterinary"), NC_("kind of place", "fire station"),
        NC_("kind of place", "hairdresser"), NC_("kind of place", "books"), NC_("kind of place", "bicycle"), NC_("kind of place", "car"),
        NC_("kind of place", "hostel"), NC_("kind of place", "guest house"), NC_("kind of place", "camp site"), NC_("kind of place", "harbour"),
    ]

    /// "peak · 1,245 m" with "peak" in the reader's language.
    static func shown(_ what: String) -> String {
        guard let cut = what.firstRange(of: " · ") else { return Translation.current.text("kind of place", what) }
        return Translation.current.text("kind of place", String(what[..<cut.lowerBound])) + what[cut.lowerBound...]
    }
}
