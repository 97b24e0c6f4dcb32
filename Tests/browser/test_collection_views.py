"""Collection views (`layout: grid`, a section's `layout: orthogonal`, `layout:
table`), checked independently of the player's code: every expectation here
comes from the public contract (DESIGN.md) and from how UIKit documents
UICollectionView, never from the scripts that draw the page.

- The settled DOM is every snapshot, reached forward, backward and by seeded
  random jumps (`state()` and the DOM order of the items).
- Settled geometry is the layout's: a flow layout's tiles (`columns` to a
  line, `spacing` between items, between lines and as the section's insets,
  the first line `spacing` under the header as sectionInset.top puts it), an
  orthogonal line (one top, a constant pitch of width + spacing), a data
  table (a column per field, in order, under its title).
- Held at 25, 50 and 75 % of a step's first batch, frames are UIKit's:
  `initialLayoutAttributesForAppearingItem(at:)` and
  `finalLayoutAttributesForDisappearingItem(at:)` default to the item's own
  final / initial attributes with alpha 0, so an inserted item fades in at its
  final frame and a deleted one fades out at its initial frame; a moved or
  reflowed item interpolates its frame (a straight line between the centres,
  inside the box spanned by the two frames); supplementary views (headers,
  footers) are drawn above the items.
- A grid's reload is `reconfigureItems` (the cell is kept, no leaving copy);
  a data table's field change crossfades that one cell.

Frames are compared in the collection view's content coordinates: a box is
taken relative to `.rowmotion-content`, and an item of an orthogonal section
(a line that scrolls sideways inside its section) is shifted by that
section's `scrollLeft`, as UIKit's frames live in the content of the
orthogonal scroll view. A leaving copy of such an item is shifted the same way
(it stands for the item at its frame in that line).

Random choices come from random.Random(SEED); the seed is printed and named
in every assertion message (ROWMOTION_COLLECTION_SEED overrides it)."""
import json
import os
import random
import subprocess

import pytest
import yaml

from chrome import new_browser
from conftest import BINARY, ROOT, SITE

SEED = int(os.environ.get("ROWMOTION_COLLECTION_SEED", "20260443"))
EXAMPLES = ["photo-grid", "app-store", "task-data-table"]
WIDTHS = [390, 1280]
FRACTIONS = [0.25, 0.5, 0.75]
TOLERANCE = 1.0          # px, a settled or held box
GLIDE_TOLERANCE = 2.0    # px, a centre's distance from its straight path
DEFAULT_SPACING = 8      # DESIGN.md: `spacing` defaults to 8


# ---------------------------------------------------------------- the contract

def sequence(name):
    """The sequence file, read with PyYAML (not with the player)."""
    return yaml.safe_load((ROOT / "examples" / f"{name}.yml").read_text())


def diff_json(name):
    # In a collection view's words (`--flavor collection`); without it the JSON keeps the table view's keys.
    out = subprocess.run([str(BINARY), "diff", f"examples/{name}.yml", "--format", "json", "--flavor", "collection"],
                         cwd=ROOT, capture_output=True, text=True, check=True).stdout
    return json.loads(out)


class Expected:
    """What the contract says about one example: its snapshots (section ids
    and item ids), each section's layout, `columns`, `spacing`, `fields`,
    `titles`."""

    def __init__(self, name):
        self.name = name
        self.data = sequence(name)
        self.diff = diff_json(name)
        self.layout = self.data.get("layout", "list")
        self.columns = self.data.get("columns")
        self.spacing = self.data.get("spacing", DEFAULT_SPACING)
        self.fields = self.data.get("fields")
        self.titles = self.data.get("titles", {})
        # A section's layout and columns: its own where it says (and kept
        # for that section afterwards), else the sequence's.
        self.section_layout, self.section_columns = {}, {}
        lone_id = None
        for batch_step in self.diff["steps"]:
            for batch in batch_step["batches"]:
                if len(batch["after"]) == 1:
                    lone_id = batch["after"][0]["id"]
        self.snapshots = []
        for step in self.data["steps"]:
            if "sections" in step:
                sections = step["sections"]
            else:
                sections = [{"id": lone_id, "items": step["items"]}]
            snapshot = []
            for section in sections:
                sid = section["id"]
                if "layout" in section:
                    self.section_layout.setdefault(sid, section["layout"])
                if "columns" in section:
                    self.section_columns.setdefault(sid, section["columns"])
                snapshot.append({"id": sid, "items": [item["id"] for item in section["items"]]})
            self.snapshots.append(snapshot)

    def layout_of(self, section_id):
        return self.section_layout.get(section_id, self.layout)

    def columns_of(self, section_id):
        return self.section_columns.get(section_id, self.columns)

    def state(self, step):
        return self.snapshots[step]

    def item_section(self, step):
        return {item: s["id"] for s in self.snapshots[step] for item in s["items"]}

    def first_batch_after(self, step):
        """The item ids after the first batch of step `step` (1-based, the
        step into snapshot `step`), from `rowmotion diff`."""
        return self.diff["steps"][step - 1]["batches"][0]["after"]

    def values(self, step, item_id):
        for section in self.data["steps"][step].get("sections", [{"items": self.data["steps"][step].get("items", [])}]):
            for item in section["items"]:
                if item["id"] == item_id:
                    return item
        raise KeyError(item_id)


