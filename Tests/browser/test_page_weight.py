"""Page weight: the theme's script and stylesheet, a page's bytes against its
changes, no row rendered twice, and the work at the start of a step on big
lists. Figures go to .build/browser-report.json before anything is asserted,
so the same file measures an older binary (ROWMOTION_BINARY=…) for a
before/after table; times are reported, never asserted."""
import gzip
import json
import random
import re
import subprocess

import pytest

from conftest import BINARY, ROOT, SITE, record_figures

def test_theme_js_and_css_are_under_38_kb_gzipped():
    # 12 KB until issue 14 added the timeline model, scrubbing and the review
    # controls; 20 KB until the gaps that arriving and leaving cells keep to;
    # 22 KB until issue 17's search box, navigation tree and Swift colours
    # (23.3 KB then); 24 KB until issue 18's cells (styles, image tiles,
    # badges) and the controls' SVG glyphs (24.6 KB with cells alone); 26 KB
    # until issue 29's keyboard (roving timeline, arrows from every button),
    # the scrubber's words and reduced motion's deletion marks (26.4 KB); 28 KB
    # until issue 29's device look (table styles, pinned headers, accessories,
    # the scroll indicator), the change scrolled into sight and spring timing
    # (30.7 KB); 32 KB until issue 29's held index-path labels and the links
    # between calls and rows (32.5 KB). About 4.6 KB of it was the script's
    # comments, which issue 31's bundling of templates/script/ leaves out.
    # What is measured is what pages load: the built site's assets.
    assert (SITE / "assets").is_dir(), f"no {SITE}: `make test` builds it before the browser tests"
    shipped = sorted((SITE / "assets").glob("rowmotion.*.js")) + sorted((SITE / "assets").glob("rowmotion.*.css"))
    assert len(shipped) == 2, shipped
    total = sum(len(gzip.compress(path.read_bytes(), compresslevel=9)) for path in shipped)
    print(f"theme script and styles: {total} bytes gzipped")
    # 26.1 KB once bundled without comment lines (issue 31): 28 KB until
    # issue 43's collection views (layouts in two dimensions, grids,
    # orthogonal lines, data tables with their crossfading cells, scroll
    # anchoring, skipping animation, virtual grids: 32.4 KB): 34 KB until
    # issue 45's phone-width player (headers pinned through a batch, the
    # comparison's pane switch, a drawn chevron, marks at 3:1 in both
    # schemes, reduced motion's held height, labels apart, step summaries
    # and ordinals: 34.0 KB): 36 KB until issue 45's steady list frame, the
    # narration's fold and virtual lists with measured estimates (36.1 KB):
    # 38 KB now.
    assert total < 38 * 1024, f"{total} bytes gzipped"


def sequence(rows, steps, changes, seed):
    """`rows` rows with a title and a detail; each step deletes, inserts,
    moves and edits `changes` rows each, at random places (seeded)."""
    rng = random.Random(seed)
    serial = 0

    def row(number, edit=0):
        return {"id": f"r{number}", "title": f"Row {number}", "detail": f"detail of row {number}, edit {edit}"}

    current = [row(n) for n in range(rows)]
    serial = rows
    snapshots = [{"label": "Initial", "items": list(current)}]
    for step in range(1, steps + 1):
        for _ in range(changes):
            current.pop(rng.randrange(len(current)))
        for _ in range(changes):
            current.insert(rng.randrange(len(current) + 1), row(serial))
            serial += 1
        for _ in range(changes):
            moving = current.pop(rng.randrange(len(current)))
            current.insert(rng.randrange(len(current) + 1), moving)
        for _ in range(changes):
            k = rng.randrange(len(current))
            current[k] = dict(current[k], detail=current[k]["detail"] + "'")
        snapshots.append({"label": f"Update {step}", "items": list(current)})
    return {"title": f"{rows:,} rows, {steps} steps", "animation": "fade", "steps": snapshots}


def build(tmp_path, name, document):
    """Builds a site whose only example is `document`; returns its page."""
    folder = tmp_path / name
    (folder / "site").mkdir(parents=True)
    (folder / "examples").mkdir()
    (folder / "examples" / f"{name}.json").write_text(json.dumps(document))
    (folder / "site" / "index.md").write_text("# Weight\n")
    subprocess.run([str(BINARY), "build", "--site", "site", "--examples", "examples", "--out", "_site"],
                   cwd=folder, check=True, capture_output=True)
    return folder / "_site" / "examples" / f"{name}.html"


