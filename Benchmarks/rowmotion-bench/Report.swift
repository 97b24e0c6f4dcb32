#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

struct Result {
    var name: String
    var rows: Int
    var listDiffMs: Double
    var stdlibMs: Double
    /// The hash floor: one dictionary built from the old ids, every new id
    /// looked up in it (what any identity diff that hashes does at least).
    var floorMs: Double
    var moves: Int
    var minMoves: Int

    var ratio: Double { stdlibMs / listDiffMs }
    /// ListDiff's time as a multiple of the hash floor.
    var floorMultiple: Double { listDiffMs / floorMs }

    var json: String {
        "{\"case\": \"\(name)\", \"rows\": \(rows), \"listdiff_ms\": \(format(listDiffMs, digits: 4)), "
            + "\"stdlib_ms\": \(format(stdlibMs, digits: 4)), \"floor_ms\": \(format(floorMs, digits: 4)), "
            + "\"moves\": \(moves), \"min_moves\": \(minMoves)}"
    }
}

/// The median wall time of `runs` calls after one warm-up call, in
/// milliseconds. When the warm-up alone takes over `slowAfterMs`, it counts
/// as the first of `slowRuns` samples instead.
func medianMilliseconds(runs: Int, slowRuns: Int = .max, slowAfterMs: Double = .infinity,
                        prepare: () -> Void = {}, _ body: () -> Void) -> Double {
    let clock = ContinuousClock()
    func milliseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1_000 + Double(duration.components.attoseconds) / 1e15
    }
    prepare()
    let warmUp = milliseconds(clock.measure(body))
    var samples: [Double] = []
    var count = max(runs, 1)
    if warmUp > slowAfterMs {
        samples.append(warmUp)
        count = min(count, slowRuns) - 1
    }
    for _ in 0..<max(count, 0) {
        prepare()
        samples.append(milliseconds(clock.measure(body)))
    }
    samples.sort()
    return samples[samples.count / 2]
}

/// Two bodies timed in turn, round after round (one warm-up call of each
/// first), so that both meet the same machine: on a shared two-core machine
/// a body timed alone can meet a quiet minute and the other a busy one (the
/// site's floor moved from 17 to 26 ms between two runs of the bench).
/// Returns each body's median and the median of the rounds' ratios `a ÷ b`.
func interleavedMilliseconds(runs: Int, prepareA: () -> Void = {}, _ a: () -> Void,
                             prepareB: () -> Void = {}, _ b: () -> Void) -> (a: Double, b: Double, ratio: Double) {
    let clock = ContinuousClock()
    func milliseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1_000 + Double(duration.components.attoseconds) / 1e15
    }
    prepareA()
    _ = clock.measure(a)
    prepareB()
    _ = clock.measure(b)
    var samplesA: [Double] = [], samplesB: [Double] = [], ratios: [Double] = []
    for _ in 0..<max(runs, 1) {
        prepareA()
        let timeA = milliseconds(clock.measure(a))
        prepareB()
        let timeB = milliseconds(clock.measure(b))
        samplesA.append(timeA)
        samplesB.append(timeB)
        ratios.append(timeA / timeB)
    }
    func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
    return (median(samplesA), median(samplesB), median(ratios))
}

nonisolated(unsafe) var headerPrinted = false

func printRow(_ result: Result) {
    if !headerPrinted {
        headerPrinted = true
        print(pad("case", 16) + pad("rows", 9) + pad("ListDiff ms", 13) + pad("stdlib ms", 12) + pad("ratio", 10)
              + pad("floor ms", 10) + pad("÷ floor", 9) + "moves / minimum")
        print(String(repeating: "-", count: 95))
    }
    print(pad(result.name, 16) + pad(String(result.rows), 9) + pad(format(result.listDiffMs, digits: 3), 13)
          + pad(format(result.stdlibMs, digits: 2), 12) + pad(format(result.ratio) + "×", 10)
          + pad(format(result.floorMs, digits: 3), 10) + pad(format(result.floorMultiple, digits: 2) + "×", 9)
          + "\(result.moves) / \(result.minMoves)" + (result.moves == result.minMoves ? "" : "  NOT MINIMAL"))
}

func pad(_ text: String, _ width: Int) -> String {
    text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
}

/// A number with `digits` significant decimals, without Foundation.
func format(_ value: Double, digits: Int = 1) -> String {
    guard value.isFinite else { return "inf" }
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let rounded = (value * scale).rounded() / scale
    var text = String(rounded)
    if let dot = text.firstIndex(of: "."), text.distance(from: dot, to: text.endIndex) - 1 > digits {
        text = String(text[...text.index(dot, offsetBy: digits)])
    }
    return text
}

func printError(_ message: String) {
    let line = message + "\n"
    _ = line.utf8CString.withUnsafeBufferPointer { write(2, $0.baseAddress, $0.count - 1) }
}
