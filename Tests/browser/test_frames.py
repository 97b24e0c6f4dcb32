"""The motion, frame by frame: every batch of every example page is held at
0, 25, 50, 75 and 100 % (each animation paused and seeked) and what Chromium
draws is compared with the player's timeline model (rectangles, opacity,
z-order, clipping, the list's height) and with what the page showed before
the step: rows start where they were, a row an explicit move carries is the
element found at its centre, leaving cells are not cut off, a reload
crossfades, and only the batch's own reloads animate. Scrolled lists and a
player at the bottom of a scrolled page are held the same way."""
import json
import re
from pathlib import Path

import pytest

from conftest import SITE, SCREENSHOTS

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
