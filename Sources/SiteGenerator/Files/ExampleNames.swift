import Diagnostics

/// The sequence files of the examples folder, by their path under it, as a
/// demo block's `example:` names them, with the index its "did you mean"
/// is answered from, built once per build: a block naming a missing
/// example costs a few look-ups, not a comparison with every file (400
/// missing names among 5,000 files took 39 s when each was compared).
struct ExampleNames: Sendable {
    private let names: Set<String>
    /// Each name lowercased, and each with one character deleted, to the
    /// names it comes from: two names within one edit of each other share
    /// a key (a deletion on either side covers insertions, deletions and
    /// substitutions; two cover a swap of neighbours).
    private let near: [String: [String]]
    /// Each name lowercased without its extension, to the first such name.
    private let stems: [String: String]

    init(_ names: [String]) {
        self.names = Set(names)
        var near: [String: [String]] = [:]
        var stems: [String: String] = [:]
        for name in names.sorted() {
            let folded = Array(name.lowercased())
            if stems[Self.stem(of: name)] == nil { stems[Self.stem(of: name)] = name }
            guard folded.count <= KeySuggestions.longestWord else { continue }
            for key in Self.keys(folded) { near[key, default: []].append(name) }
        }
        (self.near, self.stems) = (near, stems)
    }

    func contains(_ name: String) -> Bool { names.contains(name) }

    /// "; did you mean 'chat.yml'?" for a name that is not one of them, or
    /// nothing when no name is near.
    func hint(for name: String) -> String {
        if let same = stems[Self.stem(of: name)], same != name { return "; did you mean '\(same)'?" }
        let folded = Array(name.lowercased())
        guard folded.count <= KeySuggestions.longestWord else { return "" }
        var best: (name: String, distance: Int)?
        var seen = Set<String>()
        // A bounded number of comparisons, however many names share a key.
        for key in Self.keys(folded) {
            for candidate in near[key] ?? [] where seen.count < Self.comparisons && seen.insert(candidate).inserted {
                let distance = KeySuggestions.editDistance(name.lowercased(), candidate.lowercased())
                if distance <= 2, distance < best?.distance ?? .max { best = (candidate, distance) }
            }
        }
        return best.map { "; did you mean '\($0.name)'?" } ?? ""
    }

    /// The most names one hint compares with.
    static let comparisons = 64

    /// A name and its one-character deletions.
    private static func keys(_ folded: [Character]) -> Set<String> {
        var keys: Set<String> = [String(folded)]
        for index in folded.indices {
            var shorter = folded
            shorter.remove(at: index)
            keys.insert(String(shorter))
        }
        return keys
    }

    private static func stem(of name: String) -> String {
        let lowered = name.lowercased()
        guard let dot = lowered.lastIndex(of: "."), !lowered[dot...].contains("/") else { return lowered }
        return String(lowered[..<dot])
    }
}
