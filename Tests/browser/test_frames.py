"""The motion, frame by frame: every batch of every example page is held at
0, 25, 50, 75 and 100 % (each animation paused and seeked) and what Chromium
draws is compared with the player's timeline model (rectangles, opacity,
z-order, clipping, the list's height) and with what the page showed before
the step: rows start where they were, a row an explicit move carries is the
element found at its centre, leaving cells are not cut off, a reload
crossfades, and only the batch's own reloads animate. Scrolled lists and a
player at the bottom of a scrolled page are held the same way."""
import json
import os
import random
import re
import subprocess
from pathlib import Path

import pytest

from conftest import BINARY, SITE, build_site

RANDOM_SEQUENCES = int(os.environ.get("ROWMOTION_FRAME_SEQUENCES", "12"))
RANDOM_SEED = int(os.environ.get("ROWMOTION_FRAME_SEED", "20261123"))
# Sequences `make fuzz` found failing, each fixed since: checked on every run.
# 20261262: a tall deleted row pushed down past the taller layout's edge was
# cut off by 1.4 px at 75 % (the list's height dipped between two samples).
FOUND_BY_FUZZ = [20261262]
STYLES = ["fade", "right", "left", "top", "bottom", "none", "middle", "automatic"]

FRAMES = (Path(__file__).parent / "js" / "frames.js").read_text()
FRACTIONS = [0, 0.25, 0.5, 0.75, 1]
PAGES = sorted((SITE / "examples").glob("*.html"))


def page_data(page):
    html = page.read_text()
    match = re.search(r'<script type="application/json" class="rowmotion-data">(.*?)</script>', html, re.S)
    return json.loads(match.group(1))


def hold_and_check(driver, step, batch, index=0):
    return driver.execute_async_script(FRAMES, index, step, batch, FRACTIONS)


def open_page(driver, page):
    driver.get(page.as_uri())
    driver.execute_script("window.scrollTo(0, 0)")


def test_every_example_page_is_checked():
    assert len(PAGES) >= 11, f"found {len(PAGES)} example pages in {SITE}"


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.stem)
def test_every_batch_matches_the_model_at_every_fifth_of_its_animation(driver, page):
    open_page(driver, page)
    data = page_data(page)
    problems, checked = [], 0
    for step, step_data in enumerate(data["steps"], start=1):
        for batch, batch_data in enumerate(step_data["batches"]):
            result = hold_and_check(driver, step, batch)
            problems += result["problems"]
            checked += result["checked"]
            # Only this batch's reloads animate as reloads.
            reload_calls = len(batch_data["rows"]["reload"])
            if result["reloadsNew"] != reload_calls and page.stem != "large-list":
                problems.append(f"step {step} batch {batch + 1}: {result['reloadsNew']} rows reload, the batch has {reload_calls} reload calls")
    assert checked > 0
    assert problems == [], "\n".join(problems[:20])


def test_an_orthogonal_line_that_empties_and_refills_is_drawn_as_the_model_says(driver, tmp_path):
    """An orthogonal line is a scroller: while its line emptied, its footer
    glided below the line's new box and was clipped, drawn under a card
    moving out (found in issue 43). While a batch plays the line neither
    scrolls nor clips; every batch of a line that empties, refills and moves
    below a list is held and checked."""
    sequence = {"spacing": 10, "steps": [
        {"sections": [{"id": "f", "header": "Featured", "footer": "End", "layout": "orthogonal", "items": ["a", "b", "c", "d"]},
                      {"id": "l", "header": "List", "items": ["x", "y"]}]},
        {"sections": [{"id": "f", "header": "Featured", "footer": "End", "items": []}, {"id": "l", "header": "List", "items": ["x", "y", "a"]}]},
        {"sections": [{"id": "f", "header": "Featured", "footer": "End", "items": ["c", "b", "d"]}, {"id": "l", "header": "List", "items": ["y"]}]},
        {"sections": [{"id": "l", "header": "List", "items": ["y", "x"]}, {"id": "f", "header": "Featured", "footer": "End", "items": ["d", "b"]}]}]}
    page = build_site(tmp_path, "edge.json", sequence, "# E\n\n```rowmotion\nexample: edge.json\n```\n") / "examples" / "edge.html"
    open_page(driver, page)
    problems, checked = [], 0
    for step, step_data in enumerate(page_data(page)["steps"], start=1):
        for batch in range(len(step_data["batches"])):
            result = hold_and_check(driver, step, batch)
            problems += result["problems"]
            checked += result["checked"]
    assert checked > 0
    assert problems == [], "\n".join(problems[:20])


