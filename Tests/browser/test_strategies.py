"""`compare: strategies` in a real browser: the four panes of the engine
page replay the same example by minimal moves, offsets, deletes and inserts
only, and reloadData(); driving one drives all, each settles on the
snapshot `rowmotion diff` reports, and each shows the moves `rowmotion diff
--strategy` reports."""
import json

from selenium.webdriver.common.by import By

from conftest import ROOT, SCREENSHOTS, SITE

STRATEGIES = ["minimalMoves", "offsets", "deletesAndInserts"]

SETTLE = """
const [indexes, action, done] = arguments;
const players = indexes.map((i) => window.Rowmotion.players[i]);
players[0][action]().then(() => Promise.all(players.map((p) => p.goTo(p.step)))).then(() =>
  done(players.map((p) => ({step: p.step, state: p.state()}))), (error) => done({error: String(error)}));
"""


def diff(rowmotion, strategy):
    return json.loads(rowmotion("diff", "examples/stock-ticker.yml", "--format", "json", "--strategy", strategy))


def test_strategyPanes_followEachOther_settleOnTheTarget_andShowTheEnginesMoveCounts(driver, rowmotion):
    driver.get((SITE / "engine.html").as_uri())
    group = driver.find_element(By.CSS_SELECTOR, '[data-rowmotion-compare="strategies"]')
    panes = group.find_elements(By.CSS_SELECTOR, "[data-rowmotion-player]")
    assert [pane.get_attribute("data-strategy") for pane in panes] == STRATEGIES + ["reloadData"]
    every = driver.find_elements(By.CSS_SELECTOR, "[data-rowmotion-player]")
    indexes = [every.index(pane) for pane in panes]

    reports = {strategy: diff(rowmotion, strategy) for strategy in STRATEGIES}
    for strategy, pane in zip(STRATEGIES, panes):
        moves = [sum(len(batch["rows"]["move"]) + len(batch["sections"]["move"]) for batch in step["batches"])
                 for step in reports[strategy]["steps"]]
        assert pane.get_attribute("data-moves") == ",".join(map(str, moves)), strategy
        caption = pane.find_element(By.CSS_SELECTOR, ".rowmotion-move-count").text
        assert caption.startswith(f"{sum(moves)} move"), (strategy, caption)
    assert reports["offsets"] != reports["minimalMoves"]

    # Step forward from the first pane; every pane follows and settles on
    # the snapshot the engine's last batch of that step leaves.
    targets = [step["batches"][-1]["after"] for step in reports["minimalMoves"]["steps"]]
    for number, target in enumerate(targets, start=1):
        result = driver.execute_async_script(SETTLE, indexes, "next")
        assert "error" not in result, result
        for strategy, settled in zip(STRATEGIES + ["reloadData"], result):
            assert settled["step"] == number, (strategy, settled)
            assert settled["state"] == target, (strategy, number)
        for strategy in STRATEGIES:
            assert reports[strategy]["steps"][number - 1]["batches"][-1]["after"] == target
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    group.screenshot(str(SCREENSHOTS / "strategies-settled.png"))

    # Back to the start from the last pane: the others follow again.
    result = driver.execute_async_script(SETTLE, list(reversed(indexes)), "prev")
    assert {settled["step"] for settled in result} == {len(targets) - 1}


SHARED = """
const group = document.querySelector('[data-rowmotion-compare="strategies"]');
const panes = Array.from(group.querySelectorAll('[data-rowmotion-player]'));
const shared = group.querySelector('.rowmotion-shared-controls');
return {
  sharedFirst: group.firstElementChild === shared,
  controlSets: group.querySelectorAll('.rowmotion-controls').length,
  inShared: shared.querySelectorAll('.rowmotion-controls, .rowmotion-scrub, .rowmotion-timeline, .rowmotion-status').length,
  inPanes: panes.map((p) => p.querySelectorAll('.rowmotion-controls, .rowmotion-scrub, .rowmotion-timeline, .rowmotion-status').length),
  live: panes.map((p) => p.querySelectorAll('[aria-live]').length),
  glyphs: Array.from(shared.querySelectorAll('.rowmotion-controls button')).map((b) => {
    const svg = b.querySelector('svg');
    return [b.getAttribute('aria-label'), svg && svg.getAttribute('data-glyph'), svg ? svg.getBoundingClientRect().width : 0, b.textContent];
  }),
};
"""

