import Foundation
import Testing

/// What a CI job gets wrong without noticing (issue 18, item 2): a build in
/// the wrong folder, a `step:` past the end, a failure whose reason scrolled
/// by. Each now fails the job with a located error and one closing line.
@Suite struct SafeDefaultsTests {
    @Test func aBuildThatFindsNothing_failsUnlessAllowEmpty() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("rowmotion-empty-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        // Before: "built 0 pages and 0 examples", exit 0, an empty site published.
        let empty = try CLI.run(["build", "--strict"], in: root)
        #expect(empty.status == 1)
        #expect(empty.stderr.hasPrefix("site:1:1: error: found no pages in 'site' and no examples in 'examples' (from "), "\(empty.stderr)")
        #expect(empty.stderr.hasSuffix("\nrowmotion: build failed: 1 error, 0 warnings\n"))
        #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("_site").path))
        let allowed = try CLI.run(["build", "--allow-empty"], in: root)
        #expect(allowed.status == 0, "\(allowed.stderr)")
        #expect(allowed.stdout.hasPrefix("built 0 pages and 0 examples"))
    }

    @Test func aStepPastTheLastSnapshot_isAnErrorAtItsLine() throws {
        let root = try ProjectTrapsTests.project()
        defer { try? FileManager.default.removeItem(at: root) }
        try ProjectTrapsTests.write(root, "site/index.md", "# Home\n\n```rowmotion\nexample: a.yml\nstep: 12\n```\n\n```rowmotion\nexample: a.yml\nstep: 1\n```\n")
        let result = try CLI.run(["build"], in: root)
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("site/index.md:5:7: error: 'step: 12' is past the last snapshot of 'a.yml': it has 2 (steps 0 to 1)\n"),
                "\(result.stderr)")
    }

    @Test func aFailingBuild_endsWithOneLineSayingWhy() throws {
        let root = try ProjectTrapsTests.project()
        defer { try? FileManager.default.removeItem(at: root) }
        try ProjectTrapsTests.write(root, "site/other.md", "# Other\n\n[gone](gone.md) and [also](missing.md)\n")
        let strict = try CLI.run(["build", "--strict"], in: root)
        #expect(strict.status == 1)
        let lines = strict.stderr.split(separator: "\n")
        #expect(lines.count == 3 && lines.last == "rowmotion: build failed: 0 errors, 2 warnings (--strict)", "\(strict.stderr)")
        let lenient = try CLI.run(["build"], in: root)
        #expect(lenient.status == 0)
        #expect(!lenient.stderr.contains("build failed"))
    }
}
