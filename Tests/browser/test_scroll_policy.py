"""Where the list is scrolled when a batch changes what is above it (issue
43, item 4, the seed's scroll anchoring), in every layout, the list
scrolled: `scroll: keep-offset` (UIKit's default) keeps the offset, so what
is seen is pushed by what is inserted above it; `scroll: anchor` keeps the
first item in sight where it is on screen, the offset moving instead, at
every moment of the batch. And `skipAnimation:` (item 5): a step that
changes more than its share of the items is shown at once, saying why."""
import pytest

from chrome import new_browser
from conftest import build_site

LAYOUTS = {"list": {}, "grid": {"layout": "grid", "columns": 3}, "table": {"layout": "table", "fields": ["title", "n"]}}


def sequence(layout, scroll):
    rows = [{"id": f"r{k}", "title": f"Item {k}", "n": k} for k in range(60)]
    after = [{"id": "a", "title": "New A", "n": -1}, {"id": "b", "title": "New B", "n": -2}] + [dict(r) for r in rows]
    after[2 + 20]["n"] = 1000  # a change in sight, so the player does not scroll to the inserts
    return {"title": f"{layout} {scroll}", "scroll": scroll, "height": 300, **LAYOUTS[layout],
            "steps": [{"label": "Before", "items": rows}, {"label": "Two above", "items": after}]}


MEASURE = """
const p = window.Rowmotion.players[0], list = p.element.querySelector('.rowmotion-list');
const el = list.querySelector('[data-item-id="' + arguments[0] + '"]');
return {top: el.getBoundingClientRect().top - list.getBoundingClientRect().top, scrollTop: list.scrollTop};
"""

FIRST_IN_SIGHT = """
const list = document.querySelector('.rowmotion-list'), top = list.getBoundingClientRect().top;
const cover = (list.querySelector('.rowmotion-columns') || {getBoundingClientRect: () => ({height: 0})}).getBoundingClientRect().height;
const items = Array.from(list.querySelectorAll('[data-item-id]')).map((el) => ({id: el.getAttribute('data-item-id'), box: el.getBoundingClientRect()}))
  .filter((item) => item.box.bottom > top + cover + 0.5).sort((a, b) => a.box.top - b.box.top || a.box.left - b.box.left);
return items[0].id;
"""


@pytest.fixture(scope="module")
def browser():
    b = new_browser(window_size="1000,900")
    b.set_script_timeout(60)
    yield b
    b.quit()


SCROLL_TO_THE_CHANGE = """
const list = document.querySelector('.rowmotion-list'), el = list.querySelector('[data-item-id="r20"]');
list.scrollTop += el.getBoundingClientRect().top - list.getBoundingClientRect().top - 90;
return list.scrollTop;
"""


def scrolled_before_the_step(browser, page):
    """The list scrolled so that the changed item (r20) is in sight, 90 px
    down: the player has no reason to scroll to the change."""
    browser.get(page.as_uri())
    browser.execute_script(SCROLL_TO_THE_CHANGE)
    browser.execute_async_script("const done = arguments[0]; requestAnimationFrame(() => requestAnimationFrame(done))")
    anchor = browser.execute_script(FIRST_IN_SIGHT)
    return anchor, browser.execute_script(MEASURE, anchor)


