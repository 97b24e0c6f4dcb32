"""What users do in any order: seeded random sequences of player calls,
clicks and keys at random delays, on an example page and on the linked
strategy panes. After settling, `step`, `state()`, the DOM's order and
geometry, the timeline and every linked pane agree with the snapshots
`rowmotion diff` reports. `make test` runs a share (ROWMOTION_CALL_FUZZ,
24 on the page, 12 on the panes); `make fuzz` runs 1,000. ROWMOTION_CALL_FUZZ_SEED replays."""
import os
from pathlib import Path

from selenium.webdriver.common.by import By

from conftest import ROOT, SITE
from test_player import expected_states, fill_unchanged, open_example

# The page gets the shared seeded generator, then the fuzz script.
CALL_FUZZ = ((Path(__file__).parent.parent / "js" / "seeded-random.js").read_text()
             + (Path(__file__).parent / "js" / "call-fuzz.js").read_text())
COUNT = int(os.environ.get("ROWMOTION_CALL_FUZZ", "24"))
SEED = int(os.environ.get("ROWMOTION_CALL_FUZZ_SEED", "20261123"))


CHUNK = 5  # sequences per script call: the WebDriver client gives up on a call after 120 s, and a
# sequence on four panes slowed to 0.1x can take 15 s to settle


def run(driver, indexes, states, count):
    driver.set_script_timeout(CHUNK * 20)
    failures = []
    for start in range(SEED, SEED + count, CHUNK):
        seeds = list(range(start, min(start + CHUNK, SEED + count)))
        failures += driver.execute_async_script(CALL_FUZZ, indexes, states, seeds)
    replay = f"ROWMOTION_CALL_FUZZ_SEED=<seed> ROWMOTION_CALL_FUZZ=1 .venv/bin/pytest Tests/browser/test_call_fuzz.py"
    assert failures == [], f"{len(failures)} failing sequences (replay: {replay}):\n" + "\n".join(map(str, failures))


def test_random_call_sequences_settle_where_the_step_says(driver, rowmotion):
    path = ROOT / "examples" / "messenger.yml"
    open_example(driver, path)
    run(driver, [0], fill_unchanged(expected_states(path, rowmotion)), COUNT)


def test_random_call_sequences_on_a_virtual_list_settle_where_the_step_says(driver, rowmotion):
    """The 1,000-row example keeps only the rows in sight in the DOM (issue
    45, item 5): calls in any order settle on the snapshot, its rows a
    run placed edge to edge. A third of the page's share: each step moves
    a hundred rows."""
    path = ROOT / "examples" / "large-list.json"
    open_example(driver, path)
    assert driver.execute_script("return !!document.querySelector('[data-virtual]')"), "the 1,000-row list is not virtual"
    run(driver, [0], fill_unchanged(expected_states(path, rowmotion)), max(1, COUNT // 3))


def test_random_call_sequences_keep_linked_strategy_panes_together(driver, rowmotion):
    driver.get((SITE / "engine.html").as_uri())
    group = driver.find_element(By.CSS_SELECTOR, '[data-rowmotion-compare="strategies"]')
    panes = group.find_elements(By.CSS_SELECTOR, "[data-rowmotion-player]")
    every = driver.find_elements(By.CSS_SELECTOR, "[data-rowmotion-player]")
    states = fill_unchanged(expected_states(ROOT / "examples" / "stock-ticker.yml", rowmotion))
    run(driver, [every.index(pane) for pane in panes], states, max(1, COUNT // 2))
