import FoundationEssentials
import Platform

/// The nearest address or street to a point, and the district or town around it: what a
/// right-click or a pin's callout says of where it is.
public struct WhatIsHere: Sendable, Equatable {
    public var thing: SearchResult?
    public var area: String?

    public init(thing: SearchResult?, area: String?) { self.thing = thing; self.area = area }

    /// "Aleksanterinkatu 52, Kluuvi", "Mannerheimintie, Kluuvi", "Kluuvi".
    public var text: String? {
        let parts = [thing?.name, thing?.area ?? area].compactMap { $0 }.filter { !$0.isEmpty }
        var unique: [String] = []
        for p in parts where !unique.contains(p) { unique.append(p) }
        return unique.isEmpty ? nil : unique.joined(separator: ", ")
    }
}
