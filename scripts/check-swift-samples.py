#!/usr/bin/env python3
"""Type-checks the Swift samples of README.md and the site's pages against
the ListDiff and SequenceRecorder modules just built, so that a sample that
no longer compiles (a renamed call, a missing `try`) fails `make test`.

Each ```swift block is compiled as it is written, as the `main.swift` of a
small module, beside the context it assumes (the declarations around it in
a real app: a table view, a data source, the type a sample takes from an
earlier block of its page) and a stand-in for UIKit with UIKit's signatures
(Tests/samples/UIKitStandIn.swift). A block that is a package manifest line
must name a released version (a `## X.Y.Z` heading of CHANGELOG.md that is
a tag of the repository), or the main branch while none is tagged. A block
this script has no context for fails: every sample is checked.

Errors are reported at the sample's own line in its Markdown file:
    README.md:312:9: error: call can throw but is not marked with 'try'

Usage: check-swift-samples.py [--modules DIR] [FILE.md ...]
(default: README.md and site/**/*.md; DIR: `swift build --show-bin-path`/Modules)"""
import argparse
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
STAND_IN = ROOT / "Tests" / "samples" / "UIKitStandIn.swift"

CHAT = "struct Chat: DiffableRow, Equatable { let id: String; var name: String; var preview: String }\n"
INDEX_PATH = "extension RowPath { var indexPath: IndexPath { IndexPath(row: row, section: section) } }\n"
TABLE = "@MainActor let tableView = UITableView()\n"

# What each sample assumes, by the first line of code in it: lines put
# before it in main.swift (`prefix`, counted when lines are mapped back),
# after it (`suffix`), and declarations in a second file (`context`).
CONTEXTS = {
    # README: the ListDiff walk-through.
    "import ListDiff\n\nstruct Chat: DiffableRow, Equatable {   // Identifiable": dict(
        prefix="import Foundation  // an app's `import UIKit` brings it\n",
        context="import ListDiff\n@MainActor final class ChatsDataSource { var snapshot = Snapshot<String, Chat>(sectionID: \"chats\", rows: []) }\n"
                "@MainActor let dataSource = ChatsDataSource()\n" + TABLE),
    # README: the validator on a batch of one's own.
    "let batch = Batch(sectionMoves:": dict(prefix="import ListDiff\n"),
    # getting-started.md: what `rowmotion diff` prints, pasted where users
    # paste it: a method of a table view controller (issue 45, item 10).
    "// Step 1: New mail": dict(prefix="import Foundation\nfinal class InboxViewController: UITableViewController {\nfunc apply() {\n",
                                suffix="}\n}\n"),
    # listdiff-in-an-app.md, in page order.
    "import ListDiff\n\nstruct Chat: DiffableRow, Equatable {\n    let id": dict(
        context="let chats: [Chat] = []\nlet updatedChats: [Chat] = []\n"),
    "final class ChatsViewController: UITableViewController {": dict(
        prefix="import Foundation\nimport ListDiff\n", context="import ListDiff\n" + CHAT),
    "private func apply(_ stages: ArraySlice<Changeset<String, Photo>.Stage>) {": dict(
        prefix="import Foundation\nimport ListDiff\nfinal class PhotosViewController: UICollectionViewController {\n"
               "    var snapshot = Snapshot<String, Photo>(sectionID: \"photos\", rows: [])\n",
        suffix="}\n",
        context="import Foundation\nimport ListDiff\nstruct Photo: DiffableRow, Equatable { let id: String }\n" + INDEX_PATH),
    "import SequenceRecorder": dict(
        prefix="import ListDiff\n",
        context="import ListDiff\n" + CHAT + "final class Inbox: Sendable { func receive(_ message: String) {} }\nlet inbox = Inbox()\n"
                "let message = \"Lunch?\"\nstruct DataSource { var snapshot = Snapshot<String, Chat>(sectionID: \"chats\", rows: []) }\n"
                "let dataSource = DataSource()\n"),
}


def samples(path):
    """(line of the first code line, code) of each ```swift block."""
    text = path.read_text(encoding="utf-8")
    for match in re.finditer(r"^```swift[ \t]*\n(.*?)^```", text, re.S | re.M):
        yield text[:match.start(1)].count("\n") + 1, match.group(1)


