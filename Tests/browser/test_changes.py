"""`changes.html` in a real browser: a throwaway git repository made from
this repository's site and examples, one step of the messenger example
changed, built with `--baseline HEAD`. The page's baseline and current
players follow each other, and each settles, step by step, on the snapshot
`rowmotion diff` reports for its own version of the file, with the batches
`rowmotion diff` reports for it."""
import json
import shutil
import subprocess

from selenium.webdriver.common.by import By

from conftest import BINARY, ROOT, SCREENSHOTS, record_figures
from test_accessibility import all_violations

# The driven player's action; then the other must follow by itself (polled,
# never driven by the test), and both settle. The two versions may take
# different times for a step (a batch more or less).
SETTLE = """
const [indexes, action, done] = arguments;
const players = indexes.map((i) => window.Rowmotion.players[i]);
players[0][action]().then(() => {
  const target = players[0].step, start = Date.now();
  return new Promise((resolve, reject) => {
    (function poll() {
      if (players.every((p) => p.step === Math.min(target, p.stepCount - 1))) resolve(Promise.all(players.map((p) => p.goTo(p.step))));
      else if (Date.now() - start > 5000) reject(new Error('a player did not follow: ' + players.map((p) => p.step)));
      else setTimeout(poll, 20);
    })();
  });
}).then(() => done(players.map((p) => ({step: p.step, state: p.state()}))), (error) => done({error: String(error)}));
"""

OLD = '{id: dave, name: Dave, preview: "Sounds good", lastMessageAt: 1012, updatedAt: 2}\n          - {id: carol'
NEW = '{id: dave, name: Dave, preview: "Thanks", lastMessageAt: 1012, updatedAt: 1}\n          - {id: carol'


def git(repository, *arguments):
    subprocess.run(["git", "-c", "user.email=test@example.com", "-c", "user.name=Test", "-c", "commit.gpgsign=false", *arguments],
                   cwd=repository, check=True, capture_output=True)


def diff(path):
    return json.loads(subprocess.run([str(BINARY), "diff", str(path), "--format", "json"], check=True,
                                     capture_output=True, text=True).stdout)


def test_changesPage_playsBothVersions_linked_eachAsRowmotionDiffReportsIt(driver, tmp_path):
    repository = tmp_path / "docs"
    repository.mkdir()
    for folder in ("site", "examples"):
        shutil.copytree(ROOT / folder, repository / folder)
    git(repository, "init", "-q")
    git(repository, "add", "-A")
    git(repository, "commit", "-q", "-m", "docs")
    before = tmp_path / "messenger-before.yml"
    shutil.copy(repository / "examples" / "messenger.yml", before)
    text = before.read_text()
    assert OLD in text
    (repository / "examples" / "messenger.yml").write_text(text.replace(OLD, NEW, 1))
    result = subprocess.run([str(BINARY), "build", "--baseline", "HEAD"], cwd=repository, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr

    driver.get((repository / "_site" / "changes.html").as_uri())
    blocks = driver.find_elements(By.CSS_SELECTOR, "[data-rowmotion-change]")
    assert [block.get_attribute("data-rowmotion-change") for block in blocks] == ["messenger.yml"]
    players = blocks[0].find_elements(By.CSS_SELECTOR, "[data-rowmotion-player]")
    assert [p.get_attribute("data-rowmotion-player") for p in players] == ["messenger.yml", "messenger.yml"]
    every = driver.find_elements(By.CSS_SELECTOR, "[data-rowmotion-player]")
    indexes = [every.index(p) for p in players]

    reports = [diff(before), diff(repository / "examples" / "messenger.yml")]
    # Each player's data holds the batches its version's diff reports.
    for player, report in zip(players, reports):
        data = json.loads(player.find_element(By.CSS_SELECTOR, "script.rowmotion-data").get_attribute("textContent"))
        assert [len(step["batches"]) for step in data["steps"]] == [len(step["batches"]) for step in report["steps"]]
        for step, reported in zip(data["steps"], report["steps"]):
            assert [batch["rows"] for batch in step["batches"]] == [batch["rows"] for batch in reported["batches"]]
    assert [len(s["batches"]) for s in reports[0]["steps"]] != [len(s["batches"]) for s in reports[1]["steps"]]

    # A reviewer starts where it changed (issue 30, item 4): both players
    # open at step 2, the first that animates differently, and each
    # filmstrip has scrolled its outlined frame of step 2 into view.
    opened = driver.execute_script("return arguments[0].map((i) => window.Rowmotion.players[i].step)", indexes)
    assert opened == [2, 2]
    figures = blocks[0].find_elements(By.CSS_SELECTOR, ".change-filmstrips figure")
    assert len(figures) == 2
    for figure in figures:
        seen = driver.execute_script("""
            const figure = arguments[0], mark = figure.querySelector('.filmstrip-mark'), image = figure.querySelector('img');
            const box = figure.getBoundingClientRect(), outline = mark.getBoundingClientRect();
            return {step: mark.dataset.step, scrolled: figure.scrollLeft, wider: figure.scrollWidth > figure.clientWidth,
                    inView: outline.left >= box.left && outline.right <= box.right, drawnAt: image.getBoundingClientRect().width,
                    natural: image.naturalWidth};
        """, figure)
        assert seen["step"] == "2" and seen["wider"] and seen["scrolled"] > 0 and seen["inView"], seen
        assert seen["drawnAt"] == seen["natural"], "the outline is placed in the filmstrip's own pixels"
    driver.execute_async_script("""
        const [indexes, done] = arguments;
        Promise.all(indexes.map((i) => window.Rowmotion.players[i].goTo(0))).then(() => done());
    """, indexes)

    # Driving the current player drives the baseline; each settles on its own version's target.
    for number in range(1, len(reports[1]["steps"]) + 1):
        settled = driver.execute_async_script(SETTLE, list(reversed(indexes)), "next")
        assert "error" not in settled, settled
        for which, report, player in zip(("baseline", "current"), reports, settled):
            assert player["step"] == number, (which, player)
            assert player["state"] == report["steps"][number - 1]["batches"][-1]["after"], (which, number)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    blocks[0].screenshot(str(SCREENSHOTS / "changes-settled.png"))

    # axe-core on the page: nothing of any impact.
    every = all_violations(driver)
    record_figures("axe changes.html", {impact: sum(v["impact"] == impact for v in every)
                                        for impact in ("critical", "serious", "moderate", "minor")})
    assert every == [], json.dumps(every, indent=1)

    # And back from the baseline: the current player follows.
    settled = driver.execute_async_script(SETTLE, indexes, "prev")
    assert [player["step"] for player in settled] == [len(reports[1]["steps"]) - 1] * 2
    assert settled[0]["state"] == reports[0]["steps"][-2]["batches"][-1]["after"]
    assert settled[1]["state"] == reports[1]["steps"][-2]["batches"][-1]["after"]
