"""The player in a real browser: every example page, every step, forward,
backward and by random jumps, against the snapshots the Swift side reports
(`rowmotion diff --format json` and the sequence file), never the page's
own data."""
import json
import random
import subprocess

import pytest
import yaml

from conftest import ROOT, SCREENSHOTS, SITE

EXAMPLES = sorted(p for p in (ROOT / "examples").iterdir() if p.suffix in {".yml", ".yaml", ".json"})

# Await a player action's promise, then report the settled state and the DOM order.
ACT = """
const [index, action, argument, done] = arguments;
const player = window.Rowmotion.players[index];
const call = argument === null ? player[action]() : player[action](argument);
call.then(() => {
  const dom = Array.from(player.element.querySelectorAll('[data-section-id]')).map((section) => ({
    id: section.getAttribute('data-section-id'),
    items: Array.from(section.querySelectorAll('[data-item-id]')).map((row) => row.getAttribute('data-item-id')),
  }));
  done({step: player.step, state: player.state(), dom: dom, virtual: !!player.element.querySelector('[data-virtual]')});
}, (error) => done({error: String(error)}));
"""


def swift_value(value):
    """A field value as the Swift side writes it into a content identity."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return repr(value)
    return str(value)


def initial_layout(path):
    """The first snapshot's section and row ids, read from the sequence file."""
    text = path.read_text(encoding="utf-8")
    document = json.loads(text) if path.suffix == ".json" else yaml.safe_load(text)
    identity = document.get("identity", "id")
    first = document["steps"][0]
    sections = first["sections"] if "sections" in first else [{"id": "", "items": first["items"]}]

    def row_id(row):
        if not isinstance(row, dict):
            return str(row)
        if identity == "content":
            return "\x1f".join(f"{key}={swift_value(value)}" for key, value in row.items())
        return str(row[identity])

    return [{"id": str(section["id"]), "items": [row_id(row) for row in section.get("items", [])]} for section in sections]


def expected_states(path, rowmotion):
    report = json.loads(rowmotion("diff", str(path.relative_to(ROOT)), "--format", "json"))
    return [initial_layout(path)] + [step["batches"][-1]["after"] if step["batches"] else None for step in report["steps"]]


def fill_unchanged(states):
    """A step without batches keeps the previous state."""
    for index in range(1, len(states)):
        if states[index] is None:
            states[index] = states[index - 1]
    return states


def open_example(driver, path):
    page = SITE / "examples" / (path.stem + ".html")
    assert page.exists(), f"{page} was not built (make test builds the strict site first)"
    driver.get(page.as_uri())
    driver.get_log("browser")  # start each page with an empty console log
    return page


def act(driver, action, argument=None, player=0):
    result = driver.execute_async_script(ACT, player, action, argument)
    assert "error" not in result, result
    return result


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_every_step_forward_backward_and_by_random_jumps(driver, rowmotion, path):
    states = fill_unchanged(expected_states(path, rowmotion))
    open_example(driver, path)
    count = driver.execute_script("return window.Rowmotion.players[0].stepCount")
    assert count == len(states)
    assert driver.execute_script("return window.Rowmotion.players[0].element.getAttribute('data-rowmotion-player')") == path.name

    order = list(range(count)) + list(range(count - 1, -1, -1))
    jumps = random.Random(f"rowmotion-{path.name}")
    order += [jumps.randrange(count) for _ in range(2 * count)]
    for step in order:
        result = act(driver, "goTo", step)
        assert result["step"] == step
        assert result["state"] == states[step], f"state() at step {step}"
        if result["virtual"]:
            # A long list keeps the rows in sight (and a screen around) in
            # the DOM: a run of the snapshot's rows, in its order.
            for shown, section in zip(result["dom"], states[step]):
                items, run = section["items"], shown["items"]
                start = items.index(run[0]) if run else 0
                assert items[start:start + len(run)] == run, f"DOM order at step {step}: not a run of the snapshot's rows"
            assert [s["id"] for s in result["dom"]] == [s["id"] for s in states[step]], f"DOM sections at step {step}"
        else:
            assert result["dom"] == states[step], f"DOM order at step {step}"

    # next() and prev() walk one step and stop at the ends.
    act(driver, "goTo", 0)
    assert act(driver, "prev")["step"] == 0
    for step in range(1, count):
        assert act(driver, "next")["state"] == states[step]
    assert act(driver, "next")["step"] == count - 1

    errors = [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]
    assert errors == [], errors
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    driver.save_screenshot(str(SCREENSHOTS / f"{path.stem}-settled.png"))
    # A frame in the middle of the first step's animation, for review.
    act(driver, "goTo", 0)
    driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        window.__rowmotionStep = window.Rowmotion.players[0].next();
        let frames = 0;
        (function wait() { if (++frames === 7) done(true); else requestAnimationFrame(wait); })();
    """)
    driver.save_screenshot(str(SCREENSHOTS / f"{path.stem}-mid.png"))
    driver.execute_async_script("const done = arguments[arguments.length - 1]; window.__rowmotionStep.then(() => done(true));")


def test_play_runs_to_the_last_step_and_pause_stops(driver, rowmotion):
    path = ROOT / "examples" / "original-revised.yml"
    states = fill_unchanged(expected_states(path, rowmotion))
    open_example(driver, path)
    act(driver, "goTo", 0)
    result = act(driver, "play")
    assert result["step"] == len(states) - 1
    assert result["state"] == states[-1]
    assert act(driver, "pause")["step"] == len(states) - 1


def test_pages_load_without_console_errors(driver):
    for page in sorted(SITE.rglob("*.html")):
        driver.get(page.as_uri())
        errors = [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]
        assert errors == [], f"{page.relative_to(SITE)}: {errors}"


def test_hostile_row_text_runs_no_script(driver, tmp_path):
    """Row text built to break out of the JSON block or the markup stays text."""
    hostile = "</script><script>window.__pwned=1</script><img src=x onerror=\"window.__pwned=2\"><!--"
    (tmp_path / "site").mkdir()
    (tmp_path / "examples").mkdir()
    (tmp_path / "site" / "index.md").write_text("# Evil\n\n```rowmotion\nexample: evil.json\n```\n")
    sequence = {"title": hostile, "description": "x",
                "steps": [{"items": [{"id": "a", "title": hostile}]},
                          {"items": [{"id": "b", "title": hostile}, {"id": "a", "title": "changed " + hostile}]}]}
    (tmp_path / "examples" / "evil.json").write_text(json.dumps(sequence))
    subprocess.run([str(ROOT / ".build" / "debug" / "rowmotion"), "build", "--site", "site", "--examples", "examples",
                    "--out", "_site"], cwd=tmp_path, check=True, capture_output=True)
    for page in ["index.html", "examples/evil.html"]:
        driver.get((tmp_path / "_site" / page).as_uri())
        for step in [0, 1, 0]:
            act(driver, "goTo", step)
        assert driver.execute_script("return window.__pwned === undefined")
        assert driver.execute_script("return document.querySelectorAll('.rowmotion-player img').length") == 0
        text = driver.execute_script("return window.Rowmotion.players[0].element.querySelector('[data-field=title]').textContent")
        assert text.endswith("<!--")
