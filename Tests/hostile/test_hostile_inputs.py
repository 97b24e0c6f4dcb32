"""The hostile-input corpus (issue 13): files written to run script in a
page, to cost memory or time, or to forge output. Each has its expected
outcome in expected.json — a located error, or a page where nothing runs,
checked in Chromium by the global every payload would set (`__pwned`) —
and runs under a memory cap and a timeout. Then a seeded fuzz of sequence
files: mutated files must give located diagnostics, never a crash or a hang.

ROWMOTION_FUZZ_FILES (default 300; `make fuzz`: 5,000) and
ROWMOTION_FUZZ_SEED choose the fuzz's share."""
import json
import os
import random
import re
import shutil
import time

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By

from hostile_support import ROOT, run
from chrome import new_browser  # noqa: E402 (after hostile_support puts it on the path)

HERE = ROOT / "Tests" / "hostile"
CORPUS = HERE / "corpus"
EXPECTED = {name: value for name, value in json.loads((HERE / "expected.json").read_text()).items() if name != "_"}
DIAGNOSTIC = re.compile(r"^[^\n]+:\d+:\d+: (error|warning|note): [^\n]*$")


def generated(folder):
    """Cases too large (or too oddly named) to commit, written into `folder`;
    returns {name: expected}."""
    cases = {}
    def case(name, data, expected):
        (folder / name).write_bytes(data if isinstance(data, bytes) else data.encode())
        cases[name] = expected
    case("deep.yml", "steps: " + "[" * 1100 + "]" * 1100 + "\n",
         {"error": "deep.yml:1:9: error: lists and mappings nest deeper than 1000 levels"})
    case("deep.json", '{"steps": ' + "[" * 1100 + "]" * 1100 + "}",
         {"error": "deep.json:1:522: error: nesting deeper than 512 levels"})
    fields = ", ".join(f"f{i}: {i}" for i in range(1001))
    case("too-many-fields.yml", f"steps:\n  - items: [{{id: a, {fields}}}]\n",
         {"error": "too-many-fields.yml:2:13: error: this row has 1002 fields; rows are limited to 1000"})
    case("id-too-long.yml", "steps:\n  - items: [" + "x" * 1025 + "]\n",
         {"error": "id-too-long.yml:2:13: error: a row id is 1025 bytes long; ids are limited to 1024 bytes"})
    case("too-many-rows.yml", "steps:\n  - items: [" + ",".join(f"r{i}" for i in range(1_000_001)) + "]\n",
         {"error": "error: this snapshot has more than 1000000 rows, the limit for one snapshot"})
    case("too-large.yml", b"steps: []\n" + b" " * (64 << 20),
         {"error": "too-large.yml:1:1: error: the file is 64 MiB (67,108,874 bytes); files are limited to 64 MiB (67,108,864 bytes)"})
    # One row of 100,000 fields, one of them changed: 64 s before (item 7);
    # 1,000 is the limit, so the widest allowed row is diffed instead.
    wide = ", ".join(f"f{i}: {i}" for i in range(999))
    case("widest-row.yml", f"steps:\n  - items: [{{id: a, {wide}}}]\n  - items: [{{id: a, {wide.replace('f5: 5', 'f5: 6')}}}]\n",
         {"ok": True})
    # A file name that reads as a URL scheme (item 3).
    case("javascript:window.__pwned=20;0.json", '{"steps": [{"items": ["a"]}, {"items": ["b", "a"]}]}', {"page": True})
    return cases


@pytest.fixture(scope="module")
def cases(tmp_path_factory):
    folder = tmp_path_factory.mktemp("hostile")
    for source in CORPUS.iterdir():
        shutil.copy(source, folder / source.name)
    expected = dict(EXPECTED)
    expected.update(generated(folder))
    return folder, expected


def test_every_corpus_file_has_an_expected_outcome():
    assert sorted(p.name for p in CORPUS.iterdir()) == sorted(EXPECTED)


