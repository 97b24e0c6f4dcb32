@testable import ListDiff
import SeededRandom
import Testing

/// The planner's fast chain (no tie weights, unchecked buffers) chooses the
/// same rows to keep as the weighted one does with every weight 0, so the
/// moves a list reports did not change when it came in (issue 32).
@Suite("Longest chain")
struct ChainTests {
    @Test func withoutTieWeights_theFastChainKeepsTheSameRowsAsTheWeightedOne() {
        var random = SeededGenerator(seed: 20_261_125)
        for round in 0..<2_000 {
            let count = Int.random(in: 2...300, using: &random)
            var ranks = (0..<count).map { Int32($0) }
            switch round % 4 {
            case 0: ranks.shuffle(using: &random)
            case 1: ranks.reverse()
            case 2:  // runs kept together, moved as blocks
                var runs: [[Int32]] = []
                var start = 0
                while start < count {
                    let length = Int.random(in: 1...20, using: &random)
                    runs.append(Array(ranks[start..<min(start + length, count)]))
                    start += length
                }
                ranks = runs.shuffled(using: &random).flatMap { $0 }
            default:  // a few rows moved in an ordered list
                for _ in 0..<Int.random(in: 1...5, using: &random) {
                    let row = ranks.remove(at: Int.random(in: 0..<ranks.count, using: &random))
                    ranks.insert(row, at: Int.random(in: 0...ranks.count, using: &random))
                }
            }
            let fast = movers(ranks: ranks)
            let weighted = movers(ranks: ranks, tieWeight: [Int](repeating: 0, count: count))
            #expect(fast == weighted, "round \(round) (seed 20261125): \(ranks)")
            if fast != weighted { return }
        }
    }
}
