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
