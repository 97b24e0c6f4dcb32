"""A 10,000-item grid (issue 43, item 8): as a collection view keeps cells
only for the items in its bounds, the player keeps elements only for the
items in sight and a screen above and below; the page's HTML holds its
first items, the rest come as they scroll into sight. What the DOM holds is
asserted (it is the design); the load's longest task and the frame rate of
a played step are measured and reported, never asserted (a shared 2-core
machine is not a timer)."""
import json
import random

from chrome import new_browser
from conftest import build_site, record_figures
from virtual_walk import longest_load_tasks, walk

COLUMNS, SPACING, ITEMS = 4, 8, 10_000


def grid_sequence(seed=43):
    rng = random.Random(seed)
    items = [{"id": f"p{i}", "emoji": "📷", "place": f"Photo {i}"} for i in range(ITEMS)]
    current = list(items)
    steps = [{"label": "Library", "items": list(current)}]
    current.insert(0, {"id": "new", "emoji": "🌅", "place": "New"})
    steps.append({"label": "A new photo at the top", "items": list(current)})
    for _ in range(3):
        current.pop(rng.randrange(40))
    steps.append({"label": "Three deleted", "items": list(current)})
    current.insert(2, current.pop(25))
    steps.append({"label": "One moved up", "items": list(current)})
    return {"title": "Ten thousand photos", "layout": "grid", "columns": COLUMNS, "spacing": SPACING,
            "cell": {"image": "emoji", "title": "place"}, "steps": steps}


DOM = """
const p = window.Rowmotion.players[0], list = p.element.querySelector('.rowmotion-list');
const content = p.element.querySelector('.rowmotion-content').getBoundingClientRect();
const items = Array.from(p.element.querySelectorAll('[data-item-id]')).map((el) => {
  const box = el.getBoundingClientRect();
  return {id: el.getAttribute('data-item-id'), x: box.left - content.left, y: box.top - content.top, w: box.width, h: box.height};
});
const section = p.element.querySelector('[data-section-id]');
const header = section.querySelector('.rowmotion-header');
return {items, state: p.state(), scrollTop: list.scrollTop, screen: list.clientHeight, width: content.width,
        top: section.getBoundingClientRect().top - content.top + (header ? header.getBoundingClientRect().height : 0)};
"""


def dom_problems(snap, ids, label):
    """The elements are the items in sight (and a screen above and below),
    each at the flow layout's frame for its index, in index order."""
    problems = []
    w = (snap["width"] - 2 * SPACING - (COLUMNS - 1) * SPACING) / COLUMNS
    index = {item: k for k, item in enumerate(ids)}
    low, high = snap["scrollTop"] - snap["screen"], snap["scrollTop"] + 2 * snap["screen"]
    shown = [item["id"] for item in snap["items"]]
    if shown != sorted(shown, key=lambda i: index[i]):
        problems.append(f"{label}: the elements are not in index order")
    for item in snap["items"]:
        k = index[item["id"]]
        x, y = SPACING + (k % COLUMNS) * (w + SPACING), snap["top"] + SPACING + (k // COLUMNS) * (w + SPACING)
        if abs(item["x"] - x) > 1 or abs(item["y"] - y) > 1 or abs(item["w"] - w) > 1:
            problems.append(f"{label}: {item['id']} (item {k}) at {item['x']:.1f},{item['y']:.1f} ({item['w']:.1f}), layout {x:.1f},{y:.1f} ({w:.1f})")
            break
    wanted = [i for i, k in index.items() if (snap["top"] + SPACING + (k // COLUMNS) * (w + SPACING) + w > low
                                               and snap["top"] + SPACING + (k // COLUMNS) * (w + SPACING) < high)]
    if set(shown) != set(wanted):
        problems.append(f"{label}: {len(shown)} elements, the items in sight and a screen around are {len(wanted)} "
                        f"(missing {sorted(set(wanted) - set(shown), key=lambda i: index[i])[:3]}, extra {sorted(set(shown) - set(wanted), key=lambda i: index[i])[:3]})")
    return problems


def test_a_10000_item_grid_keeps_only_the_items_in_sight_in_the_dom(tmp_path):
    sequence = grid_sequence()
    site = build_site(tmp_path, "photos.json", sequence, "# Photos\n\n```rowmotion\nexample: photos.json\n```\n")
    page = site / "examples" / "photos.html"
    html = page.read_text()
    assert html.count("data-item-id=") <= 60, "the page's HTML holds the grid's first items only"
    snapshots = [[row["id"] for row in step["items"]] for step in sequence["steps"]]
    browser = new_browser(window_size="1280,1000")
    try:
        problems, snap = walk(browser, page, snapshots, DOM, dom_problems)
        # The frame rate of a played step (reported).
        fps = browser.execute_async_script("""
            const done = arguments[0], p = window.Rowmotion.players[0];
            p.goTo(0).then(() => {
              let frames = 0, running = true;
              const count = () => { frames += 1; if (running) requestAnimationFrame(count); };
              const start = performance.now();
              requestAnimationFrame(count);
              p.next().then(() => { running = false; done(frames / ((performance.now() - start) / 1000)); });
            });""")
    finally:
        browser.quit()
    longest = longest_load_tasks(page)
    # Beside it, in the same run: the same items as a table view's list (virtual too, test_virtual_list.py).
    as_list = {key: value for key, value in sequence.items() if key not in ("layout", "columns", "spacing")}
    list_page = build_site(tmp_path / "list", "photos.json", as_list, "# Photos\n\n```rowmotion\nexample: photos.json\n```\n") / "examples" / "photos.html"
    list_longest = longest_load_tasks(list_page)
    median, list_median = longest[len(longest) // 2], list_longest[len(list_longest) // 2]
    record_figures("grid_10000", {"elements_in_dom": len(snap["items"]), "page_bytes": len(html.encode()),
                                  "median_longest_load_task_ms": median, "frames_per_second_playing": round(fps, 1),
                                  "list_10000_page_bytes": list_page.stat().st_size, "list_10000_median_longest_load_task_ms": list_median,
                                  "list_over_grid_load_task": round(list_median / max(median, 0.1), 1)})
    print(f"10,000 items      | page bytes | elements | longest load task (median of 3)\n"
          f"grid (virtual)    | {len(html.encode()):10} | {len(snap['items']):8} | {median} ms\n"
          f"list (virtual)    | {list_page.stat().st_size:10} | {'':8} | {list_median} ms\n"
          f"ratio list/grid: {list_median / max(median, 0.1):.1f}; {fps:.1f} frames per second playing the grid")
    assert problems == [], "\n".join(problems[:20])