def test_a_scrolled_long_list_animates_the_rows_in_view_and_keeps_its_offset(driver):
    page = SITE / "examples" / "large-list.html"
    open_page(driver, page)
    data = page_data(page)
    problems = []
    for step in range(1, len(data["steps"]) + 1):
        driver.execute_script("""
            const list = window.Rowmotion.players[0].element.querySelector('.rowmotion-list');
            return window.Rowmotion.players[0].goTo(arguments[0]).then(() => { list.scrollTop = 20000; });
        """, step - 1)
        for batch in range(len(data["steps"][step - 1]["batches"])):
            result = hold_and_check(driver, step, batch)
            problems += result["problems"]
            assert result["animated"] < 200, f"step {step}: {result['animated']} parts animate in a list scrolled to 20,000 px"
    top = driver.execute_script("return window.Rowmotion.players[0].element.querySelector('.rowmotion-list').scrollTop")
    assert top > 15000, "the list lost its scroll position"
    assert problems == [], "\n".join(problems[:20])


def test_a_player_at_the_bottom_of_a_scrolled_page_keeps_its_geometry(driver):
    page = SITE / "examples" / "original-revised.html"
    open_page(driver, page)
    driver.execute_script("""
        const spacer = document.createElement('div');
        spacer.style.height = '3000px';
        const player = window.Rowmotion.players[0].element;
        player.setAttribute('data-keep-page-scroll', '');
        player.parentNode.insertBefore(spacer, player);
        document.querySelectorAll('main > *').forEach((node) => {
          if (node.compareDocumentPosition(player) & Node.DOCUMENT_POSITION_PRECEDING) node.style.display = 'none';
        });
        window.scrollTo(0, document.body.scrollHeight);
    """)
    data = page_data(page)
    problems = []
    for step in range(1, len(data["steps"]) + 1):
        for batch in range(len(data["steps"][step - 1]["batches"])):
            driver.execute_script("window.scrollTo(0, document.body.scrollHeight)")
            problems += hold_and_check(driver, step, batch)["problems"]
    assert problems == [], "\n".join(problems[:20])


def random_sequence(seed):
    """2 to 4 snapshots of 1 to 4 sections with headers and footers; each step
    deletes, inserts and moves rows and sections, changes contents and
    headers, with random animation styles."""
    rng = random.Random(seed)
    counter = iter(range(10_000))
    def new_row():
        n = next(counter)
        return {"id": f"r{n}", "title": f"Row {n}", "v": 0}
    sections = [{"id": f"s{k}", "header": f"Section {k}", "items": [new_row() for _ in range(rng.randint(0, 5))]}
                for k in range(rng.randint(1, 4))]
    for section in sections:
        if rng.random() < 0.3:
            section["footer"] = "footer"
    steps = [json.loads(json.dumps(sections))]
    for _ in range(rng.randint(1, 3)):
        state = json.loads(json.dumps(steps[-1]))
        rows = [row for section in state for row in section["items"]]
        for section in state:
            section["items"] = [row for row in section["items"] if rng.random() > 0.2]
        for section in state:
            for _ in range(rng.randint(0, 2)):
                section["items"].insert(rng.randint(0, len(section["items"])), new_row())
            for row in section["items"]:
                if rng.random() < 0.2:
                    row["v"] += 1
        if len(state) > 1 and rng.random() < 0.5:  # a row changes section
            source, target = rng.sample(state, 2)
            if source["items"]:
                target["items"].insert(rng.randint(0, len(target["items"])), source["items"].pop(rng.randrange(len(source["items"]))))
        for section in state:
            if len(section["items"]) > 1 and rng.random() < 0.5:
                row = section["items"].pop(rng.randrange(len(section["items"])))
                section["items"].insert(rng.randint(0, len(section["items"])), row)
        if len(state) > 1 and rng.random() < 0.4:
            state.insert(rng.randint(0, len(state) - 1), state.pop(rng.randrange(len(state))))
        if len(state) > 1 and rng.random() < 0.25:
            state.pop(rng.randrange(len(state)))
        if rng.random() < 0.25:
            k = next(counter)
            state.insert(rng.randint(0, len(state)), {"id": f"new{k}", "header": f"New {k}", "items": [new_row() for _ in range(rng.randint(0, 3))]})
        if state and rng.random() < 0.2:
            rng.choice(state)["header"] += "!"
        steps.append(state)
        del rows
    sequence = {
        "title": f"Random {seed}",
        "animations": {"insert": rng.choice(STYLES), "delete": rng.choice(STYLES), "reload": rng.choice(STYLES)},
        "steps": [{"label": f"Snapshot {k}", "sections": state} for k, state in enumerate(steps)],
    }
    # Half the sequences draw their rows as cells (a random style, an image
    # tile, a note that wraps over 1 to 4 lines and grows when the row is
    # reloaded, the reload count on a badge), so rows differ in height and
    # change height when reloaded. A generator of its own keeps the
    # sequences above what they were for every seed.
    cells = random.Random(seed * 7919 + 1)
    if cells.random() < 0.5:
        style = cells.choice(["default", "subtitle", "value1", "value2"])
        layout = {"style": style, "title": "title", "badge": "v"}
        if style != "value2":
            layout["image"] = "title"
        if style != "default":
            layout["subtitle" if style == "subtitle" else "detail"] = "note"
        sequence["cell"] = layout
        words = {}
        for step in sequence["steps"]:
            for section in step["sections"]:
                for row in section["items"]:
                    words.setdefault(row["id"], cells.randint(1, 30))
                    row["note"] = " ".join(["word"] * words[row["id"]]) + " edited" * row["v"]
    return sequence


