/// Which way an ambiguous move should go when several minimal move sets
/// exist: `.up` reports the rows that rise as moved (a messenger's chats),
/// `.down` the rows that sink.
public enum MoveDirection: String, Hashable, Sendable {
    case up
    case down
}

/// Chooses which kept elements stay put: one longest increasing subsequence
/// of their new ranks, taken in old order. Every other element is an explicit
/// move, so the number of moves is the minimum (Schensted, 1961; the
/// classical reduction of minimal moves to LIS).
///
/// Among all longest subsequences, the one with the largest total `tieWeight`
/// is kept, so callers can say which elements they would rather see move.
///
/// The work runs on *blocks*: maximal runs of elements adjacent in old order
/// whose new ranks are consecutive. Nothing else sits between two elements of
/// a block in either order, so any increasing subsequence holding one element
/// of a block extends to the whole block; every longest one therefore takes
/// blocks whole, and the maximum-weight increasing subsequence over blocks
/// (weight = size) is exactly the answer.
///
/// - Parameters:
///   - ranks: the new rank of each element, in old order: a permutation of
///     `0..<ranks.count`.
///   - tieWeight: per element, how much keeping it in place is preferred
///     (non-negative, below `ranks.count + 1` squared); empty for no preference.
/// - Returns: for each element, whether it must move.
/// - Complexity: O(k + b log b), k the number of elements and b the number of
///   blocks; O(k) when nothing is reordered.
func movers(ranks: [Int32], tieWeight: [Int] = []) -> [Bool] {
    let count = ranks.count
    var moves = [Bool](repeating: false, count: count)
    guard count > 1 else { return moves }

    // Blocks, in old order.
    var blockStart: [Int] = [0]
    for t in 1..<count where ranks[t] != ranks[t - 1] &+ 1 {
        blockStart.append(t)
    }
    let blockCount = blockStart.count
    // A single block means the order is unchanged.
    guard blockCount > 1 else { return moves }
    blockStart.append(count)

    // Each block's place among the blocks sorted by rank (ranks are a
    // permutation, so bucketing by start rank sorts in O(k)).
    var blockAtRank = [Int32](repeating: -1, count: count)
    for b in 0..<blockCount { blockAtRank[Int(ranks[blockStart[b]])] = Int32(b) }
    var order = [Int](repeating: 0, count: blockCount)
    var next = 0
    for rank in 0..<count where blockAtRank[rank] >= 0 {
        order[Int(blockAtRank[rank])] = next
        next += 1
    }

    var previous = [Int32](repeating: -1, count: blockCount)
    var bestBlock = -1
    if tieWeight.isEmpty {
        bestBlock = longestChain(blockStart: blockStart, order: order, previous: &previous)
    } else {
        bestBlock = heaviestChain(blockStart: blockStart, order: order, tieWeight: tieWeight, previous: &previous)
    }

    // Everything outside the chosen chain moves.
    var stays = [Bool](repeating: false, count: blockCount)
    var b = bestBlock
    while b >= 0 {
        stays[b] = true
        b = Int(previous[b])
    }
    for block in 0..<blockCount where !stays[block] {
        for t in blockStart[block]..<blockStart[block + 1] { moves[t] = true }
    }
    return moves
}

