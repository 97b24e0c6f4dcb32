/// "Did you mean" for unknown keys and values: the nearest valid word by
/// edit distance, when it is near enough to be a likely typo.
public enum KeySuggestions {
    public static func nearest(to word: String, in candidates: [String]) -> String? {
        var best: (candidate: String, distance: Int)?
        for candidate in candidates {
            let distance = editDistance(word.lowercased(), candidate.lowercased())
            if distance < (best?.distance ?? .max) { best = (candidate, distance) }
        }
        guard let best, best.distance <= max(1, min(word.count, best.candidate.count) / 3) else { return nil }
        return best.candidate
    }

    /// Edit distance over characters where swapping two neighbours counts
    /// as one edit (optimal string alignment), the commonest typo.
    public static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                    table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1)
                }
            }
        }
        return table[a.count][b.count]
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
