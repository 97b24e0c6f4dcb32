import BuildGraph
import Foundation
import ProjectFiles

/// What `rowmotion build` is asked to do.
public struct BuildOptions: Sendable {
    public var site = "site"
    public var examples = "examples"
    public var templates = "templates"
    public var out = "_site"
    public var baseURL = "/"
    /// How a page's address is made from its file: `a/b.md` → `a/b.html`,
    /// or `a/b/index.html` (`--pretty-urls`, Hugo's and MkDocs' default).
    public var urls = URLStyle.plain
    public var drafts = false
    public var strict = false
    /// Where the content-hash cache of the previous build lives (nil: none).
    public var cache: String?
    /// Whether a build whose site on disk is already what it would make
    /// may leave its files out of memory (off when the caller reads them).
    public var allowShortcut = true
    /// The input folders named on the command line, by flag (`site`,
    /// `examples`, `templates`): each must exist. Unnamed ones may be absent.
    public var namedFolders: [String: String] = [:]
    /// Told when each phase ends (name, milliseconds) and, while pages
    /// render, how many are done of how many.
    public var progress: (@Sendable (BuildEvent) -> Void)?
    /// `--baseline`: what to compare with; the site gains `changes.html`.
    public var baseline: Baseline?
    /// Whether a build that finds no page and no example may succeed: off,
    /// so that a wrong folder or working directory fails CI instead of
    /// publishing an empty site.
    public var allowEmpty = false
    /// The bytes a site's pages, example pages and filmstrips may make in
    /// all (`OutputLimits.siteBytes`), and less for a small site: 64 times
    /// its input and 64 MiB (`OutputLimits.siteBytes(forInput:)`); past
    /// it the build fails.
    public var siteByteLimit = OutputLimits.siteBytes
    /// Seconds before the build took its files' stamps within which a
    /// file modified is read again whatever its stamp says, as git does:
    /// two saves within the file system's tick leave one stamp. (Tests
    /// that stand for "a while after the last build" make it negative.)
    var racyWindow = 2.0
    /// The project the build reads and writes in (nil: the working
    /// folder's, worked out when the build starts).
    public var project: Project?
    /// Whether outputs go to the disk as they are made, not into
    /// `BuiltSite.files` (`OutputSink`): after an edit, the files whose
    /// bytes changed are written beside their old ones (the rest of the
    /// site on disk is the store's build's); else the site is written into
    /// a folder beside the output. Nothing the site's readers see changes
    /// until `SiteBuilder.write` (or, when the site is not written, what
    /// was put aside is removed). `rowmotion build`'s and `serve`'s; off
    /// for a caller that reads `files` whole (tests, `check`, the review's
    /// baseline).
    public var keepsUnchangedPages = false
    /// The input files, already listed (a revision's, for `--baseline`);
    /// nil: the folders above, listed on disk when the build starts.
    public var inputs: InputTree?

    /// Outputs besides the site's own (a test's, to see a new kind of output built).
    var extraOutputs: [any Rule.Type] = []

    public init() {}

    /// One fingerprint of every option that changes what a build reads or
    /// makes (which folder is which, where the site goes and under what
    /// address, how pages are addressed, drafts, an empty site allowed,
    /// the review's page, the site's limit, extra outputs): the store,
    /// `serve`'s model and the review all key by it, so no two of them
    /// can disagree on what makes a build another build.
    public var fingerprint: String {
        ContentHash.key(["site", site, "examples", examples, "templates", templates, "out", out, "base-url", baseURL, "urls", urls.rawValue,
                         "drafts", String(drafts), "allow-empty", String(allowEmpty), "baseline", baseline == nil ? "-" : "review",
                         "limit", String(siteByteLimit)] + extraOutputs.map { $0.name })
    }

    /// The options of the build of a revision's tree (`inputs`) that the
    /// review compares with: these, reading the revision, written nowhere.
    func forRevision(_ inputs: InputTree) -> BuildOptions {
        var revision = BuildOptions()
        (revision.site, revision.examples, revision.templates) = (site, examples, templates)
        (revision.baseURL, revision.urls, revision.drafts, revision.siteByteLimit) = (baseURL, urls, drafts, siteByteLimit)
        revision.project = project
        revision.inputs = inputs
        revision.out = FileManager.default.temporaryDirectory.appendingPathComponent("rowmotion-baseline-unused-\(UUID().uuidString)").path
        return revision
    }

    /// The running executable's size and modification time, or "-": a
    /// rebuilt `rowmotion` of the same version never takes the last one's store.
    static let executableStamp: String = {
        guard let path = Bundle.main.executablePath,
              let attributes = try? FileManager.default.attributesOfItem(atPath: path),
              let size = attributes[.size] as? NSNumber, let date = attributes[.modificationDate] as? Date
        else { return "-" }
        return "\(size) bytes, \(Int(date.timeIntervalSince1970))"
    }()

    /// The folders a build reads, each once.
    public var inputFolders: [String] {
        var seen = Set<String>()
        return [site, examples, templates].filter { seen.insert($0).inserted }
    }
}

/// How pages are addressed: `guide/a.md` at `guide/a.html` (plain), or at
/// `guide/a/index.html` (pretty), which a server shows at `/guide/a/`, as
/// Hugo and MkDocs do by default. Either way a link may be written in both
/// forms, and links the site writes name the file, so pages work from disk.
public enum URLStyle: String, Sendable {
    case plain, pretty
}

/// What a build reports as it goes, for `--verbose` and progress lines.
public enum BuildEvent: Sendable {
    case phase(String, milliseconds: Double)
    case rendered(Int, of: Int)
    /// Something `--verbose` says of how the build went.
    case note(String)
}

