/// A line-by-line difference, as `diff -u` lists it without hunks: `-`
/// before a line only the old text has, `+` before one only the new text
/// has, a space before the lines both keep (a longest common subsequence).
///
/// Myers' algorithm in linear space (E. W. Myers, "An O(ND) Difference
/// Algorithm and Its Variations", Algorithmica 1, 1986, section 4b): the
/// middle snake of a shortest edit script, found from both ends at once,
/// splits the comparison in two, and each half is compared the same way.
/// Its work grows with (n + m)·D, D the lines removed and added, so it is
/// bounded: a step reversing 100,000 rows is 10^10 (the table this replaced
/// held (n + 1)·(m + 1) integers: 16,000 rows took 11.5 s and 2 GB). Past
/// the work allowed, the lines between the common start and the common end
/// are reported removed and added, uncompared.
enum LineDiff {
    enum Outcome: Equatable {
        /// Every line of both texts, each after its sign.
        case listing([String])
        /// The comparison passed its bound: the lines of each text between
        /// the lines both start with and those both end with.
        case uncompared(removed: [String], added: [String])
    }

    /// Work (a line compared, a diagonal tried) one comparison may take:
    /// 0.4 s in a debug build. Any two texts of 6,000 lines in all fit, and
    /// 100,000 lines with 400 of them changed take 3,000,000.
    static let workPerComparison = 10_000_000
    /// Work all the comparisons of one review may take, so that a review
    /// of many large steps stays seconds long.
    static let workPerReview = 50_000_000

    /// Compares `old` with `new` within `work`, which it lowers by the work
    /// it took.
    /// - Complexity: O(n + m) hashes and memory, and O((n + m)·D)
    ///   comparisons of integers, at most `workPerComparison` and `work`;
    ///   n and m the line counts of `old` and `new`, D the lines removed and added.
    static func compare(_ old: [String], _ new: [String], work: inout Int) -> Outcome {
        var codes: [String: Int] = [:]
        let a = old.map { line in codes[line] ?? { codes[line] = codes.count; return codes.count - 1 }() }
        let b = new.map { line in codes[line] ?? { codes[line] = codes.count; return codes.count - 1 }() }
        var script = EditScript(a: a, b: b, work: min(work, workPerComparison))
        let compared = script.compare(0, a.count, 0, b.count)
        work -= min(work, workPerComparison) - max(script.work, 0)
        guard compared else {
            let start = zip(old, new).prefix { $0 == $1 }.count
            let end = zip(old[start...].reversed(), new[start...].reversed()).prefix { $0 == $1 }.count
            return .uncompared(removed: Array(old[start..<(old.count - end)]), added: Array(new[start..<(new.count - end)]))
        }
        return .listing(listing(script.edits, old, new, a: a, b: b))
    }

    /// The lines of `edits`, removed lines before added ones, and each kept
    /// line as early as it can be, as the table this replaced kept it.
    /// Between two kept lines the script removes `a[p..<i]` and adds
    /// `b[q..<j]`, then keeps `a[i]` as `b[j]`; keeping instead any
    /// `a[r] == b[s]` there (r in p...i, s in q...j) is as short, and the
    /// first from the top is kept: the first `a[r]` equal to `b[q]`, or else
    /// `a[i]` as the first `b[s]` equal to it. What follows it is removed and
    /// added with the next lines' edits. (The table also looked past the
    /// next kept line: where two longest subsequences differ in more than
    /// one line, the listings may keep different ones.)
    static func listing(_ edits: [EditScript.Edit], _ old: [String], _ new: [String], a: [Int], b: [Int]) -> [String] {
        var lines: [String] = []
        lines.reserveCapacity(edits.count)
        // The removed lines a[p..<i] and the added b[q..<j] not yet listed.
        var (p, i, q, j) = (0, 0, 0, 0)
        for edit in edits {
            switch edit {
            case .delete: i += 1
            case .insert: j += 1
            case .keep:
                var (r, s) = (p, q)
                while r < i, a[r] != b[q] { r += 1 }
                if a[r] != b[q] { while b[s] != a[i] { s += 1 } }
                lines += old[p..<r].lazy.map { "-" + $0 }
                lines += new[q..<s].lazy.map { "+" + $0 }
                lines.append(" " + old[r])
                (p, i, q, j) = (r + 1, i + 1, s + 1, j + 1)
            }
        }
        lines += old[p..<i].lazy.map { "-" + $0 }
        lines += new[q..<j].lazy.map { "+" + $0 }
        return lines
    }

    /// The edits taking `a` to `b`, in order, found within `work`.
    struct EditScript {
        enum Edit: UInt8 { case keep, delete, insert }

