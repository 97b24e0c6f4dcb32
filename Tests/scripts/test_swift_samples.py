"""README's and the site's Swift samples compile: scripts/check-swift-samples.py
type-checks each ```swift block against the ListDiff and SequenceRecorder
modules `swift build` made (UIKit by a stand-in with its signatures), and
reports a broken one at its own line in the Markdown."""
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "check-swift-samples.py"


def run(*files):
    return subprocess.run([sys.executable, str(SCRIPT), *map(str, files)], cwd=ROOT, capture_output=True, text=True)


def test_every_swift_sample_in_the_readme_and_the_site_typechecks():
    result = run()
    assert result.returncode == 0, result.stderr
    count = int(result.stdout.split("check-swift-samples: ")[1].split()[0])
    assert count >= 9, result.stdout


def readme_sample():
    text = (ROOT / "README.md").read_text()
    start = text.index("```swift\nimport ListDiff\n\nstruct Chat")
    return text[start:text.index("```\n", start + 8) + 4]


def test_a_sample_that_no_longer_compiles_is_reported_at_its_line_and_column(tmp_path):
    # The mistake the first user met: a throwing call without `try`.
    broken = readme_sample().replace("let changeset = try Changeset(", "let changeset = Changeset(")
    page = tmp_path / "page.md"
    page.write_text("# A page\n\nSome text.\n\n" + broken)
    result = run(page)
    assert result.returncode == 1
    line = 5 + broken.splitlines().index(next(l for l in broken.splitlines() if l.startswith("let changeset = Changeset(")))
    assert f"{page}:{line}:17: error: call can throw but is not marked with 'try'" in result.stderr, result.stderr


def test_a_sample_without_a_context_and_an_unpinned_dependency_fail(tmp_path):
    page = tmp_path / "page.md"
    page.write_text("```swift\nlet rows = Snapshot(sectionID: 1, rows: [])\n```\n\n"
                    "```swift\n.package(url: \"https://example.com/rowmotion\", branch: \"dev\"),\n```\n\n"
                    "```swift\n.package(url: \"https://example.com/rowmotion\", from: \"9.9.9\"),\n```\n")
    result = run(page)
    assert result.returncode == 1
    assert f"{page}:2:1: error: no context for this Swift sample" in result.stderr
    assert f"{page}:6:1: error: a package dependency in the docs must name a tagged release" in result.stderr
    assert f"{page}:10:55: error: version 9.9.9 is not a tagged release in CHANGELOG.md" in result.stderr