/// The longest chain of blocks increasing in rank (weight = size), with
/// ties resolved exactly as `heaviestChain` resolves them when every tie
/// weight is 0 — it is that function without the second component, on
/// unchecked buffers: a reversed list of 10,000 rows is 10,000 blocks, and
/// this loop was the planner's largest cost there.
/// Returns the chain's last block; `previous` links each block to the one
/// before it in its best chain.
func longestChain(blockStart: [Int], order: [Int], previous: inout [Int32]) -> Int {
    let blockCount = order.count
    var treeSize = [Int](repeating: 0, count: blockCount + 1)
    var treeBlock = [Int32](repeating: -1, count: blockCount + 1)
    var best = (size: -1, block: -1)
    treeSize.withUnsafeMutableBufferPointer { treeSize in
        treeBlock.withUnsafeMutableBufferPointer { treeBlock in
            previous.withUnsafeMutableBufferPointer { previous in
                blockStart.withUnsafeBufferPointer { blockStart in
                    order.withUnsafeBufferPointer { order in
                        for b in 0..<blockCount {
                            let size = blockStart[b + 1] - blockStart[b]
                            var chainSize = 0, chainBlock: Int32 = -1
                            var i = order[b]
                            while i > 0 {
                                if treeSize[i] > chainSize { (chainSize, chainBlock) = (treeSize[i], treeBlock[i]) }
                                i -= i & -i
                            }
                            previous[b] = chainBlock
                            let total = chainSize + size
                            if total > best.size { best = (total, b) }
                            i = order[b] + 1
                            while i <= blockCount {
                                if total > treeSize[i] { (treeSize[i], treeBlock[i]) = (total, Int32(b)) }
                                i += i & -i
                            }
                        }
                    }
                }
            }
        }
    }
    return best.block
}

/// The maximum-weight chain of blocks increasing in rank: weight is (size,
/// summed tie weight), compared lexicographically, kept in a Fenwick tree
/// of prefix maxima over rank order. Returns the chain's last block.
func heaviestChain(blockStart: [Int], order: [Int], tieWeight: [Int], previous: inout [Int32]) -> Int {
    let blockCount = order.count
    var treeSize = [Int](repeating: 0, count: blockCount + 1)
    var treeTie = [Int](repeating: 0, count: blockCount + 1)
    var treeBlock = [Int32](repeating: -1, count: blockCount + 1)
    var best = (size: -1, tie: -1, block: -1)

    for b in 0..<blockCount {
        let size = blockStart[b + 1] - blockStart[b]
        var tie = 0
        for t in blockStart[b]..<blockStart[b + 1] { tie += tieWeight[t] }
        // Best chain ending in a block of lower rank.
        var chain = (size: 0, tie: 0, block: -1)
        var i = order[b]
        while i > 0 {
            if treeSize[i] > chain.size || (treeSize[i] == chain.size && treeTie[i] > chain.tie) {
                chain = (treeSize[i], treeTie[i], Int(treeBlock[i]))
            }
            i -= i & -i
        }
        previous[b] = Int32(chain.block)
        let total = (size: chain.size + size, tie: chain.tie + tie)
        if total.size > best.size || (total.size == best.size && total.tie > best.tie) {
            best = (total.size, total.tie, b)
        }
        i = order[b] + 1
        while i <= blockCount {
            if total.size > treeSize[i] || (total.size == treeSize[i] && total.tie > treeTie[i]) {
                treeSize[i] = total.size
                treeTie[i] = total.tie
                treeBlock[i] = Int32(b)
            }
            i += i & -i
        }
    }
    return best.block
}

/// The tie weights that express a caller's preferences: keeping a row whose
/// move hint did not change outranks any direction preference, which
/// outranks nothing.
///
/// - Parameters:
///   - ranks: as for `movers(ranks:tieWeight:)`.
///   - hintChanged: per element, whether its move hint changed (or empty).
///   - prefer: the direction movers should go, if any.
func tieWeights(ranks: [Int32], hintChanged: [Bool], prefer: MoveDirection?) -> [Int] {
    if hintChanged.isEmpty && prefer == nil { return [] }
    let scale = ranks.count + 1
    var weights = [Int](repeating: 0, count: ranks.count)
    for t in 0..<ranks.count {
        var weight = 0
        if !hintChanged.isEmpty && !hintChanged[t] { weight += scale }
        // A row that would sink if moved should stay when movers should rise,
        // and the other way around.
        switch prefer {
        case .up?: if Int(ranks[t]) > t { weight += 1 }
        case .down?: if Int(ranks[t]) < t { weight += 1 }
        case nil: break
        }
        weights[t] = weight
    }
    return weights
}
