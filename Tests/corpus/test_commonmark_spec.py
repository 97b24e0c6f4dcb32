"""Every example of the CommonMark spec through Rowmotion, compared with
Debian's `cmark --smart --unsafe` (the same libcmark, as a plain converter).

The spec comes from PyPI (marko's sdist carries it as test data;
requirements-spec.txt pins it by hash; `make test` unpacks it into
.build/commonmark-spec). Each example is a page of one site whose page
template is only `{{{content}}}`, so the page is exactly what Rowmotion made
of the Markdown. A page may differ from cmark's HTML only by what
Rowmotion adds on purpose, each counted:

- heading ids (`<h2 id="…">`, GitHub's slugs), so links to sections work;
- link rewriting: a root-absolute address (a link's or an image's) made
  relative to the page, a link to a `.md` page made `.html`, a folder
  address made its index page;
- anything else must be listed, with its reason, in
  commonmark-differences.txt next to this file (and a listed example that
  no longer differs fails too, so the list stays true).
"""
import json
import os
import re
import subprocess
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BINARY = Path(os.environ.get("ROWMOTION_BINARY", ROOT / ".build" / "debug" / "rowmotion"))
SPEC = ROOT / ".build" / "commonmark-spec" / "commonmark.txt"
DIFFERENCES = Path(__file__).with_name("commonmark-differences.txt")
FENCE = "`" * 32


def spec_examples():
    """(number, markdown, html) for each example, as the spec numbers them."""
    examples, lines, number = [], SPEC.read_text(encoding="utf-8").split("\n"), 0
    index = 0
    while index < len(lines):
        if lines[index].startswith(FENCE + " example"):
            number += 1
            end = lines.index(FENCE, index + 1)
            body = lines[index + 1:end]
            dot = body.index(".")
            markdown = "\n".join(body[:dot]) + "\n" if dot else ""
            html = "\n".join(body[dot + 1:]) + "\n" if dot + 1 < len(body) else ""
            examples.append((number, markdown.replace("→", "\t"), html.replace("→", "\t")))
            index = end
        index += 1
    return examples


def without_ids(html):
    return re.sub(r'(<h[1-6]) id="[^"]*"', r"\1", html)


def as_rowmotion_links(html):
    """cmark's HTML with the link rewriting Rowmotion does for a page at the root."""
    def rewrite(match):
        attribute, url = match.group(1), match.group(2)
        if re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:", url) or url.startswith("//") or url.startswith("#") or not url:
            return match.group(0)
        path, rest = re.match(r"^([^?#]*)(.*)$", url).groups()
        if path.startswith("/"):
            path = path[1:]
        if attribute == "src":
            # An image's path: made relative, nothing else.
            return f'{attribute}="{path}{rest}"'
        if path.endswith(".md"):
            path = path[:-3] + ".html"
        elif path.endswith("/") or path == "":
            path = path + "index.html"
        return f'{attribute}="{path}{rest}"'
    return re.sub(r'(href|src)="([^"]*)"', rewrite, html)


def listed_differences():
    listed = {}
    for line in DIFFERENCES.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            number, reason = line.split(" ", 1)
            listed[int(number)] = reason.strip()
    return listed


@pytest.fixture(scope="module")
def rendered():
    if not SPEC.exists():
        pytest.fail(f"no {SPEC}: `make test` unpacks it (make commonmark-spec)")
    examples = spec_examples()
    with tempfile.TemporaryDirectory() as folder:
        folder = Path(folder)
        (folder / "site").mkdir()
        (folder / "examples").mkdir()
        (folder / "templates").mkdir()
        (folder / "templates" / "page.mustache").write_text("{{{content}}}")
        (folder / "site" / "index.md").write_text("# Spec\n")
        for number, markdown, _ in examples:
            (folder / "site" / f"example-{number:03}.md").write_text(markdown, encoding="utf-8")
        build = subprocess.run([str(BINARY), "build", "--site", "site", "--examples", "examples", "--templates", "templates",
                                "--out", "out", "--no-cache"], cwd=folder, capture_output=True, text=True)
        results = {}
        for number, markdown, _ in examples:
            page = folder / "out" / f"example-{number:03}.html"
            ours = page.read_text(encoding="utf-8") if page.exists() else None
            theirs = subprocess.run(["cmark", "--smart", "--unsafe"], input=markdown, capture_output=True, text=True,
                                    check=True).stdout
            results[number] = (markdown, ours, theirs)
        return build, results


def test_every_spec_example_matches_cmark_but_for_documented_differences(rendered):
    build, results = rendered
    counts = {"identical": 0, "heading ids": 0, "link rewriting": 0, "listed": 0}
    unexplained, listed = {}, listed_differences()
    for number, (markdown, ours, theirs) in sorted(results.items()):
        if ours == theirs:
            counts["identical"] += 1
        elif ours is not None and without_ids(ours) == theirs:
            counts["heading ids"] += 1
        elif ours is not None and without_ids(ours) == as_rowmotion_links(theirs):
            counts["link rewriting"] += 1
        elif number in listed:
            counts["listed"] += 1
        else:
            unexplained[number] = {"markdown": markdown, "rowmotion": ours, "cmark": theirs}
    print("CommonMark spec examples:", len(results), json.dumps(counts))
    stale = sorted(n for n in listed if n in results and (results[n][1] == results[n][2]
                                                          or without_ids(results[n][1] or "") in (results[n][2], as_rowmotion_links(results[n][2]))))
    assert not unexplained, (f"{len(unexplained)} examples differ from cmark without a documented reason "
                             f"(build stderr: {build.stderr[:500]}):\n" + json.dumps(unexplained, indent=1, ensure_ascii=False)[:6000])
    assert not stale, f"listed in {DIFFERENCES.name} but no longer different: {stale}"