def test_each_hostile_file_is_a_located_error_or_accepted_within_limits(cases):
    folder, expected = cases
    failures = []
    for name, outcome in sorted(expected.items()):
        start = time.monotonic()
        result = run(["check", name], cwd=folder, timeout=60)
        seconds = time.monotonic() - start
        stderr = result.stderr.decode("utf-8", "replace")
        lines = [line for line in stderr.splitlines() if line]
        if not all(DIAGNOSTIC.match(line) for line in lines):
            failures.append(f"{name}: a line of stderr is not a diagnostic: {stderr!r}")
        if any(line.startswith("::") for line in lines):
            failures.append(f"{name}: a line of stderr is a workflow command: {stderr!r}")
        if "error" in outcome:
            if result.returncode != 1 or outcome["error"] not in stderr:
                failures.append(f"{name}: expected exit 1 and {outcome['error']!r}, got {result.returncode}: {stderr!r}")
        elif result.returncode != 0:
            failures.append(f"{name}: expected no error, got {result.returncode}: {stderr!r}")
        if seconds > 30:
            failures.append(f"{name}: took {seconds:.1f} s")
    assert not failures, "\n".join(failures)


def test_github_annotations_from_hostile_text_are_one_line_each(cases):
    folder, _ = cases
    result = run(["check", "forged-annotation.yml"], cwd=folder, env={**os.environ, "ROWMOTION_DIAGNOSTICS": "github"})
    commands = [line for line in result.stderr.decode().splitlines() if line.startswith("::")]
    assert len(commands) == 1, commands
    assert commands[0].startswith("::error file=forged-annotation.yml,line=3,col=54::"), commands
    # The forged command is text inside the one real command's message.
    assert commands[0].count("::error") == 3 and "\\n::error file=INJECTED" in commands[0], commands


@pytest.fixture(scope="module")
def hostile_site(cases, tmp_path_factory):
    """A project whose examples are the corpus' page cases, each shown on a
    page too; built, so every page can be opened."""
    folder, expected = cases
    project = tmp_path_factory.mktemp("hostile-site")
    (project / "examples").mkdir()
    (project / "site").mkdir()
    blocks = []
    for name, outcome in sorted(expected.items()):
        if outcome.get("page"):
            shutil.copy(folder / name, project / "examples" / name)
            blocks.append(f"```rowmotion\nexample: {name}\n```\n")
    (project / "site" / "index.md").write_text("# Hostile\n\n" + "\n".join(blocks) +
        "\n```rowmotion\ntitle: \"<script>window.__pwned=30</script>\"\nsteps:\n  - items: [\"<img src=x onerror=window.__pwned=31>\"]\n```\n")
    result = run(["build"], cwd=project, timeout=120)
    assert result.returncode == 0, result.stderr.decode()
    return project / "_site"


@pytest.fixture(scope="module")
def driver():
    browser = new_browser(window_size="1000,900")
    yield browser
    browser.quit()


def test_no_payload_runs_on_any_page_opened_played_focused_and_clicked(hostile_site, driver):
    pages = sorted(hostile_site.rglob("*.html"))
    assert len(pages) >= 5
    checked = 0
    for page in pages:
        driver.get(page.as_uri())
        # Tab through every focusable element (autofocus/onfocus payloads),
        # play every player to its end, then follow every link.
        driver.execute_script("""
            for (const element of document.querySelectorAll('a, button, input, [tabindex], [autofocus]')) element.focus();
            for (const player of (window.Rowmotion ? window.Rowmotion.players : [])) {
              for (let step = 0; step < 4; step++) player.goTo(step);
            }""")
        time.sleep(0.5)
        assert driver.execute_script("return window.__pwned") is None, f"a payload ran on {page}"
        hrefs = driver.execute_script("return [...document.querySelectorAll('a[href], img[src]')].map(e => e.getAttribute(e.tagName === 'A' ? 'href' : 'src'))")
        for href in hrefs:
            assert not re.match(r"^\s*(javascript|data|vbscript):", href, re.I), f"{page}: a link to {href!r}"
        for index in range(len(driver.find_elements(By.CSS_SELECTOR, "a[href]"))):
            links = driver.find_elements(By.CSS_SELECTOR, "a[href]")
            if index >= len(links) or not links[index].is_displayed():
                continue
            href = links[index].get_attribute("href")
            if not href.startswith("file:"):
                continue
            driver.execute_script("arguments[0].click()", links[index])
            time.sleep(0.05)
            assert driver.execute_script("return window.__pwned") is None, f"a payload ran after clicking {href} on {page}"
            if driver.current_url != page.as_uri():
                driver.get(page.as_uri())
        checked += 1
    assert checked == len(pages)
    # The payloads reached the pages, as text: the test saw them and they did not run.
    driver.get((hostile_site / "examples" / "description-script.html").as_uri())
    assert "<img src=x onerror=window.__pwned=1>" in driver.find_element(By.TAG_NAME, "body").text