@pytest.fixture(scope="module")
def random_site(tmp_path_factory):
    root = tmp_path_factory.mktemp("frames")
    (root / "site").mkdir()
    (root / "examples").mkdir()
    (root / "site" / "index.md").write_text("# Random sequences\n")
    seeds = sorted(set(range(RANDOM_SEED, RANDOM_SEED + RANDOM_SEQUENCES)) | set(FOUND_BY_FUZZ))
    for seed in seeds:
        (root / "examples" / f"random-{seed}.json").write_text(json.dumps(random_sequence(seed)))
    subprocess.run([str(BINARY), "build", "--site", "site", "--examples", "examples", "--out", "_site"],
                   cwd=root, check=True, capture_output=True, text=True)
    return root / "_site", seeds


def test_random_sequences_match_the_model_at_every_fifth_of_every_batch(driver, random_site):
    site, seeds = random_site
    failures = []
    for seed in seeds:
        page = site / "examples" / f"random-{seed}.html"
        open_page(driver, page)
        data = page_data(page)
        problems = []
        for step, step_data in enumerate(data["steps"], start=1):
            for batch, batch_data in enumerate(step_data["batches"]):
                result = hold_and_check(driver, step, batch)
                problems += result["problems"]
                if result["reloadsNew"] != len(batch_data["rows"]["reload"]):
                    problems.append(f"step {step} batch {batch + 1}: {result['reloadsNew']} rows reload, the batch has {len(batch_data['rows']['reload'])}")
        if problems:
            failures.append(f"seed {seed} (replay: ROWMOTION_FRAME_SEED={seed} ROWMOTION_FRAME_SEQUENCES=1 "
                            f".venv/bin/pytest Tests/browser/test_frames.py -k random): " + "; ".join(problems[:6]))
    assert failures == [], "\n".join(failures[:5])


def test_deleting_the_last_section_with_its_footer_is_seen_in_every_style(driver, tmp_path):
    """The block (header, rows, footer) leaves as the style says, behind the
    rows that stay, and the list shrinks with it, without a scrollbar."""
    (tmp_path / "site").mkdir()
    (tmp_path / "examples").mkdir()
    (tmp_path / "site" / "index.md").write_text("# Last section\n")
    today = {"id": "today", "header": "Today", "items": [{"id": "a", "title": "Alice"}, {"id": "b", "title": "Bob"}]}
    later = {"id": "later", "header": "Later", "footer": "2 chats", "items": [{"id": "c", "title": "Carol"}, {"id": "d", "title": "Dave"}]}
    for style in STYLES:
        sequence = {"title": f"Last section, {style}", "animation": style,
                    "steps": [{"label": "Two", "sections": [today, later]}, {"label": "One", "sections": [today]}]}
        (tmp_path / "examples" / f"last-{style}.json").write_text(json.dumps(sequence))
    subprocess.run([str(BINARY), "build", "--site", "site", "--examples", "examples", "--out", "_site"],
                   cwd=tmp_path, check=True, capture_output=True, text=True)
    problems = []
    for style in STYLES:
        open_page(driver, tmp_path / "_site" / "examples" / f"last-{style}.html")
        result = hold_and_check(driver, 1, 0)
        problems += [f"{style}: {problem}" for problem in result["problems"]]
        if style != "none" and result["roles"].get("delete", 0) != 4:
            problems.append(f"{style}: {result['roles']} (header, two rows and the footer should leave)")
    assert problems == [], "\n".join(problems[:10])

