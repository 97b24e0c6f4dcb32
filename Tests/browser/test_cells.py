"""Rows drawn as the app's cells (`cell:`), in Chromium: each style puts the
fields where UITableViewCell.CellStyle puts its labels (Apple's
documentation of the styles: default — a text label and an optional image;
subtitle — "a left-aligned label across the top and a left-aligned label
below it in smaller gray text"; value1 — the detail "on the right side ...
right-aligned"; value2 — a right-aligned title on the left and the detail
beside it, https://developer.apple.com/documentation/uikit/uitableviewcell/cellstyle),
settled and held mid-step; what the script draws is what the page's first
rows were; a long text is shown in full, nothing scrolls sideways, and the
example page gives the player room."""

import pytest
import yaml
from selenium.webdriver.common.by import By

from conftest import ROOT, SCREENSHOTS, SITE, build_site

CELLS = """
const player = window.Rowmotion.players[arguments[0]];
const list = player.element.querySelector('.rowmotion-list').getBoundingClientRect();
return Array.from(player.element.querySelectorAll('.rowmotion-content .rowmotion-row')).map((row) => {
  const box = (el) => { const r = el.getBoundingClientRect(); return {left: r.left, right: r.right, top: r.top, bottom: r.bottom, width: r.width, height: r.height}; };
  return {
    id: row.getAttribute('data-item-id'), ghost: row.classList.contains('rowmotion-ghost'), row: box(row), list: box(player.element.querySelector('.rowmotion-list')),
    parts: Array.from(row.children).map((span) => ({slot: span.getAttribute('data-slot'), field: span.getAttribute('data-field'),
      text: span.getAttribute('data-slot') === 'image' ? span.getAttribute('data-value') : span.textContent, shown: span.textContent,
      picture: !!span.querySelector('img'), box: box(span), clipped: span.scrollWidth > span.clientWidth + 1,
      align: getComputedStyle(span).textAlign, size: parseFloat(getComputedStyle(span).fontSize), color: getComputedStyle(span).color})),
  };
});
"""

SETTLE = """
const [index, step, done] = arguments;
window.Rowmotion.players[index].goTo(step).then(() => done(true), (error) => done(String(error)));
"""


def load(name):
    return yaml.safe_load((ROOT / "examples" / name).read_text())


def rows_of(step):
    return [row for section in step["sections"] for row in section["items"]]


def cells(driver, index=0):
    return driver.execute_script(CELLS, index)


def part(cell, slot):
    return next(p for p in cell["parts"] if p["slot"] == slot)


def settle(driver, step, index=0):
    assert driver.execute_async_script(SETTLE, index, step) is True


def test_subtitle_cells_show_the_name_over_the_preview_with_an_initial_tile_at_every_step(driver):
    """messenger.yml: `cell: {style: subtitle, title: name, subtitle: preview, image: name}`."""
    example = load("messenger.yml")
    assert example["cell"] == {"style": "subtitle", "title": "name", "subtitle": "preview", "image": "name"}
    driver.set_window_size(1280, 1000)
    driver.get((SITE / "examples" / "messenger.html").as_uri())
    for number, step in enumerate(example["steps"]):
        settle(driver, number)
        shown = cells(driver)
        expected = [[("image", "name", row["name"], row["name"][0].upper()), ("title", "name", row["name"], row["name"]),
                     ("subtitle", "preview", row["preview"], row["preview"])] for row in rows_of(step)]
        assert [[(p["slot"], p["field"], p["text"], p["shown"]) for p in cell["parts"]] for cell in shown] == expected, number
        for cell in shown:
            image, title, subtitle = part(cell, "image"), part(cell, "title"), part(cell, "subtitle")
            # The detail text is under the title, left-aligned with it, smaller and grey.
            assert subtitle["box"]["top"] >= title["box"]["bottom"] - 1, cell["id"]
            assert abs(subtitle["box"]["left"] - title["box"]["left"]) < 1, cell["id"]
            assert subtitle["size"] < title["size"] and subtitle["color"] != title["color"], cell["id"]
            # The image is a round tile before the text, centred on the cell.
            assert image["box"]["right"] <= title["box"]["left"], cell["id"]
            assert abs(image["box"]["width"] - image["box"]["height"]) < 1, cell["id"]
            assert abs((image["box"]["top"] + image["box"]["bottom"]) / 2 - (cell["row"]["top"] + cell["row"]["bottom"]) / 2) < 2, cell["id"]
            # Bookkeeping fields (version: updatedAt, moveHint: lastMessageAt) are not shown.
            assert {p["field"] for p in cell["parts"]} == {"name", "preview"}