EXPECTED = {name: Expected(name) for name in EXAMPLES}


def test_the_sequences_read_here_agree_with_rowmotion_diff():
    """A check on this file's own reading: each snapshot read from the YAML
    is what `rowmotion diff` says follows the step's last batch, and the
    diff speaks of a collection view's items."""
    for name, expected in EXPECTED.items():
        assert expected.diff["view"] == "collectionView", name
        for index, step in enumerate(expected.diff["steps"], start=1):
            assert step["batches"][-1]["after"] == expected.state(index), (name, index)
            for batch in step["batches"]:
                assert "items" in batch and "rows" not in batch, (name, index, batch)


# ---------------------------------------------------------------- the browser

def page(name):
    return (SITE / "examples" / f"{name}.html").as_uri()


FIND = """
const findPlayer = (name) => {
  const players = window.Rowmotion.players;
  return players.find((p) => p.element.getAttribute('data-rowmotion-player') === name + '.yml') || players[0];
};
const effectiveOpacity = (el, stop) => {
  let value = 1;
  for (let node = el; node && node !== stop.parentElement; node = node.parentElement) value *= Number(getComputedStyle(node).opacity);
  return value;
};
const box = (el) => { const r = el.getBoundingClientRect(); return {left: r.left, top: r.top, width: r.width, height: r.height, right: r.right, bottom: r.bottom}; };
const snapshot = (p) => {
  const root = p.element;
  const list = root.querySelector('.rowmotion-list');
  const content = root.querySelector('.rowmotion-content');
  const listBox = box(list);
  const sections = Array.from(root.querySelectorAll('[data-section-id]')).map((s) => {
    const header = Array.from(s.children).find((c) => c.classList.contains('rowmotion-header'));
    return {id: s.getAttribute('data-section-id'), layout: s.getAttribute('data-layout'), box: box(s),
            scrollLeft: s.scrollLeft, clientLeft: s.clientLeft, clientWidth: s.clientWidth,
            header: header ? box(header) : null,
            children: Array.from(s.children).filter((c) => c.hasAttribute('data-item-id')).map((c) => c.getAttribute('data-item-id'))};
  });
  const items = Array.from(root.querySelectorAll('[data-section-id] > [data-item-id]'))
    .filter((e) => !e.classList.contains('rowmotion-ghost'))
    .map((e) => {
      const style = getComputedStyle(e);
      return {id: e.getAttribute('data-item-id'), section: e.parentElement.getAttribute('data-section-id'), box: box(e),
              opacity: Number(style.opacity), effective: effectiveOpacity(e, root), z: style.zIndex,
              fields: Array.from(e.querySelectorAll('[data-field]')).map((f) => f.getAttribute('data-field')),
              childFields: Array.from(e.children).filter((c) => c.hasAttribute('data-field')).map((c) => c.getAttribute('data-field')),
              fieldBoxes: Array.from(e.querySelectorAll('[data-field]')).map((f) => box(f)),
              changed: Array.from(e.querySelectorAll('[data-changed]')).map((f) => f.getAttribute('data-field')),
              probe: e.__collectionProbe || null};
    });
  const ghosts = Array.from(root.querySelectorAll('.rowmotion-ghost')).map((g) => ({
    of: g.getAttribute('data-ghost-of'), ariaHidden: g.getAttribute('aria-hidden'), box: box(g),
    opacity: Number(getComputedStyle(g).opacity), effective: effectiveOpacity(g, root)}));
  const supplementary = Array.from(root.querySelectorAll('.rowmotion-header, p.footer')).map((h) => ({
    text: h.textContent, box: box(h), z: getComputedStyle(h).zIndex}));
  // A title row: an element outside the items whose children read the titles.
  const titleRows = Array.from(list.querySelectorAll('*'))
    .filter((e) => !e.closest('[data-item-id]') && !e.closest('.rowmotion-ghost') && e.children.length > 1)
    .map((e) => ({texts: Array.from(e.children).map((c) => c.textContent.trim()), boxes: Array.from(e.children).map((c) => box(c)), box: box(e)}));
  return {content: box(content), list: listBox, listClient: {left: listBox.left + list.clientLeft, width: list.clientWidth},
          sections, items, ghosts, supplementary, titleRows, state: p.state(), step: p.step, stepCount: p.stepCount,
          viewport: document.documentElement.clientWidth};
};
"""

READY = FIND + """
const [name, done] = arguments;
const wait = () => (window.Rowmotion && window.Rowmotion.players && window.Rowmotion.players.length)
  ? done(findPlayer(name).stepCount) : requestAnimationFrame(wait);
wait();
"""

GO = FIND + """
const [name, step, done] = arguments;
const p = findPlayer(name);
p.goTo(step).then(() => done(snapshot(p)), (error) => done({error: String(error)}));
"""

