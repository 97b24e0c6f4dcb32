import Diagnostics
import ProjectFiles

/// The sequence files of the examples folder, by their path under it, as a
/// demo block's `example:` names them, with the index its "did you mean"
/// is answered from, built at a build's first hint: a block naming a missing
/// example costs a few look-ups, not a comparison with every file (400
/// missing names among 5,000 files took 39 s when each was compared).
struct ExampleNames: Sendable {
    private let names: Set<String>
    /// What hints look names up in, made when the first hint is asked for
    /// (a build whose pages name only examples there never needs them).
    private let index: Locked<Index?>

    private struct Index {
        /// Each name lowercased, and each with one character deleted, to the
        /// names it comes from: two names within one edit of each other share
        /// a key (a deletion on either side covers insertions, deletions and
        /// substitutions; two cover a swap of neighbours).
        var near: [String: [String]] = [:]
        /// Each name lowercased without its extension, to the first such name.
        var stems: [String: String] = [:]

        init(_ names: Set<String>) {
            for name in names.sorted() {
                let folded = Array(name.lowercased())
                if stems[ExampleNames.stem(of: name)] == nil { stems[ExampleNames.stem(of: name)] = name }
                guard folded.count <= KeySuggestions.longestWord else { continue }
                for key in ExampleNames.keys(folded) { near[key, default: []].append(name) }
            }
        }
    }

    /// Each name as the folder spells it, by its text.
    private let spelled: [String: String]

    init(_ names: [String]) {
        self.names = Set(names)
        spelled = Dictionary(names.map { ($0, $0) }) { first, _ in first }
        index = Locked(nil)
    }

    func contains(_ name: String) -> Bool { names.contains(name) }

    /// `name` as the folder spells it (a page may write `café` composed
    /// for a file whose name is decomposed: the same text).
    func listed(_ name: String) -> String { spelled[name] ?? name }

    /// "; did you mean 'chat.yml'?" for a name that is not one of them, or
    /// nothing when no name is near.
    func hint(for name: String) -> String {
        let (near, stems) = index.withLock { index in
            if index == nil { index = Index(names) }
            return (index!.near, index!.stems)
        }
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
    fileprivate static func keys(_ folded: [Character]) -> Set<String> {
        var keys: Set<String> = [String(folded)]
        for index in folded.indices {
            var shorter = folded
            shorter.remove(at: index)
            keys.insert(String(shorter))
        }
        return keys
    }

    fileprivate static func stem(of name: String) -> String {
        let lowered = name.lowercased()
        guard let dot = lowered.lastIndex(of: "."), !lowered[dot...].contains("/") else { return lowered }
        return String(lowered[..<dot])
    }
}