        let a: [Int]
        let b: [Int]
        /// Work left; below 0, the comparison stops.
        var work: Int
        var edits: [Edit] = []

        /// Appends the edits taking `a[aLo..<aHi]` to `b[bLo..<bHi]`; false
        /// when the work ran out.
        mutating func compare(_ aLo: Int, _ aHi: Int, _ bLo: Int, _ bHi: Int) -> Bool {
            var (aLo, aHi, bLo, bHi) = (aLo, aHi, bLo, bHi)
            // Lines both start or end with are kept: the listing keeps all it can from the top.
            while aLo < aHi, bLo < bHi, a[aLo] == b[bLo] { edits.append(.keep); aLo += 1; bLo += 1 }
            var end = 0
            while aLo < aHi, bLo < bHi, a[aHi - 1] == b[bHi - 1] { aHi -= 1; bHi -= 1; end += 1 }
            work -= aHi - aLo + bHi - bLo
            guard work >= 0 else { return false }
            if aLo == aHi || bLo == bHi {
                // One side is used up: the rest of the other is removed or added.
                edits += repeatElement(.delete, count: aHi - aLo)
                edits += repeatElement(.insert, count: bHi - bLo)
            } else {
                switch middleSnake(aLo, aHi, bLo, bHi) {
                case .outOfWork:
                    return false
                case .noLineInCommon:
                    edits += repeatElement(.delete, count: aHi - aLo)
                    edits += repeatElement(.insert, count: bHi - bLo)
                case .split(let x, let y):
                    guard compare(aLo, x, bLo, y), compare(x, aHi, y, bHi) else { return false }
                }
            }
            edits += repeatElement(.keep, count: end)
            return true
        }

        enum Middle {
            case split(Int, Int)
            case noLineInCommon
            case outOfWork
        }

        /// Where a shortest edit script of the two ranges crosses its
        /// middle: the end of the forward path that meets the backward one.
        /// The ranges' first and last lines differ.
        mutating func middleSnake(_ aLo: Int, _ aHi: Int, _ bLo: Int, _ bHi: Int) -> Middle {
            let (n, m) = (aHi - aLo, bHi - bLo)
            let maxD = (n + m + 1) / 2
            let offset = maxD
            let length = 2 * maxD + 2
            let delta = n - m
            // With an odd delta the paths meet on a forward step; even, on a backward one.
            let forwardMeets = delta % 2 != 0
            // forward[offset + k]: the furthest x reached on diagonal k = x - y from the start;
            // backward: the same from the end, x and y counted back from it.
            var forward = [Int](repeating: -1, count: length), backward = forward
            forward[offset + 1] = 0
            backward[offset + 1] = 0
            // Diagonals that left the rectangle at either side are not tried again.
            var (forwardStart, forwardEnd, backwardStart, backwardEnd) = (0, 0, 0, 0)
            for d in 0..<maxD {
                var k = -d + forwardStart
                while k <= d - forwardEnd {
                    let index = offset + k
                    var x = k == -d || (k != d && forward[index - 1] < forward[index + 1]) ? forward[index + 1] : forward[index - 1] + 1
                    var y = x - k
                    let from = x
                    while x < n, y < m, a[aLo + x] == b[bLo + y] { x += 1; y += 1 }
                    work -= 1 + x - from
                    guard work >= 0 else { return .outOfWork }
                    forward[index] = x
                    if x > n {
                        forwardEnd += 2
                    } else if y > m {
                        forwardStart += 2
                    } else if forwardMeets {
                        let other = offset + delta - k
                        if other >= 0, other < length, backward[other] != -1, x >= n - backward[other] {
                            return .split(aLo + x, bLo + y)
                        }
                    }
                    k += 2
                }
                k = -d + backwardStart
                while k <= d - backwardEnd {
                    let index = offset + k
                    var x = k == -d || (k != d && backward[index - 1] < backward[index + 1]) ? backward[index + 1] : backward[index - 1] + 1
                    var y = x - k
                    let from = x
                    while x < n, y < m, a[aHi - x - 1] == b[bHi - y - 1] { x += 1; y += 1 }
                    work -= 1 + x - from
                    guard work >= 0 else { return .outOfWork }
                    backward[index] = x
                    if x > n {
                        backwardEnd += 2
                    } else if y > m {
                        backwardStart += 2
                    } else if !forwardMeets {
                        let other = offset + delta - k
                        if other >= 0, other < length, forward[other] != -1, forward[other] >= n - x {
                            let x = forward[other]
                            return .split(aLo + x, bLo + x - (other - offset))
                        }
                    }
                    k += 2
                }
            }
            // Only texts without a line in common need n + m edits.
            return .noLineInCommon
        }
    }
}