def data_of(html):
    match = re.search(r'<script type="application/json" class="rowmotion-data">(.*?)</script>', html, re.S)
    return json.loads(match.group(1))


# Collects every element carrying data-item-id that enters the document
# from the moment it starts parsing until the player is ready: the rows the
# page's HTML brings, and any a player builds again.
COUNT_ROWS = """
window.__rows = new Set();
new MutationObserver((records) => {
  for (const record of records) for (const node of record.addedNodes) {
    if (node.nodeType !== 1) continue;
    if (node.hasAttribute('data-item-id')) window.__rows.add(node);
    node.querySelectorAll('[data-item-id]').forEach((row) => window.__rows.add(row));
  }
}).observe(document, {childList: true, subtree: true});
"""


# Steps through `count` steps, each a fresh `next()` from a settled state,
# and reports per step the longest task the browser saw (Long Tasks API)
# and the time from the call to the step's first drawn frame.
STEP_TIMES = """
const [count, done] = arguments;
const player = window.Rowmotion.players[0];
let window_ = null;
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) if (window_) window_.longest = Math.max(window_.longest, entry.duration);
}).observe({type: 'longtask'});
const results = [];
(async () => {
  for (let k = 0; k < count; k++) {
    window_ = {longest: 0};
    const start = performance.now();
    let firstFrame = null;
    const finished = player.next();
    requestAnimationFrame(() => requestAnimationFrame(() => { firstFrame = performance.now() - start; }));
    await finished;
    await new Promise((resolve) => setTimeout(resolve, 50));
    results.push({longTask: window_.longest, firstFrame: firstFrame});
  }
  done(results);
})();
"""


def measure_steps(driver, page, count):
    driver.execute_cdp_cmd("Page.enable", {})
    script = driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": COUNT_ROWS})
    try:
        driver.get(page.as_uri())
        driver.execute_script("return window.Rowmotion.players.length")
        parsed_rows = driver.execute_script("return window.__rows.size")
        steps = driver.execute_async_script(STEP_TIMES, count)
    finally:
        driver.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", {"identifier": script["identifier"]})
    return parsed_rows, steps


