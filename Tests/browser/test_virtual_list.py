"""A 10,000-row list (issue 45, item 5): the 1,000-row page still had load
tasks of 51-309 ms, all style and layout of rows no one saw. As a table
view keeps cells only for the rows in its bounds, the player keeps
elements only for the rows in sight and a screen above and below; the
page's HTML holds the first rows, the rest are made as they scroll into
sight, each at its layout frame (rows not yet seen are as tall as rows of
the same content seen before, else as a typical row: a table view's
estimated height). What the DOM holds is asserted (it is the design); the
load's longest task is measured and reported against the same run's
490-row list (about the longest that keeps every row in the DOM), never
asserted."""
import json
import random

from chrome import new_browser
from conftest import build_site, record_figures
from virtual_walk import NEXT, SETTLE, longest_load_tasks, scroll_list, walk

ROWS = 10_000


def list_sequence(rows=ROWS, seed=45):
    rng = random.Random(seed)
    current = [{"id": f"r{i}", "title": f"Row {i}"} for i in range(rows)]
    steps = [{"label": "Ten thousand rows", "items": list(current)}]
    current.insert(0, {"id": "new", "title": "New"})
    steps.append({"label": "A row at the top", "items": list(current)})
    for _ in range(3):
        current.pop(rng.randrange(40))
    steps.append({"label": "Three deleted", "items": list(current)})
    current.insert(2, current.pop(25))
    steps.append({"label": "One moved up", "items": list(current)})
    # Changes in the middle, where the list is scrolled to for this step.
    middle = rows // 2
    current.insert(middle + 3, current.pop(middle - 5))
    del current[middle + 8]
    current.insert(middle, {"id": "mid", "title": "Middle"})
    steps.append({"label": "The middle changes", "items": list(current)})
    return {"title": "Ten thousand rows", "steps": steps}


DOM = """
const p = window.Rowmotion.players[0], list = p.element.querySelector('.rowmotion-list');
const content = p.element.querySelector('.rowmotion-content').getBoundingClientRect();
const items = Array.from(p.element.querySelectorAll('[data-item-id]')).map((el) => {
  const box = el.getBoundingClientRect();
  return {id: el.getAttribute('data-item-id'), y: box.top - content.top, h: box.height, text: el.textContent};
});
return {items, state: p.state(), scrollTop: list.scrollTop, screen: list.clientHeight, total: list.scrollHeight};
"""


def dom_problems(snap, ids, label):
    """The elements are the rows in sight and a screen above and below,
    each at its place in the list (rows of one height), in index order."""
    problems = []
    if not snap["items"]:
        return [f"{label}: no row in the DOM"]
    h = snap["items"][0]["h"]
    index = {item: k for k, item in enumerate(ids)}
    shown = [row["id"] for row in snap["items"]]
    if any(i not in index for i in shown):
        return [f"{label}: rows not in the snapshot: {[i for i in shown if i not in index][:3]}"]
    if shown != sorted(shown, key=lambda i: index[i]):
        problems.append(f"{label}: the elements are not in index order")
    for row in snap["items"]:
        if abs(row["y"] - index[row["id"]] * h) > 1 or abs(row["h"] - h) > 0.5:
            problems.append(f"{label}: {row['id']} (row {index[row['id']]}) at {row['y']:.1f} ({row['h']:.1f} tall), its place is {index[row['id']] * h:.1f}")
            break
    low, high = snap["scrollTop"] - snap["screen"], snap["scrollTop"] + 2 * snap["screen"]
    wanted = {i for i, k in index.items() if k * h + h > low and k * h < high}
    if set(shown) != wanted:
        problems.append(f"{label}: {len(shown)} elements, the rows in sight and a screen around are {len(wanted)}")
    if abs(snap["total"] - max(len(ids) * h, snap["screen"])) > 1:
        problems.append(f"{label}: the list scrolls {snap['total']:.0f} px for {len(ids)} rows of {h:.1f} px")
    return problems