# The seeded fuzz of sequence files.

SEED_FILE = """title: Seed
description: "[home](index.html) and *emphasis*"
animations: {insert: fade, delete: left}
version: rev
steps:
  - label: Start
    sections:
      - id: s1
        header: First
        items:
          - {id: a, title: Alpha, rev: 1}
          - {id: b, title: Beta, rev: 1}
      - id: s2
        items: [{id: c, title: Gamma, rev: 1}]
  - label: Next
    sections:
      - id: s2
        items: [{id: c, title: Gamma, rev: 2}, {id: a, title: Alpha, rev: 1}]
      - id: s1
        items: [{id: b, title: Beta, rev: 1}]
"""
TOKENS = ["*a", "&a ", "[", "]", "{", "}", ": ", "- ", "\n", "\t", "\x00", "\x1b[31m", "\u202e", "\ufeff", "'", '"', "\\",
          "1e400", "-0", "0x10", "~", "!!binary ", "!!str ", "%YAML 1.1\n", "---\n", "...\n", "? ", "<<: ", "|\n  ", ">-\n  ",
          "é\u0301", "</script>", "<img src=x onerror=window.__pwned=1>", "javascript:", "&", "#", "x" * 2000, "[" * 600]


def mutate(text, rng):
    data = text
    for _ in range(rng.randint(1, 6)):
        position = rng.randrange(len(data) + 1)
        choice = rng.random()
        if choice < 0.45:
            data = data[:position] + rng.choice(TOKENS) + data[position:]
        elif choice < 0.7:
            data = data[:position] + data[position + rng.randint(1, 20):]
        elif choice < 0.85:
            start = rng.randrange(len(data) + 1)
            data = data[:position] + data[start:start + rng.randint(1, 80)] + data[position:]
        else:
            data = data[:position] + chr(rng.randrange(0x20, 0x7f)) + data[position + 1:]
    return data


def test_seeded_fuzz_of_sequence_files_gives_located_diagnostics_never_a_crash(tmp_path):
    seed = int(os.environ.get("ROWMOTION_FUZZ_SEED", "20261123"))
    count = int(os.environ.get("ROWMOTION_FUZZ_FILES", "300"))
    rng = random.Random(seed)
    batch = 100
    for first in range(0, count, batch):
        folder = tmp_path / f"batch-{first}"
        folder.mkdir()
        names = []
        for index in range(first, min(first + batch, count)):
            name = f"case-{index}." + rng.choice(["yml", "yml", "yaml", "json"])
            text = mutate(SEED_FILE if not name.endswith("json") else json.dumps(
                {"steps": [{"items": ["a", "b"]}, {"items": [{"id": "b", "t": 1}, "a"]}]}), rng)
            (folder / name).write_bytes(text.encode("utf-8", "surrogatepass"))
            names.append(name)
        replay = f"ROWMOTION_FUZZ_SEED={seed} ROWMOTION_FUZZ_FILES={count} pytest Tests/hostile -k fuzz (files {first}..{first + len(names) - 1})"
        try:
            result = run(["check", *names], cwd=folder, timeout=120)
        except Exception as error:  # a hang: the timeout
            pytest.fail(f"seed {seed}: {error}; replay: {replay}")
        assert result.returncode in (0, 1), f"seed {seed}: exit {result.returncode}: {result.stderr[-2000:]!r}; replay: {replay}"
        lines = [line for line in result.stderr.decode("utf-8", "replace").splitlines() if line]
        bad = [line for line in lines if not DIAGNOSTIC.match(line)]
        assert not bad, f"seed {seed}: not diagnostics: {bad[:3]!r}; replay: {replay}"
        checked = result.stdout.decode().strip().splitlines()[-1]
        assert checked.startswith(f"checked {len(names)} sequence files"), f"seed {seed}: {checked!r}; replay: {replay}"