PANES = """
const group = document.querySelector('[data-rowmotion-compare="strategies"]');
return Array.from(group.querySelectorAll('[data-rowmotion-player]')).map((p) => ({
  highlight: p.hasAttribute('data-highlight-moves'),
  batch: p.querySelector('.rowmotion-batch').textContent,
  rates: p.querySelector('.rowmotion-sections').getAnimations({subtree: true}).map((a) => a.playbackRate),
  paused: p.querySelector('.rowmotion-sections').getAnimations({subtree: true}).map((a) => a.playState),
  sideways: [p.querySelector('.rowmotion-list').scrollWidth, p.querySelector('.rowmotion-list').clientWidth],
}));
"""


def test_strategyPanes_shareOneSetOfControls_thatDriveSpeedHoldAndHighlightInEveryPane(driver):
    driver.set_window_size(1280, 1000)
    driver.get((SITE / "engine.html").as_uri())
    found = driver.execute_script(SHARED)
    assert found["sharedFirst"] and found["controlSets"] == 1 and found["inShared"] == 4
    assert found["inPanes"] == [0, 0, 0, 0], "no pane repeats the controls"
    assert found["live"] == [1, 0, 0, 0], "one pane announces the steps, not four"
    # Glyphs are inline SVG (a ⏸ character is an empty box without a symbol
    # font); the buttons keep their names.
    assert [g[:2] for g in found["glyphs"]] == [["Restart", None], ["Previous step", "prev"], ["Play", "play"], ["Next step", "next"]]
    assert all(g[2] >= 12 and g[3] == "" for g in found["glyphs"][1:]), found["glyphs"]

    shared = driver.find_element(By.CSS_SELECTOR, ".rowmotion-shared-controls")
    highlight = next(label for label in shared.find_elements(By.CSS_SELECTOR, ".rowmotion-controls label") if "highlight" in label.text)
    highlight.find_element(By.CSS_SELECTOR, "input").click()
    select = shared.find_element(By.CSS_SELECTOR, ".rowmotion-controls select")
    driver.execute_script("arguments[0].value = '0.1'; arguments[0].dispatchEvent(new Event('change'))", select)
    shared.find_element(By.CSS_SELECTOR, 'button[aria-label="Next step"]').click()
    driver.execute_script("return new Promise((resolve) => setTimeout(resolve, 150))")
    playing = driver.execute_script(PANES)
    assert all(p["highlight"] for p in playing)
    # The three animated panes run at the chosen speed; reloadData() jumps.
    for pane in playing[:3]:
        assert pane["rates"] and set(pane["rates"]) == {0.1}, pane
    assert playing[3]["rates"] == []

    # Held half-way from the shared controls' player: every pane holds.
    driver.execute_script("window.Rowmotion.players.find((p) => p.element.closest('[data-rowmotion-compare]')).hold(0.5)")
    held = driver.execute_script(PANES)
    for pane in held[:3]:
        assert "(held)" in pane["batch"] and set(pane["paused"]) == {"paused"}, pane

    play = shared.find_element(By.CSS_SELECTOR, "button.rowmotion-play")
    play.click()
    assert play.get_attribute("aria-label") == "Pause"
    assert play.find_element(By.CSS_SELECTOR, "svg").get_attribute("data-glyph") == "pause"
    play.click()
    assert play.get_attribute("aria-label") == "Play"


def test_strategyPanes_fitWithoutSidewaysScrolling_atDesktopAndPhoneWidths(driver):
    for width in (1280, 390):
        driver.set_window_size(width, 900)
        driver.get((SITE / "engine.html").as_uri())
        group = driver.find_element(By.CSS_SELECTOR, '[data-rowmotion-compare="strategies"]')
        assert driver.execute_script("return arguments[0].scrollWidth <= arguments[0].clientWidth", group), width
        assert driver.execute_script("return document.documentElement.scrollWidth <= document.documentElement.clientWidth"), width
        for pane in driver.execute_script(PANES):
            assert pane["sideways"][0] <= pane["sideways"][1], (width, pane)
        # Each cell's symbol is shown whole: the label column is never squeezed to a letter.
        widths = driver.execute_script("""return Array.from(arguments[0].querySelectorAll('.cell-title')).map((t) =>
            [t.textContent, t.getBoundingClientRect().height, parseFloat(getComputedStyle(t).lineHeight)])""", group)
        assert widths and all(h < 1.5 * line for _, h, line in widths), (width, [w for w in widths if w[1] >= 1.5 * w[2]][:3])
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        group.screenshot(str(SCREENSHOTS / f"strategies-{width}.png"))