def released_versions():
    """The releases in CHANGELOG.md that are tags of the repository: what
    `from: "X.Y.Z"` can resolve (a version listed but never tagged resolves
    nothing: issue 45, item 15)."""
    listed = set(re.findall(r"^## (\d+\.\d+\.\d+)", (ROOT / "CHANGELOG.md").read_text(encoding="utf-8"), re.M))
    tags = subprocess.run(["git", "tag", "--list"], cwd=ROOT, capture_output=True, text=True).stdout.split()
    return listed & set(tags)


def context_for(code):
    for start, context in CONTEXTS.items():
        if code.startswith(start):
            return context
    return None


def check_manifest_line(path, line, code, versions):
    problems = []
    for offset, text in enumerate(code.splitlines()):
        if ".package(" not in text:
            continue
        pinned = re.search(r'from: "(\d+\.\d+\.\d+)"', text)
        # Until a release is tagged, the main branch is what resolves.
        if not pinned and not versions and 'branch: "main"' in text:
            continue
        if not pinned:
            problems.append(f"{path}:{line + offset}:1: error: a package dependency in the docs must name a tagged release "
                            f"(from: \"X.Y.Z\"), or branch: \"main\" while none is tagged")
        elif pinned.group(1) not in versions:
            problems.append(f"{path}:{line + offset}:{text.index(pinned.group(1)) + 1}: error: version {pinned.group(1)} "
                            f"is not a tagged release in CHANGELOG.md ({', '.join(sorted(versions)) or 'none'})")
    return problems


def typecheck(path, line, code, context, modules, swiftc):
    prefix, suffix = context.get("prefix", ""), context.get("suffix", "")
    with tempfile.TemporaryDirectory() as folder:
        folder = Path(folder)
        (folder / "main.swift").write_text(prefix + code + suffix, encoding="utf-8")
        (folder / "context.swift").write_text(context.get("context", ""), encoding="utf-8")
        command = [swiftc, "-typecheck", "-swift-version", "6", "-module-name", "Samples", "-I", str(modules),
                   str(folder / "main.swift"), str(folder / "context.swift"), str(STAND_IN)]
        result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode == 0:
        return []
    shift = prefix.count("\n")
    problems = []
    for text in (result.stdout + result.stderr).splitlines():
        found = re.match(r".*?main\.swift:(\d+):(\d+): (error|warning): (.*)", text)
        if found and found.group(3) == "error":
            sample_line = int(found.group(1)) - shift
            if 1 <= sample_line <= code.count("\n") + 1:
                problems.append(f"{path}:{line + sample_line - 1}:{found.group(2)}: error: {found.group(4)}")
                continue
        if found or re.match(r".*: error: ", text):
            problems.append(f"{path}:{line}:1: error: (in the sample's context) {text.strip()}")
    return problems or [f"{path}:{line}:1: error: swiftc failed: {(result.stdout + result.stderr).strip()[:400]}"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--modules", type=Path)
    parser.add_argument("--swiftc", default="swiftc")
    parser.add_argument("files", nargs="*", type=Path)
    arguments = parser.parse_args()
    modules = arguments.modules
    if modules is None:
        bin_path = subprocess.run(["swift", "build", "--show-bin-path"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.strip()
        modules = Path(bin_path) / "Modules"
    for module in ("ListDiff", "SequenceRecorder"):
        if not (modules / f"{module}.swiftmodule").exists():
            print(f"check-swift-samples: error: {modules}/{module}.swiftmodule is missing: run `swift build` first", file=sys.stderr)
            return 2
    files = arguments.files or [ROOT / "README.md", *sorted((ROOT / "site").rglob("*.md"))]
    versions = released_versions()
    problems, checked = [], 0
    for path in files:
        shown = path.relative_to(ROOT) if path.is_absolute() and ROOT in path.parents else path
        for line, code in samples(path):
            checked += 1
            if code.lstrip().startswith(".package(") or code.lstrip().startswith(".product("):
                problems += check_manifest_line(shown, line, code, versions)
                continue
            context = context_for(code)
            if context is None:
                first = code.strip().splitlines()[0] if code.strip() else ""
                problems.append(f"{shown}:{line}:1: error: no context for this Swift sample ('{first[:60]}'): "
                                "add one to CONTEXTS in scripts/check-swift-samples.py, so it is compiled too")
                continue
            problems += typecheck(shown, line, code, context, modules, arguments.swiftc)
    for problem in problems:
        print(problem, file=sys.stderr)
    print(f"check-swift-samples: {checked} Swift samples, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
