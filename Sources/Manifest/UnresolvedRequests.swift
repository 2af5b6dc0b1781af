/// The authorization requests whose type sets the scan could not follow (a read set built by
/// mapping over a list known only at run time), by the place of each call (`file:line`).
///
/// Kept apart from the requested types on purpose: an empty set of types would read as "asks for
/// nothing", which is the opposite of the truth. Every output that shows requested types says
/// "unknown: N requests could not be resolved (file:line)" from this instead.
public struct UnresolvedRequests: Sendable, Hashable {
    /// Distinct `file:line` places, sorted: the same inputs give the same text.
    public let places: [String]

    public init(_ places: [String] = []) {
        self.places = Array(Set(places)).sorted()
    }

    public var isEmpty: Bool { places.isEmpty }

    public func union(_ other: UnresolvedRequests) -> UnresolvedRequests { UnresolvedRequests(places + other.places) }

    /// "unknown: 2 requests could not be resolved (A.swift:3, B.swift:9)". `place` escapes each
    /// place for the output format: places are paths from the app, so untrusted.
    public func phrase(place: (String) -> String) -> String {
        "unknown: \(Plural.count(places.count, "request")) could not be resolved (\(places.map(place).joined(separator: ", ")))"
    }

    /// One direction's requested types in words: the names, "none" when nothing is asked and
    /// nothing is unknown, and what is unknown after any names that are known.
    public static func describe(_ names: [String], unresolved: UnresolvedRequests, name: (String) -> String, place: (String) -> String) -> String {
        let listed = names.map(name).joined(separator: ", ")
        if unresolved.isEmpty { return names.isEmpty ? "none" : listed }
        return (names.isEmpty ? "" : listed + "; ") + unresolved.phrase(place: place)
    }
}