def test_value1_cells_put_the_price_on_the_right_and_the_change_on_a_badge(driver):
    """stock-ticker.yml: `cell: {style: value1, title: symbol, detail: price, badge: change}`
    (price is the version field: shown because the cell names it)."""
    example = load("stock-ticker.yml")
    driver.set_window_size(1280, 1000)
    driver.get((SITE / "examples" / "stock-ticker.html").as_uri())
    settle(driver, 2)
    shown = cells(driver)
    assert not any(cell["ghost"] for cell in shown), "settled: no leaving copies"
    by_id = {row["id"]: row for row in rows_of(example["steps"][2])}
    assert [cell["id"] for cell in shown] == list(by_id)
    for cell in shown:
        row = by_id[cell["id"]]
        title, detail, badge = part(cell, "title"), part(cell, "detail"), part(cell, "badge")
        assert (title["text"], badge["text"]) == (row["symbol"], row["change"])
        assert float(detail["text"]) == float(row["price"])
        assert title["box"]["right"] < detail["box"]["left"] < detail["box"]["right"] <= badge["box"]["left"], cell["id"]
        assert detail["align"] == "right" and title["align"] in ("start", "left"), cell["id"]
        # Label, detail and badge share one line.
        centres = [(p["box"]["top"] + p["box"]["bottom"]) / 2 for p in (title, detail, badge)]
        assert max(centres) - min(centres) < 3, cell["id"]
        assert badge["box"]["right"] <= cell["row"]["right"]


def build(tmp_path, example, page="# Cells\n\n```rowmotion\nexample: cells.json\n```\n"):
    return build_site(tmp_path, "cells.json", example, page)


LONG = ("A preview long enough to need three lines at a phone's width, with a word like "
        "Donaudampfschifffahrtsgesellschaftskapitänsmütze that cannot be broken at a space")
PICTURE = "data:image/svg+xml;utf8,<svg xmlns='http://www.w3.org/2000/svg' width='8' height='8'><rect width='8' height='8' fill='teal'/></svg>"


@pytest.mark.parametrize("width", [1280, 390])
def test_long_text_is_shown_in_full_without_sideways_scrolling_and_the_script_draws_what_the_page_drew(driver, tmp_path, width):
    site = build(tmp_path, {
        "title": "Cells", "cell": {"style": "subtitle", "title": "name", "subtitle": "preview", "image": "avatar", "badge": "unread"},
        "steps": [
            {"items": [{"id": "a", "name": "Ann", "preview": LONG, "avatar": PICTURE, "unread": 3},
                       {"id": "b", "name": "Bob", "preview": "Short", "avatar": "🦊", "unread": 0},
                       {"id": "c", "name": "Cy", "preview": "Flag", "avatar": "cy", "unread": True}]},
            {"items": [{"id": "c", "name": "Cy", "preview": "Flag", "avatar": "cy", "unread": True},
                       {"id": "a", "name": "Ann", "preview": LONG + " (edited)", "avatar": PICTURE, "unread": 4}]},
        ]})
    driver.set_window_size(width, 900)
    driver.get((site / "examples" / "cells.html").as_uri())
    first = driver.execute_script("return Array.from(document.querySelectorAll('[data-item-id]')).map((row) => [row.getAttribute('data-item-id'), row.outerHTML])")
    player = driver.find_element(By.CSS_SELECTOR, "[data-rowmotion-player]")
    if width == 1280:
        assert player.size["width"] >= 600, "an example page gives its player room"
    for step in (1, 0):
        settle(driver, step)
        shown = cells(driver)
        list_box = driver.execute_script("const l = document.querySelector('.rowmotion-list'); return [l.scrollWidth, l.clientWidth]")
        assert list_box[0] <= list_box[1], f"the list scrolls sideways at {width} px"
        assert driver.execute_script("return document.documentElement.scrollWidth <= document.documentElement.clientWidth")
        for cell in shown:
            for p in cell["parts"]:
                assert not p["clipped"], (width, cell["id"], p["slot"])
                assert p["box"]["right"] <= cell["row"]["right"] + 0.5, (width, cell["id"], p["slot"])
    ann = next(cell for cell in cells(driver) if cell["id"] == "a")
    assert part(ann, "image")["picture"] and part(ann, "subtitle")["text"] == LONG
    assert part(ann, "subtitle")["box"]["height"] > 2 * part(ann, "title")["box"]["height"], "the long preview wraps instead of being cut"
    bob = next(cell for cell in cells(driver) if cell["id"] == "b")
    assert [p["slot"] for p in bob["parts"]] == ["image", "title", "subtitle"], "a badge of 0 is not shown"
    assert part(bob, "image")["shown"] == "🦊"
    cy = next(cell for cell in cells(driver) if cell["id"] == "c")
    assert part(cy, "badge")["shown"] == "" and part(cy, "badge")["box"]["width"] > 4, "true is a dot"
    # Back at the first snapshot, rows the script made again (Bob was
    # deleted and comes back) are the page's own first rows, byte for byte.
    again = dict(driver.execute_script("return Array.from(document.querySelectorAll('[data-item-id]')).map((row) => [row.getAttribute('data-item-id'), row.outerHTML])"))
    assert again["b"] == dict(first)["b"]
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    player.screenshot(str(SCREENSHOTS / f"cells-{width}.png"))


