/// "Did you mean" for unknown keys and values: the nearest valid word by
/// edit distance, when it is near enough to be a likely typo.
public enum KeySuggestions {
    /// Words longer than this get no suggestion, and candidates longer than
    /// this are not offered: a typo is found in a name people type, and
    /// comparing a 30,000-character name cell by cell took gigabytes.
    public static let longestWord = 64
    /// Among more candidates than this, none is suggested: each is compared,
    /// and a typo's nearest name among thousands is rarely the one meant.
    public static let mostCandidates = 5_000

    public static func nearest(to word: String, in candidates: [String]) -> String? {
        let word = Array(word.lowercased())
        guard word.count <= longestWord, candidates.count <= mostCandidates else { return nil }
        var best: (candidate: String, distance: Int)?
        var rows = DistanceRows()
        for candidate in candidates {
            guard candidate.utf8.count <= longestWord * 4, abs(candidate.count - word.count) <= max(1, word.count / 3) else { continue }
            let other = Array(candidate.lowercased())
            guard other.count <= longestWord else { continue }
            // Near enough to suggest is at most a third of the shorter
            // length; the distance is at least the difference in length.
            let acceptable = max(1, min(word.count, other.count) / 3)
            let bound = min(acceptable, (best?.distance ?? .max) - 1)
            guard bound >= 0, abs(word.count - other.count) <= bound,
                  let distance = rows.distance(word, other, atMost: bound) else { continue }
            best = (candidate, distance)
            if distance == 0 { break }
        }
        return best?.candidate
    }

    /// Edit distance over characters where swapping two neighbours counts
    /// as one edit (optimal string alignment), the commonest typo.
    public static func editDistance(_ a: String, _ b: String) -> Int {
        var rows = DistanceRows()
        return rows.distance(Array(a), Array(b), atMost: .max)!
    }

    /// " did you mean 'x'?" or nothing.
    public static func hint(for word: String, in candidates: [String]) -> String {
        nearest(to: word, in: candidates).map { "; did you mean '\($0)'?" } ?? ""
    }

    /// For an unknown key: the likely typo, or else the keys that are valid
    /// there ("; valid keys: insert, delete, reload").
    public static func keyHint(for word: String, in candidates: [String]) -> String {
        if let nearest = nearest(to: word, in: candidates) { return "; did you mean '\(nearest)'?" }
        return candidates.isEmpty ? "" : "; valid keys: " + candidates.joined(separator: ", ")
    }
}

/// The three rows of the optimal-string-alignment table that a distance
/// needs (the one being filled and the two above it, for swaps), reused
/// from one comparison to the next: memory in the length of one word, not
/// the product of both.
struct DistanceRows {
    var previous2: [Int] = [], previous: [Int] = [], current: [Int] = []

    /// The distance between `a` and `b`, or nil when it is over `bound`
    /// (found as soon as a whole row is over it).
    mutating func distance(_ a: [Character], _ b: [Character], atMost bound: Int) -> Int? {
        if a.isEmpty { return b.count <= bound ? b.count : nil }
        if b.isEmpty { return a.count <= bound ? a.count : nil }
        let width = b.count + 1
        previous2 = [Int](repeating: 0, count: width)
        previous = Array(0..<width)
        current = [Int](repeating: 0, count: width)
        for i in 1...a.count {
            current[0] = i
            var rowMinimum = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { value = min(value, previous2[j - 2] + 1) }
                current[j] = value
                rowMinimum = min(rowMinimum, value)
            }
            if rowMinimum > bound { return nil }
            (previous2, previous, current) = (previous, current, previous2)
        }
        let result = previous[b.count]
        return result <= bound ? result : nil
    }
}