def test_a_10000_row_list_keeps_only_the_rows_in_sight_in_the_dom(tmp_path):
    sequence = list_sequence()
    site = build_site(tmp_path, "rows.json", sequence, "# Rows\n\n```rowmotion\nexample: rows.json\n```\n")
    page = site / "examples" / "rows.html"
    html = page.read_text()
    assert html.count("data-item-id=") <= 60, "the page's HTML holds the list's first rows only"
    snapshots = [[row["id"] for row in step["items"]] for step in sequence["steps"]]
    browser = new_browser(window_size="1280,1000")

    def to_the_middle(browser, step, snap):
        # Scrolled to the middle's changes before they play.
        if step == len(snapshots) - 1:
            scroll_list(browser, (ROWS // 2 - 6) * snap["items"][0]["h"])
    try:
        problems, snap = walk(browser, page, snapshots, DOM, dom_problems, before_step=to_the_middle, held_from=3)
    finally:
        browser.quit()

    longest = longest_load_tasks(page)
    # The baseline, in the same run: 490 rows (491 at most), every one in the DOM.
    small = list_sequence(490)
    small_page = build_site(tmp_path / "small", "rows.json", small, "# Rows\n\n```rowmotion\nexample: rows.json\n```\n") / "examples" / "rows.html"
    assert small_page.read_text().count("data-item-id=") == 490, "a 490-row list keeps its rows in the page"
    small_longest = longest_load_tasks(small_page)
    median, small_median = longest[len(longest) // 2], small_longest[len(small_longest) // 2]
    record_figures("list_10000", {"elements_in_dom": len(snap["items"]), "page_bytes": len(html.encode()),
                                  "median_longest_load_task_ms": median, "list_490_median_longest_load_task_ms": small_median})
    print(f"rows               | page bytes | elements | longest load task (median of 3)\n"
          f"10,000 (virtual)   | {len(html.encode()):10} | {len(snap['items']):8} | {median} ms\n"
          f"490 (all in DOM)   | {small_page.stat().st_size:10} | {490:8} | {small_median} ms")
    assert problems == [], "\n".join(problems[:20])


def test_a_long_inset_grouped_lists_rows_keep_the_inset_and_the_cards_ends(tmp_path):
    """A virtual list's rows are placed by the script, not by the flow: in
    an insetGrouped list they kept the full width (drawn 16 px past the
    card's right edge), and the last element of a section, not its last
    row, would round the card's corners. Each row sits 16 px inside the
    list on both sides; only a section's real first and last rows are
    rounded, and its last has no separator."""
    sections = [{"id": f"s{s}", "header": f"Section {s}", "items": [{"id": f"r{s}-{i}", "title": f"Row {s}.{i}", "detail": str(i)} for i in range(300)]}
                for s in range(3)]
    # Then a row at the top of section 0 and its last row deleted: held mid-way, the corners are the new ends'.
    changed = json.loads(json.dumps(sections))
    changed[0]["items"].insert(0, {"id": "top", "title": "Top", "detail": "!"})
    del changed[0]["items"][-1]
    sequence = {"title": "Grouped", "style": "insetGrouped", "cell": {"style": "value1", "title": "title", "detail": "detail"},
                "steps": [{"sections": sections}, {"sections": changed}]}
    page = build_site(tmp_path, "grouped.json", sequence, "# Grouped\n\n```rowmotion\nexample: grouped.json\n```\n") / "examples" / "grouped.html"
    browser = new_browser(window_size="1280,1000")
    try:
        browser.get(page.as_uri())
        height = browser.execute_script("return document.querySelector('[data-item-id]').getBoundingClientRect().height")
        # Scrolled to where section 0 ends and section 1 starts.
        scroll_list(browser, 300 * height - 200)
        rows = browser.execute_script("""
            const list = document.querySelector('.rowmotion-list').getBoundingClientRect();
            return Array.from(document.querySelectorAll('[data-item-id]')).map((el) => {
              const box = el.getBoundingClientRect(), style = getComputedStyle(el);
              return {id: el.getAttribute('data-item-id'), left: box.left - list.left, right: list.right - box.right,
                      top: style.borderTopLeftRadius, bottom: style.borderBottomLeftRadius,
                      inset: style.getPropertyValue('--separator-inset').trim(), virtual: el.parentElement.hasAttribute('data-virtual')};});""")
        scroll_list(browser, 0)
        browser.execute_script("window.Rowmotion.players[0].hold(0.5)")
        corners = browser.execute_script("""
            const radius = (id) => { const el = document.querySelector('.rowmotion-section > [data-item-id="' + id + '"]');
                                     return el ? getComputedStyle(el).borderTopLeftRadius : null; };
            return {top: radius('top'), r00: radius('r0-0')};""")
    finally:
        browser.quit()
    assert corners == {"top": "10px", "r00": "0px"}, f"held mid-way, the section's new first row is not the rounded one: {corners}"
    assert rows and all(row["virtual"] for row in rows), "the list is not virtual"
    ids = [row["id"] for row in rows]
    assert "r0-299" in ids and "r1-0" in ids, ids
    for row in rows:
        assert abs(row["left"] - 16) <= 0.5 and abs(row["right"] - 16) <= 0.5, row
        first, last = row["id"].endswith("-0"), row["id"].endswith("-299")
        assert (row["top"] == "10px") == first and (row["bottom"] == "10px") == last, row
        assert (row["inset"] == "100%") == last, row


TILE = """
const list = document.querySelector('.rowmotion-list'), box = list.getBoundingClientRect();
const rows = Array.from(document.querySelectorAll('.rowmotion-section > [data-item-id]')).map((el) => {
  const r = el.getBoundingClientRect();
  return {id: el.getAttribute('data-item-id'), section: el.parentElement.getAttribute('data-section-id'), top: r.top - box.top, bottom: r.bottom - box.top};
});
return {rows, scrollTop: list.scrollTop, state: window.Rowmotion.players[0].state()};
"""


def tiling_problems(snap, label):
    """Rows of a section next to each other in the snapshot sit edge to
    edge: none covers another or leaves a gap (each as tall as its content)."""
    problems = []
    order = {(s["id"], item): k for s in snap["state"] for k, item in enumerate(s["items"])}
    rows = snap["rows"]
    for a, b in zip(rows, rows[1:]):
        if a["section"] == b["section"] and order[(b["section"], b["id"])] == order[(a["section"], a["id"])] + 1 and abs(b["top"] - a["bottom"]) > 0.5:
            problems.append(f"{label}: {b['id']} starts {b['top'] - a['bottom']:+.1f} px from the end of {a['id']}")
    return problems


def test_a_long_lists_rows_of_any_height_tile_and_stay_put_while_estimates_are_corrected(tmp_path):
    """An independent review of the virtual list found rows of varied
    heights drawn at their estimates: text cut off or covered by the next
    row, a reloaded or inserted row cut to its old height, rows measured
    at another width after a resize, rows snapping when a batch ended, and
    what was in sight jumping by up to 232 px while scrolling as rows
    above it were measured. Rows made here tile whatever their content
    (seeded), a scroll moves what is in sight by the scroll alone, and a
    batch ends where its rows settle."""
    seed = 4505
    print(f"seed {seed}")
    rng = random.Random(seed)
    words = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta"]

    def row(k):
        return {"id": f"r{k}", "title": f"Row {k}", "subtitle": " ".join(rng.choice(words) for _ in range(rng.choice([1, 3, 12, 30, 60]))), "image": "🍎"}
    sections = [{"id": f"s{s}", "header": f"Section {s}", "items": [row(s * 1000 + k) for k in range(250)]} for s in range(3)]
    changed = json.loads(json.dumps(sections))
    changed[0]["items"][3]["subtitle"] = "reloaded and much longer " * 12
    changed[0]["items"].insert(5, {"id": "tall", "title": "Tall", "subtitle": "new " * 80, "image": "🍐"})
    far = json.loads(json.dumps(changed))
    far[1]["items"][120]["subtitle"] = "far away and longer " * 15
    far[1]["items"].insert(125, {"id": "tall2", "title": "Tall too", "subtitle": "new " * 90, "image": "🍋"})
    sequence = {"title": "Varied", "cell": {"style": "subtitle", "title": "title", "subtitle": "subtitle", "image": "image"},
                "steps": [{"sections": sections}, {"sections": changed}, {"sections": far}]}
    page = build_site(tmp_path, "varied.json", sequence, "# Varied\n\n```rowmotion\nexample: varied.json\n```\n") / "examples" / "varied.html"
    browser = new_browser(window_size="1280,1000")
    problems = []
    try:
        browser.get(page.as_uri())
        assert browser.execute_script("return !!document.querySelector('[data-virtual]')"), "the list is not virtual"
        problems += tiling_problems(browser.execute_script(TILE), "loaded")
        # Scrolled down and back up 150 px at a time: what is in sight moves by the scroll alone.
        for start, delta in ((4500, 150), (20000, -150)):
            scroll_list(browser, start)
            for _ in range(12):
                before = browser.execute_script(TILE)
                if before["scrollTop"] + delta < 0:
                    break
                scroll_list(browser, before["scrollTop"] + delta)
                after = browser.execute_script(TILE)
                tops = {row["id"]: row["top"] for row in after["rows"]}
                seen = [row for row in before["rows"] if 0 <= row["top"] < 400 and row["id"] in tops]
                if seen and abs(tops[seen[0]["id"]] - (seen[0]["top"] - delta)) > 1:
                    problems.append(f"scrolled by {delta} from {before['scrollTop']:.0f}: {seen[0]['id']} moved "
                                    f"{tops[seen[0]['id']] - seen[0]['top']:+.1f} px on screen")
                problems += tiling_problems(after, f"scrolled to {after['scrollTop']:.0f}")
        scroll_list(browser, 0)
        # A step in sight (a reload to longer text, a tall insert), then one far away the batch scrolls to;
        # held at its end, every row is where it settles.
        for step in (1, 2):
            browser.execute_script("window.Rowmotion.players[0].hold(1)")
            browser.execute_async_script(SETTLE)
            # (Where in the content: the step played again after the hold starts where the hold scrolled.)
            snap = browser.execute_script(TILE)
            held = {row["id"]: row["top"] + snap["scrollTop"] for row in snap["rows"]}
            browser.execute_async_script(NEXT)
            settled = browser.execute_script(TILE)
            problems += tiling_problems(settled, f"step {step}")
            for row in settled["rows"]:
                y = row["top"] + settled["scrollTop"]
                if row["id"] in held and abs(held[row["id"]] - y) > 1 and 0 <= row["top"] < 600:
                    problems.append(f"step {step}: {row['id']} held at the batch's end at {held[row['id']]:.1f}, settled at {y:.1f}")
                    break
        # At a phone's width, rows measured at the new width.
        browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": False})
        browser.execute_async_script(SETTLE)
        problems += tiling_problems(browser.execute_script(TILE), "at 390 px")
        scroll_list(browser, 3000)
        problems += tiling_problems(browser.execute_script(TILE), "at 390 px, scrolled")
    finally:
        browser.quit()
    assert problems == [], "\n".join(problems[:20])
