import Diagnostics
import ProjectFiles
import Foundation

/// How much a build may make. A template repeats its text for every item of
/// a list on every page, and a page shows an example as often as it names
/// it, so a few kilobytes a pull request adds can ask for gigabytes (100
/// one-line pages and a 1 MB navigation item: 10 GB). Both limits are far
/// above a real site's (the Hugo docs, 992 pages, are about 100 MB) and
/// below what the build can hold in memory.
public enum OutputLimits {
    /// One page's HTML: a browser gives up long before.
    public static let pageBytes = 64 << 20
    /// Every page, example page and filmstrip of a site, together.
    public static let siteBytes = 1 << 30
    /// What a site may make for each byte of its input files, and besides:
    /// every page carries the theme's chrome and navigation, and shows an
    /// example as often as it names it, but a real site makes a few times
    /// its input (this project's docs: 3.8×; the benchmark's 1,010 pages:
    /// 5.1×), while a template repeating a page's content, or pages
    /// repeating a large example, made 1 GB from 1 MB.
    public static let siteBytesPerInputByte = 64
    public static let siteBytesBesidesInput = 64 << 20

    /// The bytes a site of `input` bytes of input files may make: 64 times
    /// its input and 64 MiB, never past `atMost` (`siteBytes`).
    public static func siteBytes(forInput input: Int, atMost: Int = siteBytes) -> Int {
        input >= atMost / siteBytesPerInputByte ? atMost : min(atMost, input * siteBytesPerInputByte + siteBytesBesidesInput)
    }
    /// The navigation memo's copies of each page's navigation: the same
    /// bytes the pages embed again, so they are held only while small (a real
    /// site's are a few megabytes: 992 pages of the Hugo docs at 5 KiB);
    /// past it a page renders its own (12,800 pages of a 32 KiB navigation
    /// held 410 MB of copies beside the pages themselves).
    public static let navigationMemoBytes = 128 << 20
    /// The files of a site: each takes a block of the disk however small it
    /// is, and a line of front matter (an alias) makes one.
    public static let siteFiles = 200_000
    /// The id of the error of a page past `pageBytes`, which every stage
    /// that meets one tells from other errors (the build stops there).
    public static let pageTooLarge = "page-too-large"
}

/// The bytes a build has made so far, against its site limit, shared by the
/// workers that render pages (or examples): once the site is past its limit,
/// nothing more is rendered; once a page is past its own, no page after it
/// (the pages before it still are, so the first page past its limit is the
/// one reported, whatever the threads did). Every worker adds to one count,
/// so a lock guards it; the count and the first failure are all it guards.
final class OutputBudget: Sendable {
    private struct Count {
        var limit: Int
        var inputBytes: Int?
        /// What measures the site's input files, until it has: a site under
        /// `OutputLimits.siteBytesBesidesInput` is under any multiple of them,
        /// so most builds never measure them.
        var measureInput: (@Sendable () -> Int)?
        var used = 0
        var passedLimit = false
        var firstFailure: Int?
        var failures: [Int: Diagnostic] = [:]
        var passedFileLimit = false

        /// The limit lowered to the input's multiple once the site passes
        /// what it may make besides its input.
        mutating func measureIfNeeded(at used: Int) {
            guard used > OutputLimits.siteBytesBesidesInput, let measure = measureInput else { return }
            measureInput = nil
            let bytes = measure()
            let lowered = OutputLimits.siteBytes(forInput: bytes, atMost: limit)
            if lowered < limit { (limit, inputBytes) = (lowered, bytes) }
        }
    }

    private let count: Locked<Count>
    /// What measures the site's input files (for another budget of the same site).
    let inputMeasure: (@Sendable () -> Int)?

    /// - Parameters:
    ///   - limit: the most the site may make.
    ///   - input: the bytes of the site's input files, measured when the
    ///     site passes `OutputLimits.siteBytesBesidesInput`: from then on
    ///     the limit is at most `OutputLimits.siteBytes(forInput:)` of them.
    init(limit: Int, input: (@Sendable () -> Int)? = nil) {
        count = Locked(Count(limit: limit, measureInput: input))
        inputMeasure = input
    }

    /// The most the site may make.
    var limit: Int { count.withLock { $0.limit } }

    /// The bytes of the site's input files, when the limit is the multiple
    /// of them `OutputLimits.siteBytes(forInput:)` allows.
    var input: Int? { count.withLock { $0.inputBytes } }

    /// Counts one output's bytes.
    func take(_ bytes: Int) {
        count.withLock { count in
            count.used += bytes
            count.measureIfNeeded(at: count.used)
            if count.used > count.limit { count.passedLimit = true }
        }
    }

    /// Counts `bytes` if they fit under the limit: whether they did.
    func reserve(_ bytes: Int) -> Bool {
        count.withLock { count in
            count.measureIfNeeded(at: count.used + bytes)
            guard count.used + bytes <= count.limit else { return false }
            count.used += bytes
            return true
        }
    }

    /// The output at `index` is past a page's limit (`diagnostic` says so).
    func fail(at index: Int, _ diagnostic: Diagnostic? = nil) {
        count.withLock {
            $0.firstFailure = min($0.firstFailure ?? index, index)
            if let diagnostic { $0.failures[index] = diagnostic }
        }
    }

    /// What the first output past a page's limit reported.
    var firstFailure: Diagnostic? { count.withLock { count in count.firstFailure.flatMap { count.failures[$0] } } }

    /// Why a build stopped once its budget did (`BuildStopped.reason`).
    static let stopped = "the site passed its limit"

    /// Whether the output at `index` need not be rendered.
    func skips(_ index: Int) -> Bool {
        count.withLock { $0.passedLimit || $0.firstFailure.map { index > $0 } ?? false }
    }

    /// Whether the build stops: the site or a page past its limit.
    var isStopped: Bool { count.withLock { $0.passedLimit || $0.firstFailure != nil } }

    /// Whether the site is past its limit.
    var isPastLimit: Bool { count.withLock { $0.passedLimit } }

    /// The site would have more files than it may.
    func tooManyFiles() { count.withLock { $0.passedFileLimit = true } }

    /// Whether the site would have more files than it may.
    var isPastFileLimit: Bool { count.withLock { $0.passedFileLimit } }
}
