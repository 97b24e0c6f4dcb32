"""What the docs quote from the tool is what the tool does: the example
`rowmotion init` writes, and what `rowmotion diff` prints for it."""
import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ROWMOTION = ROOT / ".build" / "debug" / "rowmotion"
GUIDE = ROOT / "site" / "getting-started.md"


def fenced_blocks(text, language):
    return re.findall(r"^```" + language + r"\n(.*?)^```", text, flags=re.S | re.M)


def test_getting_started_quotes_the_example_init_writes_and_its_diff(tmp_path):
    subprocess.run([str(ROWMOTION), "init"], cwd=tmp_path, check=True, capture_output=True)
    example = (tmp_path / "examples" / "inbox.yml").read_text()
    guide = GUIDE.read_text()
    assert example in fenced_blocks(guide, "yaml"), "site/getting-started.md shows a different inbox.yml than rowmotion init writes"
    printed = subprocess.run([str(ROWMOTION), "diff", "examples/inbox.yml"], cwd=tmp_path, check=True,
                             capture_output=True, text=True).stdout
    assert printed.strip() + "\n" in fenced_blocks(guide, "swift"), "site/getting-started.md quotes a different rowmotion diff output"


def test_ci_workflows_name_one_swift_image_and_publish_to_pages():
    """The workflows live in site/ci.md only, all in one Swift image; the
    Pages workflow builds, uploads the artifact, deploys, and writes a job
    summary whether the build passed or not."""
    guide = (ROOT / "site" / "ci.md").read_text()
    workflows = fenced_blocks(guide, "yaml")
    images = {image for workflow in workflows for image in re.findall(r"container: (swift:[\w.]+)", workflow)}
    assert len(images) == 1, f"site/ci.md names several Swift images: {images}"
    stated = re.search(r"runs in the `(swift:[\w.]+)` container", guide)
    assert stated and stated.group(1) in images, "the prose and the workflows disagree on the Swift image"
    assert "container: swift:" not in (ROOT / "README.md").read_text(), "README repeats a workflow: it should point to site/ci.md"
    pages = next(w for w in workflows if "deploy-pages" in w)
    for step in ("actions/upload-pages-artifact@", "actions/deploy-pages@", "GITHUB_STEP_SUMMARY", "rowmotion build --strict"):
        assert step in pages, step
    assert re.search(r"name: Job summary\n\s+if: always\(\)", pages), "the summary must be written when the build fails too"


def test_the_readme_is_a_front_door_whose_links_into_the_site_lead_somewhere():
    """README (issue 30, item 6; issue 45, item 9): Install, the user's
    path (init, build, open, review), then the contributor's Quick start of
    exactly the two commands, Concepts, then the rest; every relative link
    names a file of the repository, so a reader who follows one into the
    site finds a page."""
    readme = (ROOT / "README.md").read_text()
    headings = re.findall(r"^## (.+)$", readme, flags=re.M)
    assert headings[:4] == ["Install", "Using it", "Quick start", "Concepts"], headings
    using = readme.split("## Using it", 1)[1].split("\n## ", 1)[0]
    for step in ("rowmotion init", "rowmotion build", "open _site/index.html", "--baseline origin/main"):
        assert step in using, f"the user's path lacks {step!r}"
    quick = readme.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    commands = [line.split("#")[0].strip() for block in fenced_blocks(quick, "sh") for line in block.splitlines() if line.strip()]
    assert commands == ["make site", "make test"], commands
    links = re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", readme)
    relative = [link for link in links if "://" not in link]
    assert any(link.startswith("site/") for link in relative), "README links into the site"
    missing = [link for link in relative if not (ROOT / link).exists()]
    assert missing == [], f"README links to files that do not exist: {missing}"
    # The diaries and the history live in the site and the changelog, not here.
    assert "### Site build" not in readme and "## Status" not in readme
    assert (ROOT / "site" / "under-the-hood.md").exists() and "## Site build" in (ROOT / "site" / "benchmarks.md").read_text()


def test_the_engine_page_names_the_rows_its_shuffle_moves(tmp_path):
    """site/engine.md says which rows of its shuffle move (issue 45, item
    15: it named C, B and E where the tool moves C, D and E)."""
    import json
    page = (ROOT / "site" / "engine.md").read_text()
    block = next(b for b in fenced_blocks(page, "rowmotion") if "Minimal moves" in b)
    (tmp_path / "shuffle.yml").write_text(block)
    report = json.loads(subprocess.run([str(ROWMOTION), "diff", "shuffle.yml", "--format", "json", "--step", "3"], cwd=tmp_path,
                                       check=True, capture_output=True, text=True).stdout)
    batch = report["steps"][0]["batches"][0]
    after = batch["after"][0]["items"]
    moved = sorted(after[to[1]] for _, to in batch["rows"]["move"])
    said = re.search(r"only (\w), (\w) and (\w) move", page)
    assert said, "site/engine.md no longer says which rows move"
    assert sorted(said.groups()) == moved, f"the page says {said.groups()}, the tool moves {moved}"


def test_the_readmes_picture_is_the_replay_the_tool_draws_now():
    """Issue 45, item 9: README opens with a picture of what the tool
    makes, drawn by `rowmotion diff --format replay` (and by `make site`),
    and held here to what the tool draws today."""
    readme = (ROOT / "README.md").read_text()
    assert '<img src="site/images/replay.svg"' in readme.split("## Install", 1)[0], "the picture is at README's top"
    drawn = subprocess.run([str(ROWMOTION), "diff", "examples/messenger.yml", "--format", "replay", "--step", "1"], cwd=ROOT,
                           check=True, capture_output=True, text=True).stdout
    assert (ROOT / "site" / "images" / "replay.svg").read_text() == drawn, "site/images/replay.svg is stale: run make site"
    # It plays by itself: keyframes and no script.
    assert "@keyframes" in drawn and "<script" not in drawn