NAVIGATE = FIND + """
const [name, method, done] = arguments;
const p = findPlayer(name);
p[method]().then(() => done(snapshot(p)), (error) => done({error: String(error)}));
"""

# goTo(step - 1), then hold(position): measured two frames later (the
# animations are paused, so nothing moves meanwhile).
HOLD = FIND + """
const [name, from, position, done] = arguments;
const p = findPlayer(name);
p.goTo(from)
  .then(() => Promise.resolve(p.hold(position)))
  .then(() => requestAnimationFrame(() => requestAnimationFrame(() => done(snapshot(p)))),
        (error) => done({error: String(error)}));
"""

# hold(position) on whatever step the player is at (no goTo first).
HOLD_HERE = FIND + """
const [name, position, done] = arguments;
const p = findPlayer(name);
Promise.resolve(p.hold(position))
  .then(() => requestAnimationFrame(() => requestAnimationFrame(() => done(snapshot(p)))),
        (error) => done({error: String(error)}));
"""


def open_example(browser, name):
    browser.get(page(name))
    browser.execute_script("window.scrollTo(0, 0)")
    count = browser.execute_async_script(READY, name)
    assert count == len(EXPECTED[name].snapshots), f"{name}: stepCount {count}"


def settle(browser, name, step):
    result = browser.execute_async_script(GO, name, step)
    assert "error" not in result, result
    return result


def held(browser, name, step, position):
    """Step `step` (into snapshot `step`) held at `position`."""
    result = browser.execute_async_script(HOLD, name, step - 1, position)
    assert "error" not in result, result
    return result


@pytest.fixture(scope="module", params=WIDTHS, ids=lambda width: f"{width}px")
def sized(request):
    """A browser whose window is `width` px wide (quit at the end)."""
    width = request.param
    browser = new_browser(window_size=f"{width},1000", extra_arguments=("--allow-file-access-from-files",))
    try:
        # Headless Chromium opens no narrower than 500 px; resizing after
        # the start gives the width asked for.
        browser.set_window_size(width, 1000)
        browser.set_script_timeout(180)
        assert browser.execute_script("return window.innerWidth") == width
        yield browser, width
    finally:
        browser.quit()


# ---------------------------------------------------------------- geometry

def layout_box(snap, box, section_id):
    """A viewport box in content coordinates (an orthogonal section's items
    shifted by its scrollLeft)."""
    content = snap["content"]
    section = next((s for s in snap["sections"] if s["id"] == section_id), None)
    shift = section["scrollLeft"] if section and section["layout"] == "orthogonal" else 0
    return {"left": box["left"] - content["left"] + shift, "top": box["top"] - content["top"],
            "width": box["width"], "height": box["height"]}


def boxes_by_item(snap):
    found, duplicates = {}, []
    for item in snap["items"]:
        if item["id"] in found:
            duplicates.append(item["id"])
        found[item["id"]] = {**item, "layout": layout_box(snap, item["box"], item["section"])}
    return found, duplicates


def centre(b):
    return (b["left"] + b["width"] / 2, b["top"] + b["height"] / 2)


def same_box(a, b, tolerance=TOLERANCE):
    return all(abs(a[k] - b[k]) <= tolerance for k in ("left", "top", "width", "height"))


def fmt(b):
    return "(x %.1f, y %.1f, w %.1f, h %.1f)" % (b["left"], b["top"], b["width"], b["height"])


def segment_position(point, start, end):
    """(distance from the segment, the parameter t of the nearest point)."""
    (px, py), (ax, ay), (bx, by) = point, start, end
    dx, dy = bx - ax, by - ay
    length = dx * dx + dy * dy
    t = 0.0 if length == 0 else ((px - ax) * dx + (py - ay) * dy) / length
    clamped = min(1.0, max(0.0, t))
    nx, ny = ax + clamped * dx, ay + clamped * dy
    return ((px - nx) ** 2 + (py - ny) ** 2) ** 0.5, t


def z_value(z):
    return 0 if z in (None, "auto", "") else int(z)