@pytest.mark.parametrize("layout", LAYOUTS)
def test_anchor_keeps_the_first_item_in_sight_where_it_is_at_every_moment(browser, tmp_path, layout):
    page = build_site(tmp_path, "s.json", sequence(layout, "anchor"), "# S\n\n```rowmotion\nexample: s.json\n```\n") / "examples" / "s.html"
    anchor, start = scrolled_before_the_step(browser, page)
    problems = []
    for fraction in (0, 0.25, 0.5, 0.75, 1):
        browser.execute_script("window.Rowmotion.players[0].hold(arguments[0])", fraction)
        now = browser.execute_script(MEASURE, anchor)
        if abs(now["top"] - start["top"]) > 1:
            problems.append(f"{layout}, {fraction:.0%}: {anchor} at {now['top']:.1f} px in the list, was {start['top']:.1f}")
    browser.execute_async_script("const done = arguments[0]; const p = window.Rowmotion.players[0]; p.goTo(0).then(() => done())")
    browser.execute_script(SCROLL_TO_THE_CHANGE)
    browser.execute_async_script("const done = arguments[0]; window.Rowmotion.players[0].next().then(() => done())")
    end = browser.execute_script(MEASURE, anchor)
    if abs(end["top"] - start["top"]) > 1:
        problems.append(f"{layout}, played: {anchor} ends at {end['top']:.1f} px, was {start['top']:.1f}")
    # The offset moved by as much as the anchor moved in the content: two
    # rows in a list or a table; in a grid, the lines it moved down (two
    # places on may be the same line).
    if layout != "grid" and not end["scrollTop"] > start["scrollTop"] + 20:
        problems.append(f"{layout}: the offset went from {start['scrollTop']} to {end['scrollTop']} although two rows arrived above")
    assert problems == [], "\n".join(problems)


@pytest.mark.parametrize("layout", LAYOUTS)
def test_keep_offset_keeps_the_offset_and_what_is_seen_is_pushed(browser, tmp_path, layout):
    page = build_site(tmp_path, "s.json", sequence(layout, "keep-offset"), "# S\n\n```rowmotion\nexample: s.json\n```\n") / "examples" / "s.html"
    anchor, start = scrolled_before_the_step(browser, page)
    browser.execute_async_script("const done = arguments[0]; window.Rowmotion.players[0].next().then(() => done())")
    end = browser.execute_script(MEASURE, anchor)
    assert end["scrollTop"] == start["scrollTop"], f"{layout}: the offset moved from {start['scrollTop']} to {end['scrollTop']}"
    # Two items above: a list's rows go down two rows; a grid's items two
    # places on, so the first in sight goes down a line or stays on its line.
    if layout == "grid":
        assert end["top"] >= start["top"] - 1, f"{layout}: {anchor} went up from {start['top']:.1f} to {end['top']:.1f}"
    else:
        assert end["top"] > start["top"] + 20, f"{layout}: {anchor} stayed at {start['top']:.1f} ({end['top']:.1f}): it should be pushed down"


def test_a_step_changing_more_than_skip_animation_is_shown_at_once_and_says_why(browser, tmp_path):
    rows = [{"id": f"r{k}", "title": f"Item {k}"} for k in range(10)]
    most = [{"id": f"r{k}", "title": f"Item {k}!" if k < 6 else f"Item {k}"} for k in range(10)]
    few = [{"id": f"r{k}", "title": f"Item {k}?" if k < 2 else most[k]["title"]} for k in range(10)]
    spec = {"layout": "table", "skipAnimation": 0.5, "steps": [{"items": rows}, {"items": most}, {"items": few}]}
    page = build_site(tmp_path, "s.json", spec, "# S\n\n```rowmotion\nexample: s.json\n```\n") / "examples" / "s.html"
    browser.get(page.as_uri())
    result = browser.execute_async_script("""
        const done = arguments[0], p = window.Rowmotion.players[0], batches = [];
        p.element.addEventListener('rowmotion:batch', (event) => batches.push(event.detail.step));
        p.next().then(() => {
          const first = {batches: batches.slice(), atOnce: p.element.hasAttribute('data-shown-at-once'),
                         said: p.element.querySelector('[aria-live]').textContent};
          return p.next().then(() => done({first, second: {batches: batches.slice(), atOnce: p.element.hasAttribute('data-shown-at-once')}}));
        });""")
    assert result["first"]["batches"] == [], "6 of 10 items change: no batch plays"
    assert result["first"]["atOnce"]
    assert "skipAnimation" in result["first"]["said"] and "6 changes to 10 items" in result["first"]["said"], result["first"]["said"]
    assert result["second"]["batches"] == [2] and not result["second"]["atOnce"], "2 of 10 change: the step animates"