def test_value2_and_default_cells_and_cells_held_mid_step(driver, tmp_path):
    """value2 (Contacts): a small right-aligned title in a column, the detail
    beside it. Held half-way through a step, arriving, moving and leaving
    cells (the leaving copy too) keep their parts in place."""
    site = build(tmp_path, {
        "title": "Contact", "cell": {"style": "value2", "title": "label", "detail": "value"},
        "steps": [
            {"items": [{"id": "m", "label": "mobile", "value": "555-0100"}, {"id": "h", "label": "home", "value": "555-0111"},
                       {"id": "w", "label": "work", "value": "555-0199"}]},
            {"items": [{"id": "w", "label": "work", "value": "555-0199"}, {"id": "m", "label": "mobile", "value": "555-0100"},
                       {"id": "e", "label": "email", "value": "ann@example.com"}]},
        ]}, page="# Cells\n\n```rowmotion\nexample: cells.json\ncell: {style: default, title: value}\n```\n")
    driver.set_window_size(1280, 900)
    driver.get((site / "examples" / "cells.html").as_uri())
    for cell in cells(driver):
        title, detail = part(cell, "title"), part(cell, "detail")
        assert title["align"] == "right" and detail["align"] in ("left", "start")
        assert title["box"]["right"] <= detail["box"]["left"] and title["size"] < detail["size"]
    titles = {round(part(cell, "title")["box"]["width"]) for cell in cells(driver)}
    assert len(titles) == 1, "value2's titles are one column"

    driver.execute_script("window.Rowmotion.players[0].hold(0.5)")
    held = cells(driver)
    ghosts = [cell for cell in held if cell["ghost"]]
    assert len(ghosts) == 1, "home leaves, drawn by its copy"
    for cell in held:
        assert [p["slot"] for p in cell["parts"]] == ["title", "detail"], cell["id"]
        title, detail = part(cell, "title"), part(cell, "detail")
        assert title["box"]["right"] <= detail["box"]["left"] + 0.5, cell["id"]
        assert abs((title["box"]["top"] + title["box"]["bottom"]) / 2 - (detail["box"]["top"] + detail["box"]["bottom"]) / 2) < 4, cell["id"]
    assert part(ghosts[0], "detail")["text"] == "555-0111"

    # The page's block draws the same example with its own `cell:`: one label, no detail.
    driver.get((site / "index.html").as_uri())
    assert [[p["slot"] for p in cell["parts"]] for cell in cells(driver)] == [["title"]] * 3
    assert [part(cell, "title")["text"] for cell in cells(driver)] == ["555-0100", "555-0111", "555-0199"]


CONTRAST = """
const [scheme, done] = arguments;
function rgb(text) { const m = text.match(/[\\d.]+/g).map(Number); return m.length > 3 && m[3] === 0 ? null : m.slice(0, 3); }
function luminance(c) { const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
  return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]); }
function contrast(a, b) { const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); }
function background(el) { for (; el; el = el.parentElement) { const c = rgb(getComputedStyle(el).backgroundColor); if (c) return c; } return [255, 255, 255]; }
const check = document.querySelector('[data-item-id="a"] .cell-accessory');
const chevron = document.querySelector('[data-item-id="b"] .cell-accessory');
const field = document.querySelector('[data-item-id="a"] .cell-title');
field.setAttribute('data-changed', '');
const before = getComputedStyle(chevron, '::before');
done({scheme: scheme, dark: matchMedia('(prefers-color-scheme: dark)').matches,
      check: contrast(rgb(getComputedStyle(check).color), background(check)),
      outline: contrast(rgb(getComputedStyle(field).outlineColor), background(field)),
      chevronText: chevron.textContent, chevronFont: parseFloat(getComputedStyle(chevron).fontSize),
      chevronBorder: parseFloat(before.borderTopWidth), chevronRotated: before.transform !== 'none'});
"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_marks_that_carry_meaning_stand_out_from_the_cell_and_the_chevron_is_drawn(driver, tmp_path, scheme):
    """Issue 45, item 7: the changed field's outline was 2.06:1 against a
    white cell and the dark-mode checkmark 2.59:1 (WCAG 1.4.11 asks 3:1);
    the disclosure indicator was a "›" glyph, not iOS's chevron."""
    sequence = {"title": "Marks", "cell": {"style": "value1", "title": "name", "accessory": "done"},
                "steps": [{"items": [{"id": "a", "name": "Ann", "done": True}, {"id": "b", "name": "Bob", "done": "disclosureIndicator"}]},
                          {"items": [{"id": "a", "name": "Ann", "done": True}]}]}
    index = build_site(tmp_path, "marks.json", sequence, "# Marks\n\n```rowmotion\nexample: marks.json\n```\n") / "index.html"
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": scheme}]})
    try:
        driver.get(index.as_uri())
        seen = driver.execute_async_script(CONTRAST, scheme)
    finally:
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})
    assert seen["dark"] == (scheme == "dark"), seen
    assert seen["check"] >= 3 and seen["outline"] >= 3, seen
    assert seen["chevronFont"] == 0 and seen["chevronBorder"] >= 1.5 and seen["chevronRotated"], seen
