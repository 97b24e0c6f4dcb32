import SeededRandom
@testable import SiteGenerator
import Testing

/// The review's call listings: a step's calls in the baseline beside this
/// build's, compared line by line (issue 42, item 6).
@Suite struct LineDiffTests {
    static func listing(_ old: [String], _ new: [String]) -> [String]? {
        var work = LineDiff.workPerReview
        guard case .listing(let lines) = LineDiff.compare(old, new, work: &work) else { return nil }
        return lines
    }

    /// The length of a longest common subsequence, from the whole table.
    static func referenceLength(_ old: [String], _ new: [String]) -> Int {
        var lengths = Array(repeating: Array(repeating: 0, count: new.count + 1), count: old.count + 1)
        for i in old.indices {
            for j in new.indices {
                lengths[i + 1][j + 1] = old[i] == new[j] ? lengths[i][j] + 1 : max(lengths[i][j + 1], lengths[i + 1][j])
            }
        }
        return lengths[old.count][new.count]
    }

    /// The listing lists each text in order, and keeps as many lines as
    /// the two have in common.
    static func expectMinimal(_ lines: [String], _ old: [String], _ new: [String], _ context: String) {
        let kept = lines.filter { $0.hasPrefix(" ") }
        #expect(lines.filter { !$0.hasPrefix("+") }.map { String($0.dropFirst()) } == old, "\(context)")
        #expect(lines.filter { !$0.hasPrefix("-") }.map { String($0.dropFirst()) } == new, "\(context)")
        #expect(kept.count == referenceLength(old, new), "\(context): \(lines)")
    }

    @Test(arguments: [
        ("", ""), ("a", ""), ("", "a"), ("a", "a"), ("a", "b"), ("abc", "abc"), ("abc", "acb"), ("abc", "cba"),
        ("abcabba", "cbabac"), ("xaxbx", "abx"), ("abcd", "dcba"), ("aaaa", "aa"), ("abab", "baba"), ("abcdef", "xbcdex"),
        ("abgdef", "gh"), ("ab", "ba"), ("aab", "abb"),
    ])
    func smallTexts_keepALongestCommonSubsequence(old: String, new: String) throws {
        let (a, b) = (old.map(String.init), new.map(String.init))
        let lines = try #require(Self.listing(a, b))
        Self.expectMinimal(lines, a, b, "\(old) → \(new)")
    }

    /// Listings as the example pages show them, today's: a batch's comment
    /// line, then its calls; removed lines before the added ones they replace.
    @Test func aChangedCall_isRemovedThenAdded_betweenTheLinesKept() throws {
        let old = ["// batch 1 of 1: structure", "tableView.deleteRows(at: [IndexPath(row: 2, section: 0)], with: .fade)",
                   "tableView.reloadRows(at: [IndexPath(row: 0, section: 0)], with: .fade)"]
        var new = old
        new[1] = "tableView.deleteRows(at: [IndexPath(row: 3, section: 0)], with: .fade)"
        #expect(Self.listing(old, new) == [" " + old[0], "-" + old[1], "+" + new[1], " " + old[2]])
        #expect(Self.listing(old, Array(old.dropLast())) == [" " + old[0], " " + old[1], "-" + old[2]])
        #expect(Self.listing([], old) == old.map { "+" + $0 })
    }

    /// Where several lines could be kept, the first from the top is, and
    /// removed lines come before added ones, as the table this replaced listed them.
    @Test(arguments: [
        ("ac", "cc", ["-a", " c", "+c"]), ("abb", "b", ["-a", " b", "-b"]), ("ab", "ba", ["-a", " b", "+a"]),
        ("b", "aabb", ["+a", "+a", " b", "+b"]), ("xy", "yx", ["-x", " y", "+x"]),
    ])
    func equallyLongChoices_keepTheFirstLineFromTheTop(old: String, new: String, listing: [String]) {
        #expect(Self.listing(old.map(String.init), new.map(String.init)) == listing)
    }

    @Test func randomSmallTexts_keepALongestCommonSubsequence() throws {
        let seed = UInt64.random(in: 0...UInt64.max)
        var random = SeededGenerator(seed: seed)
        for number in 0..<2_000 {
            let letters = ["a", "b", "c", "d"].prefix(Int.random(in: 1...4, using: &random))
            let old = (0..<Int.random(in: 0...12, using: &random)).map { _ in letters.randomElement(using: &random)! }
            let new = (0..<Int.random(in: 0...12, using: &random)).map { _ in letters.randomElement(using: &random)! }
            let lines = try #require(Self.listing(old, new), "seed \(seed), case \(number)")
            Self.expectMinimal(lines, old, new, "seed \(seed), case \(number): \(old) → \(new)")
        }
    }

    /// A step reversing 100,000 rows against the same step in order: the
    /// table this replaced was (n + 1) × (m + 1) integers, 80 GB here.
    @Test func reversedHundredThousandLines_stopAtTheBound_withTheCounts() {
        let old = (0..<100_000).map { "tableView.moveRow(at: IndexPath(row: \($0), section: 0), to: IndexPath(row: \(99_999 - $0), section: 0))" }
        var work = LineDiff.workPerReview
        let outcome = LineDiff.compare(old, old.reversed(), work: &work)
        #expect(outcome == .uncompared(removed: old, added: old.reversed()))
        #expect(LineDiff.workPerReview - work == LineDiff.workPerComparison, "the comparison took all it may, and no more")
        // With less left for the review, less.
        work = 1_000
        #expect(LineDiff.compare(old, old.reversed(), work: &work) == .uncompared(removed: old, added: old.reversed()))
        #expect(work == 0)
    }

    /// Lines both texts start and end with are kept without counting
    /// against the bound: a long step with one call changed is listed.
    @Test func hundredThousandLinesWithOneChanged_areListed() throws {
        let old = (0..<100_000).map { "tableView.deleteRows(at: [IndexPath(row: \($0), section: 0)], with: .fade)" }
        var new = old
        new[50_000] = "tableView.insertRows(at: [IndexPath(row: 0, section: 0)], with: .fade)"
        var work = LineDiff.workPerReview
        guard case .listing(let lines) = LineDiff.compare(old, new, work: &work) else { Issue.record("not listed"); return }
        #expect(lines.count == 100_001)
        #expect(lines[50_000] == "-" + old[50_000] && lines[50_001] == "+" + new[50_000])
        #expect(LineDiff.workPerReview - work < 10, "\(LineDiff.workPerReview - work)")
    }
}

/// What the review says of a step whose calls were not compared line by line.
@Suite struct UncomparedListingTests {
    @Test func uncomparedCalls_areOneLineThatCountsThem_andAllRemovedAndAdded() {
        let (listing, removed, added) = Changes.listing(.uncompared(removed: ["a()", "b()"], added: ["c()"]))
        #expect(listing == [" // the calls changed: 2 lines removed and 1 added, too many to compare line by line"])
        #expect(removed == ["a()", "b()"] && added == ["c()"])
    }
}