def summary(steps):
    long_tasks = sorted(s["longTask"] for s in steps)
    frames = sorted(s["firstFrame"] for s in steps if s["firstFrame"] is not None)
    return {"median_long_task_ms": round(long_tasks[len(long_tasks) // 2], 1), "max_long_task_ms": round(long_tasks[-1], 1),
            "median_first_frame_ms": round(frames[len(frames) // 2], 1), "max_first_frame_ms": round(frames[-1], 1)}


def test_5000_by_50_page_holds_each_row_once_and_weighs_its_changes(driver, tmp_path):
    """The 5,000-row, 50-step page against the same list with 5 steps: the
    45 extra steps add their changes' bytes, never another copy of the list;
    the rows of the first snapshot are in the page once and the player
    adopts them instead of building them again."""
    long_page = build(tmp_path, "long", sequence(5000, 50, 10, seed=50))
    short_page = build(tmp_path, "short", sequence(5000, 5, 10, seed=50))
    html = long_page.read_text()
    data = data_of(html)
    long_bytes, short_bytes = len(html.encode()), len(short_page.read_bytes())
    parsed_rows, steps = measure_steps(driver, long_page, 10)
    per_step = (long_bytes - short_bytes) / 45
    figures = {"page_bytes": long_bytes, "page_gzip_bytes": len(gzip.compress(html.encode(), 9)),
               "data_bytes": len(json.dumps(data)), "bytes_per_extra_step": round(per_step),
               "rows_added_while_loading": parsed_rows, **summary(steps)}
    record_figures("page_5000x50", figures)
    # 40 changes a step: their calls, counts and delta, well under a copy of
    # 5,000 rows (about 500 KB of HTML).
    assert per_step < 20_000, figures
    # A long list is virtual (issue 45, item 5): the page's HTML holds its
    # first rows, the data the first snapshot, once; the player makes only
    # the rows in sight and a screen below.
    assert html.count("data-item-id=") <= 60, "the page's HTML holds more than the list's first rows"
    assert html.count('data-item-id="r17"') <= 1, "row r17 is written into the page more than once"
    assert len(data["initial"][0]["items"]) == 5000, "the data's first snapshot is not the list's 5,000 rows"
    assert parsed_rows <= 60, f"{parsed_rows} row elements were added while loading 5,000 rows: the player made rows out of sight"


def test_large_list_step_start_is_reported(driver):
    """The 1,000-row example's step starts, reported (issue 14 asks for the
    long task under 50 ms; a shared 2-core machine is not a timer)."""
    page = ROOT / ".build" / "strict-site" / "examples" / "large-list.html"
    if not page.exists():
        pytest.skip("build the strict site first (make test does)")
    parsed_rows, steps = measure_steps(driver, page, 10)
    record_figures("large_list_step_start", {"rows_added_while_loading": parsed_rows, **summary(steps)})
    assert parsed_rows <= 60, f"{parsed_rows} row elements were added while loading 1,000 rows: the player made rows out of sight"


def traced_load(page, loads=5):
    """Loads `page` `loads` times in a browser that records Chrome's trace
    and returns, per load, the renderer main thread's events."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from chrome import paths
    binary, chromedriver = paths()
    options = webdriver.ChromeOptions()
    options.binary_location = binary
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1280,1000"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"performance": "ALL"})
    options.add_experimental_option("perfLoggingPrefs", {"traceCategories": "toplevel,devtools.timeline", "enableNetwork": False, "enablePage": False})
    browser = webdriver.Chrome(service=Service(chromedriver), options=options)
    runs = []
    try:
        for _ in range(loads):
            browser.get("about:blank")
            browser.get_log("performance")
            browser.get(page.as_uri())
            browser.execute_async_script("const done = arguments[0]; setTimeout(done, 1200)")
            browser.get("about:blank")
            trace = [m["params"] for m in (json.loads(e["message"])["message"] for e in browser.get_log("performance"))
                     if m.get("method") == "Tracing.dataCollected"]
            main = next(t["tid"] for t in trace if t.get("name") == "ParseHTML")
            runs.append([t for t in trace if t.get("tid") == main and t.get("ph") == "X"])
    finally:
        browser.quit()
    return runs


def test_the_1000_row_page_loads_without_laying_its_rows_out_twice():
    """Issue 29, item 7: the 1,000-row page spent its longest load task in
    the player's script, which laid every row out to measure it (and had
    moved every row into new boxes first, so the browser laid them out
    again). Now the page's HTML has the list's boxes, the script writes
    and reads no geometry while it starts, and the rows are measured after
    the first frame: no layout inside the script, one layout of the rows in
    all. The longest task is reported (median of 5 loads, after one to warm
    up), not asserted."""
    page = ROOT / ".build" / "strict-site" / "examples" / "large-list.html"
    if not page.exists():
        pytest.skip("build the strict site first (make test does)")
    runs = traced_load(page, 6)[1:]
    longest, problems = [], []
    for k, events in enumerate(runs):
        tasks = [e for e in events if e["name"] == "ThreadControllerImpl::RunTask"]
        longest.append(round(max(t["dur"] for t in tasks) / 1000, 1))
        scripts = [e for e in events if e["name"] == "EvaluateScript" and "rowmotion." in json.dumps(e.get("args", {}))]
        if not scripts:
            problems.append(f"load {k}: the player's script was not seen in the trace")
        for script in scripts:
            start, end = script["ts"], script["ts"] + script["dur"]
            inside = [e for e in events if e["name"] == "Layout" and start <= e["ts"] < end]
            if inside:
                objects = max(e.get("args", {}).get("beginData", {}).get("totalObjects", 0) for e in inside)
                problems.append(f"load {k}: the player's script laid the page out ({objects} layout objects)")
        # Every layout object laid out once, whichever frames the browser
        # splits the work into (a frame of the half-parsed page, then the
        # rest), and not all again when the script starts.
        layouts = [e.get("args", {}).get("beginData", {}) for e in events if e["name"] == "Layout"]
        dirty, total = sum(b.get("dirtyObjects", 0) for b in layouts), max(b.get("totalObjects", 0) for b in layouts)
        if dirty > 1.5 * total:
            problems.append(f"load {k}: {dirty} objects laid out for a page of {total}")
    longest.sort()
    record_figures("large_list_load", {"median_longest_task_ms": longest[len(longest) // 2], "max_longest_task_ms": longest[-1]})
    assert problems == [], "\n".join(problems)
