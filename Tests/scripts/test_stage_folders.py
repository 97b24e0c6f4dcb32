"""Issue 31: SiteGenerator's folders are stages that call one way. Each
folder may name only what the folders before it in STAGES declare (a type,
a top-level function, or a type it extends); the pipeline at the top puts
them together. The graph is read from the source (Tests/scripts/stage_graph.py)."""
import sys
import pathlib

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import stage_graph  # noqa: E402

# Bottom to top: what each folder holds.
STAGES = [
    "Support",    # result slots for parallel work, JSON safe in <script>, content hashes
    "Files",      # paths on disk and in the site, the written site's marker
    "Document",   # a page as libcmark's tree gave it
    "Markdown",   # Markdown to HTML and a Document; raw HTML tokenized
    "Theme",      # templates, their contexts, the navigation and its memo
    "Model",      # options, examples, player data, reports, baselines, changes
    "Loading",    # site/, examples/, templates/ read once
    "Links",      # a page's links resolved by their rules; links to elements checked against Documents
    "Rendering",  # pages, example pages, the index, redirects
    "Output",     # search index, theme assets, the writer
    "Review",     # the review page and summary of --baseline
    "Graph",      # the build's rules over the one graph, its sink and its store
    stage_graph.PIPELINE,
]


def test_every_folder_is_a_stage_and_names_only_earlier_stages():
    edges, declared, duplicates = stage_graph.graph()
    assert not duplicates, f"names declared in two folders: {duplicates}"
    folders = {path.relative_to(stage_graph.SOURCES).parts[0] for path in stage_graph.SOURCES.rglob("*.swift")
               if len(path.relative_to(stage_graph.SOURCES).parts) > 1}
    assert folders <= set(STAGES), f"folders that are no stage: {sorted(folders - set(STAGES))}"
    upward = [f"{a} -> {b}: {references[:3]}" for a, targets in edges.items() for b, references in targets.items()
              if STAGES.index(b) > STAGES.index(a)]
    assert not upward, "a stage names a later one:\n" + "\n".join(sorted(upward))
    assert stage_graph.cycles(edges) == []


def test_the_check_finds_a_cycle_and_a_name_two_folders_declare(tmp_path):
    """The check can fail: two folders that name each other's types, and a
    type declared in both."""
    sources = tmp_path / "SiteGenerator"
    (sources / "A").mkdir(parents=True)
    (sources / "B").mkdir()
    (sources / "A" / "a.swift").write_text('struct Alpha { var b: Beta }\n// Gamma in a comment\nlet s = "Gamma"\n')
    (sources / "B" / "b.swift").write_text("enum Beta { static func f() -> Alpha? { nil } }\nstruct Same {}\n")
    (sources / "A" / "same.swift").write_text("struct Same {}\n")
    (sources / "B" / "gamma.swift").write_text("struct Gamma {}\n")
    edges, _, duplicates = stage_graph.graph(sources)
    assert stage_graph.cycles(edges) == [["A", "B"]]
    assert duplicates == ["Same: A and B"] or duplicates == ["Same: B and A"]
    # Comments and string literals are not references.
    assert not any("Gamma" in reference for reference in edges["A"]["B"]), edges["A"]["B"]