def geometry_problems(expected, snap, label):
    problems = []
    s = expected.spacing
    content = snap["content"]
    sections = {section["id"]: section for section in snap["sections"]}
    items, _ = boxes_by_item(snap)
    for section_id, section in sections.items():
        layout = expected.layout_of(section_id)
        ordered = [items[i] for i in section["children"]]
        where = f"{label} section {section_id!r} ({layout})"
        if section["layout"] != layout:
            problems.append(f"{where}: data-layout is {section['layout']!r}, the sequence says {layout!r}")
        if layout == "grid" and ordered:
            c = expected.columns_of(section_id)
            W = content["width"]
            w = (W - 2 * s - (c - 1) * s) / c
            h = ordered[0]["box"]["height"]
            first_top = (section["header"]["bottom"] if section["header"] else section["box"]["top"]) + s
            for k, item in enumerate(ordered):
                b = item["box"]
                want_left = content["left"] + s + (k % c) * (w + s)
                want_top = first_top + (k // c) * (h + s)
                if abs(b["width"] - w) > TOLERANCE:
                    problems.append(f"{where}: item {k} {item['id']} is {b['width']:.2f} px wide, a tile is (W {W:.2f} - 2×{s} - {c - 1}×{s}) / {c} = {w:.2f}")
                if abs(b["height"] - h) > TOLERANCE:
                    problems.append(f"{where}: item {k} {item['id']} is {b['height']:.2f} px tall, item 0 is {h:.2f}")
                if abs(b["left"] - want_left) > TOLERANCE:
                    problems.append(f"{where}: item {k} {item['id']} left {b['left']:.2f}, column {k % c} is at {want_left:.2f} (content left {content['left']:.2f})")
                if abs(b["top"] - want_top) > TOLERANCE:
                    problems.append(f"{where}: item {k} {item['id']} top {b['top']:.2f}, line {k // c} is at {want_top:.2f}")
        if layout == "orthogonal" and ordered:
            top = ordered[0]["box"]["top"]
            for k, item in enumerate(ordered):
                b = item["box"]
                if abs(b["top"] - top) > TOLERANCE:
                    problems.append(f"{where}: item {k} {item['id']} top {b['top']:.2f}, item 0's {top:.2f}")
                if k:
                    before = ordered[k - 1]["box"]
                    pitch = b["left"] - before["left"]
                    if abs(pitch - (before["width"] + s)) > TOLERANCE:
                        problems.append(f"{where}: item {k} {item['id']} is {pitch:.2f} px right of item {k - 1}, want width {before['width']:.2f} + {s}")
                    if abs(b["width"] - before["width"]) > TOLERANCE:
                        problems.append(f"{where}: item {k} {item['id']} is {b['width']:.2f} px wide, item {k - 1} {before['width']:.2f}")
        if layout == "table":
            for item in ordered:
                if item["childFields"] != expected.fields or item["fields"] != expected.fields:
                    problems.append(f"{where}: {item['id']} has fields {item['fields']} (children {item['childFields']}), want {expected.fields}")
                lefts = [f["left"] for f in item["fieldBoxes"]]
                if lefts != sorted(lefts):
                    problems.append(f"{where}: {item['id']}'s cells are not left to right in the order of fields: {lefts}")
        # Every item: inside the content horizontally (an orthogonal item's
        # part in view of its line), inside its section vertically.
        for k, item in enumerate(ordered):
            b = item["box"]
            left, right = b["left"], b["right"]
            if layout == "orthogonal":
                seen_left = section["box"]["left"] + section["clientLeft"]
                seen_right = seen_left + section["clientWidth"]
                left, right = max(left, seen_left), min(right, seen_right)
                if right <= left:
                    continue  # scrolled out of the line's visible part
            if left < content["left"] - TOLERANCE or right > content["right"] + TOLERANCE:
                problems.append(f"{where}: item {k} {item['id']} spans x {left:.2f}..{right:.2f}, the content {content['left']:.2f}..{content['right']:.2f}")
            if b["top"] < section["box"]["top"] - TOLERANCE or b["bottom"] > section["box"]["bottom"] + TOLERANCE:
                problems.append(f"{where}: item {k} {item['id']} spans y {b['top']:.2f}..{b['bottom']:.2f}, its section {section['box']['top']:.2f}..{section['box']['bottom']:.2f}")
    if expected.layout == "table":
        titles = [expected.titles.get(field, field) for field in expected.fields]
        rows = [row for row in snap["titleRows"] if row["texts"] == titles]
        if not rows:
            problems.append(f"{label}: no title row reads {titles}")
        elif snap["items"]:
            first = min(item["box"]["top"] for item in snap["items"])
            if rows[0]["box"]["bottom"] > first + TOLERANCE:
                problems.append(f"{label}: the title row ends at {rows[0]['box']['bottom']:.2f}, below the first item's top {first:.2f}")
    return problems


# ---------------------------------------------------------------- 1. snapshots

def snapshot_problems(expected, snap, step, how):
    problems = []
    want = expected.state(step)
    if snap["state"] != want:
        problems.append(f"{how}: state() is {snap['state']}, snapshot {step} is {want}")
    dom = [{"id": s["id"], "items": s["children"]} for s in snap["sections"]]
    if dom != want:
        problems.append(f"{how}: the DOM's sections and items are {dom}, snapshot {step} is {want}")
    if snap["step"] != step:
        problems.append(f"{how}: step is {snap['step']}, want {step}")
    if snap["ghosts"]:
        problems.append(f"{how}: settled with leaving copies of {[g['of'] for g in snap['ghosts']]}")
    return problems


@pytest.mark.parametrize("name", EXAMPLES)
def test_the_settled_dom_is_every_snapshot_forward_backward_and_after_random_jumps(driver, name):
    expected = EXPECTED[name]
    seed = SEED + EXAMPLES.index(name)
    print(f"{name}: seed {seed}")
    rng = random.Random(seed)
    open_example(driver, name)
    last = len(expected.snapshots) - 1
    problems = snapshot_problems(expected, settle(driver, name, 0), 0, "goTo(0)")
    for step in range(1, last + 1):
        snap = driver.execute_async_script(NAVIGATE, name, "next")
        assert "error" not in snap, snap
        problems += snapshot_problems(expected, snap, step, f"next() to {step}")
    for step in range(last - 1, -1, -1):
        snap = driver.execute_async_script(NAVIGATE, name, "prev")
        assert "error" not in snap, snap
        problems += snapshot_problems(expected, snap, step, f"prev() to {step}")
    jumps = [rng.randrange(last + 1) for _ in range(30)]
    for number, step in enumerate(jumps):
        problems += snapshot_problems(expected, settle(driver, name, step), step, f"jump {number + 1} goTo({step})")
    assert problems == [], f"seed {seed}, jumps {jumps}:\n" + "\n".join(problems[:30])


# ---------------------------------------------------------------- 2. geometry

@pytest.mark.parametrize("name", EXAMPLES)
def test_settled_items_sit_at_their_layout_frames(sized, name):
    browser, width = sized
    expected = EXPECTED[name]
    open_example(browser, name)
    problems = []
    for step in range(len(expected.snapshots)):
        snap = settle(browser, name, step)
        problems += geometry_problems(expected, snap, f"{name} at {width} px, snapshot {step}")
    assert problems == [], "\n".join(problems[:30])


def test_data_table_titles_sit_above_their_columns(sized):
    """A data table's title is over its column: each title starts where the
    cells of its field start (2 px)."""
    browser, width = sized
    expected = EXPECTED["task-data-table"]
    open_example(browser, "task-data-table")
    snap = settle(browser, "task-data-table", 0)
    titles = [expected.titles.get(field, field) for field in expected.fields]
    rows = [row for row in snap["titleRows"] if row["texts"] == titles]
    assert rows, f"no title row reads {titles}"
    problems = []
    for item in snap["items"]:
        for field, title, cell, title_box in zip(expected.fields, titles, item["fieldBoxes"], rows[0]["boxes"]):
            if abs(cell["left"] - title_box["left"]) > 2:
                problems.append(f"{width} px: {item['id']}'s {field} cell starts at x {cell['left']:.2f}, its title {title!r} at {title_box['left']:.2f}")
    assert problems == [], "\n".join(problems[:20])


# ---------------------------------------------------------------- 3. held frames

def line_origins(snap, was, now):
    """Where each orthogonal line's content starts at a held moment, read
    from the items of the line whose frame the batch leaves alone (anchors):
    an item's frame is in the line's content, so the line's scroll offset,
    whether the browser's scrollLeft or drawn some other way, is what shifts
    an anchor's box from its frame. {section id: (content x of the line's
    origin in content coordinates, the anchors' spread)}."""
    origins = {}
    content = snap["content"]
    for section in snap["sections"]:
        if section["layout"] != "orthogonal":
            continue
        shifts = [item["box"]["left"] - content["left"] - was[item["id"]]["layout"]["left"]
                  for item in snap["items"]
                  if item["section"] == section["id"] and item["id"] in was and item["id"] in now
                  and same_box(was[item["id"]]["layout"], now[item["id"]]["layout"])]
        if shifts:
            shifts.sort()
            origins[section["id"]] = (shifts[len(shifts) // 2], shifts[-1] - shifts[0])
    return origins


def held_box(snap, box, section_id, origins):
    """A held box in content coordinates: an orthogonal line's by its anchors
    (see line_origins), else as a settled box."""
    if section_id in origins:
        content = snap["content"]
        return {"left": box["left"] - content["left"] - origins[section_id][0], "top": box["top"] - content["top"],
                "width": box["width"], "height": box["height"]}
    return layout_box(snap, box, section_id)


def held_problems(expected, step, before, after, moments):
    """The first batch of step `step`, held at each of `moments`
    ({fraction: snapshot}), against the settled `before` and `after`."""
    problems = []
    was, was_dupes = boxes_by_item(before)
    now, now_dupes = boxes_by_item(after)
    before_section = expected.item_section(step - 1)
    if was_dupes or now_dupes:
        problems.append(f"settled with two elements for {was_dupes + now_dupes}")
    common = [i for i in now if i in was]
    moving = [i for i in common if not same_box(was[i]["layout"], now[i]["layout"])]
    inserted = [i for i in now if i not in was]
    deleted = [i for i in was if i not in now]
    progress = {i: [] for i in moving}
    for fraction, snap in moments.items():
        at = f"held at {int(fraction * 100)} %"
        seen, dupes = boxes_by_item(snap)
        if dupes:
            problems.append(f"{at}: two live elements for {dupes}")
        origins = line_origins(snap, was, now)
        for section_id, (_, spread) in origins.items():
            if spread > TOLERANCE:
                problems.append(f"{at}: the items of line {section_id!r} the batch leaves in place are shifted by amounts {spread:.2f} px apart (the line does not scroll as one)")
        for i in seen:
            seen[i]["layout"] = held_box(snap, seen[i]["box"], seen[i]["section"], origins)
        for i in moving:
            if i not in seen:
                problems.append(f"{at}: moving item {i} is not in its section")
                continue
            b, a, z = was[i]["layout"], now[i]["layout"], seen[i]["layout"]
            lo_x, hi_x = min(b["left"], a["left"]), max(b["left"] + b["width"], a["left"] + a["width"])
            lo_y, hi_y = min(b["top"], a["top"]), max(b["top"] + b["height"], a["top"] + a["height"])
            if (z["left"] < lo_x - TOLERANCE or z["left"] + z["width"] > hi_x + TOLERANCE
                    or z["top"] < lo_y - TOLERANCE or z["top"] + z["height"] > hi_y + TOLERANCE):
                problems.append(f"{at}: {i} at {fmt(z)} is outside the box spanned by before {fmt(b)} and after {fmt(a)}")
            distance, t = segment_position(centre(z), centre(b), centre(a))
            if distance > GLIDE_TOLERANCE:
                problems.append(f"{at}: {i}'s centre {centre(z)} is {distance:.2f} px off the straight path {centre(b)} → {centre(a)}")
            progress[i].append((fraction, t))
            if fraction == 0.5 and not 0.01 < t < 0.99:
                problems.append(f"{at}: {i} has not left its frame or has already arrived (t = {t:.3f} from {fmt(b)} to {fmt(a)}, held {fmt(z)})")
        for i in inserted:
            if i not in seen:
                problems.append(f"{at}: inserted item {i} is not in its section")
                continue
            if not same_box(seen[i]["layout"], now[i]["layout"]):
                problems.append(f"{at}: inserted {i} is at {fmt(seen[i]['layout'])}, its final frame is {fmt(now[i]['layout'])}")
            if fraction == 0.5 and not 0 < seen[i]["opacity"] < 1:
                problems.append(f"{at}: inserted {i} has opacity {seen[i]['opacity']}, want strictly between 0 and 1")
        for i in deleted:
            ghosts = [g for g in snap["ghosts"] if g["of"] == i]
            if len(ghosts) != 1:
                problems.append(f"{at}: {len(ghosts)} leaving copies of deleted {i}, want 1")
                continue
            ghost = ghosts[0]
            z = held_box(snap, ghost["box"], before_section[i], origins)
            if not same_box(z, was[i]["layout"]):
                problems.append(f"{at}: the leaving copy of {i} is at {fmt(z)}, its initial frame is {fmt(was[i]['layout'])}")
            if ghost["ariaHidden"] != "true":
                problems.append(f"{at}: the leaving copy of {i} has aria-hidden={ghost['ariaHidden']!r}")
            if fraction == 0.5 and not 0 < ghost["opacity"] < 1:
                problems.append(f"{at}: the leaving copy of {i} has opacity {ghost['opacity']}, want strictly between 0 and 1")
        movers = [seen[i] for i in moving if i in seen]
        for header in snap["supplementary"]:
            for item in movers:
                if z_value(header["z"]) <= z_value(item["z"]):
                    problems.append(f"{at}: header/footer {header['text']!r} has z-index {header['z']}, moving {item['id']} {item['z']}")
    for i, points in progress.items():
        ts = [t for _, t in sorted(points)]
        if any(later < earlier - 0.02 for earlier, later in zip(ts, ts[1:])):
            problems.append(f"{i} goes backwards along its path: t at 25/50/75 % = {['%.3f' % t for t in ts]}")
    return problems, {"moving": moving, "inserted": inserted, "deleted": deleted}


@pytest.mark.parametrize("name", EXAMPLES)
def test_held_frames_are_uikits_moved_items_glide_inserted_fade_in_place_deleted_fade_where_they_were(sized, name):
    browser, width = sized
    expected = EXPECTED[name]
    open_example(browser, name)
    problems, checked = [], 0
    for step in range(1, len(expected.snapshots)):
        if expected.first_batch_after(step) != expected.state(step):
            continue  # the first batch's end is not a snapshot to settle at
        before = settle(browser, name, step - 1)
        after = settle(browser, name, step)
        moments = {fraction: held(browser, name, step, fraction) for fraction in FRACTIONS}
        found, kinds = held_problems(expected, step, before, after, moments)
        checked += sum(len(v) for v in kinds.values())
        problems += [f"{name} at {width} px, step {step} ({kinds}): {p}" for p in found]
    assert checked > 0
    assert problems == [], "\n".join(problems[:40])


# ---------------------------------------------------------------- 4-6. one step each

PROBE = FIND + """
const [name, id, token] = arguments;
const p = findPlayer(name);
const cell = Array.from(p.element.querySelectorAll('[data-section-id] > [data-item-id]'))
  .filter((e) => e.getAttribute('data-item-id') === id && !e.classList.contains('rowmotion-ghost'));
if (cell.length !== 1) return cell.length;
cell[0].__collectionProbe = token;
return 1;
"""

CELL_TEXT = FIND + """
const [name, id] = arguments;
const p = findPlayer(name);
const cell = Array.from(p.element.querySelectorAll('[data-section-id] > [data-item-id]'))
  .find((e) => e.getAttribute('data-item-id') === id && !e.classList.contains('rowmotion-ghost'));
return cell ? cell.textContent : null;
"""


def test_a_grid_reload_reconfigures_the_cell_in_place_with_no_leaving_copy():
    """photo-grid's step into snapshot 3 ("Tokyo renamed, San Francisco
    moved to the front"): a move batch, then Tokyo's reload, which a grid
    makes with reconfigureItems. p4 keeps its element across the step and
    while held (at every point of both batches) no leaving copy of p4 exists."""
    name, step = "photo-grid", 3
    expected = EXPECTED[name]
    assert expected.values(step, "p4")["place"] != expected.values(step - 1, "p4")["place"]
    token = f"probe-{SEED}"
    batches = len(expected.diff["steps"][step - 1]["batches"])
    browser = new_browser(window_size="1280,1000", extra_arguments=("--allow-file-access-from-files",))
    try:
        browser.set_script_timeout(180)
        open_example(browser, name)
        problems = []
        # Held: the element p4 had before the step is the one shown.
        settle(browser, name, step - 1)
        assert browser.execute_script(PROBE, name, "p4", token) == 1
        for position in [b + f for b in range(batches) for f in FRACTIONS]:
            snap = browser.execute_async_script(HOLD_HERE, name, position)
            assert "error" not in snap, snap
            ghosts = [g for g in snap["ghosts"] if g["of"] == "p4"]
            if ghosts:
                problems.append(f"held at {position}: {len(ghosts)} .rowmotion-ghost[data-ghost-of=p4]")
            live = [i for i in snap["items"] if i["id"] == "p4"]
            if len(live) != 1 or live[0]["probe"] != token:
                problems.append(f"held at {position}: p4 is {len(live)} element(s), probes {[i['probe'] for i in live]}")
        # Played: next() from snapshot 2 ends on the same element, renamed.
        settle(browser, name, step - 1)
        assert browser.execute_script(PROBE, name, "p4", token) == 1
        snap = browser.execute_async_script(NAVIGATE, name, "next")
        assert "error" not in snap, snap
        live = [i for i in snap["items"] if i["id"] == "p4"]
        if len(live) != 1 or live[0]["probe"] != token:
            problems.append(f"after next(): p4 is {len(live)} element(s), probes {[i['probe'] for i in live]} (want the element it had before, {token!r})")
        text = browser.execute_script(CELL_TEXT, name, "p4")
        if expected.values(step, "p4")["place"] not in (text or ""):
            problems.append(f"after next(): p4 reads {text!r}, want {expected.values(step, 'p4')['place']!r}")
        assert problems == [], "\n".join(problems)
    finally:
        browser.quit()


TABLE_CELLS = FIND + """
const [name, id] = arguments;
const p = findPlayer(name);
const root = p.element;
const owners = Array.from(root.querySelectorAll('[data-item-id], [data-ghost-of]'))
  .filter((e) => e.getAttribute('data-item-id') === id || e.getAttribute('data-ghost-of') === id);
const cells = [];
for (const owner of owners) {
  for (const cell of owner.querySelectorAll('[data-field]')) {
    cells.push({field: cell.getAttribute('data-field'), text: cell.textContent, ghost: !!cell.closest('.rowmotion-ghost'),
                opacity: Number(getComputedStyle(cell).opacity), effective: effectiveOpacity(cell, root)});
  }
}
return cells;
"""

CHANGED = FIND + """
const p = findPlayer(arguments[0]);
return Array.from(p.element.querySelectorAll('[data-changed]')).map((e) => {
  const owner = e.closest('[data-item-id]');
  return {item: owner ? owner.getAttribute('data-item-id') : null, field: e.getAttribute('data-field'), text: e.textContent,
          ghost: !!e.closest('.rowmotion-ghost')};
});
"""


def test_a_data_table_field_change_crossfades_that_cell_only(driver):
    """task-data-table step 1 ("A task is completed"): t2's isComplete is
    the only field that changes. Held, that cell fades (at 50 % strictly
    between 0 and 1) and t2's other cells stay at opacity 1 throughout (25,
    50, 75 %), leaving copies included; once played, that cell alone carries
    data-changed."""
    name, step = "task-data-table", 1
    expected = EXPECTED[name]
    changed = [f for f in expected.fields if expected.values(step, "t2")[f] != expected.values(step - 1, "t2")[f]]
    assert changed == ["isComplete"]
    open_example(driver, name)
    problems = []
    for fraction in FRACTIONS:
        held(driver, name, step, fraction)
        cells = driver.execute_script(TABLE_CELLS, name, "t2")
        live = [c for c in cells if c["field"] == "isComplete" and not c["ghost"]]
        if not live:
            problems.append(f"{fraction}: t2 has no isComplete cell")
        if fraction == 0.5:
            for cell in live:
                if not 0 < cell["effective"] < 1:
                    problems.append(f"50 %: t2's isComplete cell ({cell['text']!r}) is drawn at opacity {cell['effective']}, want strictly between 0 and 1")
        for cell in cells:
            if cell["field"] != "isComplete" and abs(cell["effective"] - 1) > 1e-6:
                problems.append(f"{int(fraction * 100)} %: t2's {cell['field']} cell ({cell['text']!r}{', a leaving copy' if cell['ghost'] else ''}) is drawn at opacity {cell['effective']}, want 1")
    settle(driver, name, step - 1)
    snap = driver.execute_async_script(NAVIGATE, name, "next")
    assert "error" not in snap, snap
    marks = driver.execute_script(CHANGED, name)
    want_text = str(expected.values(step, "t2")["isComplete"]).lower()
    if [(m["item"], m["field"], m["ghost"]) for m in marks] != [("t2", "isComplete", False)]:
        problems.append(f"after next(): data-changed is on {marks}, want t2's isComplete cell alone")
    elif marks[0]["text"].strip().lower() != want_text:
        problems.append(f"after next(): the changed cell reads {marks[0]['text']!r}, want {want_text!r}")
    assert problems == [], "\n".join(problems)


def test_a_card_deleted_far_along_the_orthogonal_line_leaves_in_sight(sized):
    """app-store's last step: the last card of the featured line (past the
    line's visible part when the page opens) is deleted. The line scrolls
    sideways to it before the batch, so when the batch starts its leaving
    copy is wholly inside the list's visible box; as the line, now shorter,
    scrolls back during the batch, the copy rides with it (as a scroll view
    carries a disappearing cell: the held-frames test checks its place in the
    line), still partly in sight while it can be seen."""
    browser, width = sized
    name = "app-store"
    expected = EXPECTED[name]
    step = len(expected.snapshots) - 1
    gone = [i for s in expected.state(step - 1) for i in s["items"] if i not in {j for t in expected.state(step) for j in t["items"]}]
    assert len(gone) == 1
    card = gone[0]
    open_example(browser, name)
    problems = []
    before = settle(browser, name, step - 1)
    line = next(s for s in before["sections"] if card in s["children"])
    assert expected.layout_of(line["id"]) == "orthogonal"
    for fraction in [0] + FRACTIONS:
        snap = held(browser, name, step, fraction)
        ghosts = [g for g in snap["ghosts"] if g["of"] == card]
        if len(ghosts) != 1:
            problems.append(f"{width} px, {int(fraction * 100)} %: {len(ghosts)} leaving copies of {card}")
            continue
        g, seen = ghosts[0]["box"], snap["listClient"]
        right = seen["left"] + seen["width"]
        if fraction == 0 and (g["left"] < seen["left"] - TOLERANCE or g["right"] > right + TOLERANCE):
            problems.append(f"{width} px, at the start: the leaving {card} spans x {g['left']:.2f}..{g['right']:.2f}, "
                            f"the list shows {seen['left']:.2f}..{right:.2f}")
        if fraction in (0.25, 0.5) and not (g["left"] < right - 1 and g["right"] > seen["left"] + 1):
            problems.append(f"{width} px, {int(fraction * 100)} %: the leaving {card} at x {g['left']:.2f}..{g['right']:.2f} is out of sight")
        if fraction < 0.75 and not ghosts[0]["effective"] > 0:
            problems.append(f"{width} px, {int(fraction * 100)} %: the leaving {card} is drawn at opacity {ghosts[0]['effective']}")
    assert problems == [], "\n".join(problems)


# ---------------------------------------------------------------- the batch event

LISTEN = FIND + """
const [name, from, done] = arguments;
const p = findPlayer(name);
p.goTo(from).then(() => {
  const seen = [];
  const listener = (event) => seen.push({bubbles: event.bubbles, inPlayer: p.element.contains(event.target), detail: event.detail});
  document.addEventListener('rowmotion:batch', listener);
  return p.next().then(() => { document.removeEventListener('rowmotion:batch', listener); done(seen); });
}).catch((error) => done({error: String(error)}));
"""


@pytest.mark.parametrize("name", EXAMPLES)
def test_each_step_dispatches_a_bubbling_batch_event_with_its_timing(driver, name):
    expected = EXPECTED[name]
    open_example(driver, name)
    problems = []
    for step in range(1, len(expected.snapshots)):
        events = driver.execute_async_script(LISTEN, name, step - 1)
        assert not isinstance(events, dict), events
        if not events:
            problems.append(f"step {step}: no rowmotion:batch event reached the document")
        for event in events:
            d = event["detail"] or {}
            if not (event["bubbles"] and event["inPlayer"]):
                problems.append(f"step {step}: {event}")
            if not all(isinstance(d.get(k), (int, float)) for k in ("step", "batch", "duration")) or not d.get("duration", 0) > 0 \
                    or not isinstance(d.get("easing"), str) or not d.get("easing"):
                problems.append(f"step {step}: detail {d}")
    assert problems == [], "\n".join(problems)
