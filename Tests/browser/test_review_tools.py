"""The reviewing tools: which batch is playing, speeds down to 0.1× that
reach the batch already playing, holding and scrubbing a step, explicit
moves highlighted apart from rows that only shift, and the reloadData()
pane jumping when a step starts."""
import subprocess

from conftest import ROOT, SITE

MESSENGER = SITE / "examples" / "messenger.html"


def test_the_playing_batch_is_shown_by_its_role(driver):
    driver.get(MESSENGER.as_uri())
    lines = driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        const player = window.Rowmotion.players[0];
        const line = player.element.querySelector('.rowmotion-batch');
        const seen = [];
        player.element.addEventListener('rowmotion:batch', () => requestAnimationFrame(() => seen.push(line.textContent)));
        player.next().then(() => done({seen: seen, after: line.textContent}));
    """)
    assert lines["seen"] == ["batch 1 of 2: structural", "batch 2 of 2: deferred reloads"], lines
    assert lines["after"] == "next: 2 batches", lines   # step 2 defers a reload too


def test_a_speed_change_reaches_the_batch_already_playing_and_goes_down_to_a_tenth(driver):
    driver.get(MESSENGER.as_uri())
    options = driver.execute_script("return Array.from(document.querySelectorAll('.rowmotion-controls select option')).map((o) => o.value)")
    assert options[0] == "0.1"
    rates = driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        const player = window.Rowmotion.players[0];
        const select = player.element.querySelector('.rowmotion-controls select');
        player.element.addEventListener('rowmotion:batch', () => {
          select.value = '0.1';
          select.dispatchEvent(new Event('change'));
          const list = player.element.querySelector('.rowmotion-sections');
          done(list.getAnimations({subtree: true}).map((a) => a.playbackRate));
        }, {once: true});
        player.next();
    """)
    assert rates and all(abs(rate - 0.1) < 1e-9 for rate in rates), rates


def test_holding_a_step_freezes_every_animation_at_the_chosen_moment(driver):
    driver.get(MESSENGER.as_uri())
    held = driver.execute_script("""
        const player = window.Rowmotion.players[0];
        player.hold(0.5);
        const list = player.element.querySelector('.rowmotion-sections');
        const animations = list.getAnimations({subtree: true});
        return {states: animations.map((a) => a.playState), times: animations.map((a) => a.currentTime),
                slider: player.element.querySelector('.rowmotion-scrub input').value,
                line: player.element.querySelector('.rowmotion-batch').textContent, step: player.step};
    """)
    assert held["states"] and set(held["states"]) == {"paused"}, held
    assert all(abs(t - 150) < 1 for t in held["times"]), held   # half of a 300 ms batch
    assert held["slider"] == "250" and held["step"] == 0, held   # batch 1 of 2, half-way
    assert held["line"].endswith("(held)")
    # A frame forward moves every animation by one 60 Hz frame.
    driver.find_element("css selector", '.rowmotion-scrub button[aria-label="Forward one frame"]').click()
    times = driver.execute_script("""
        return window.Rowmotion.players[0].element.querySelector('.rowmotion-sections').getAnimations({subtree: true}).map((a) => a.currentTime);
    """)
    assert all(abs(t - 150 - 1000 / 60) < 1 for t in times), times
    # Play settles normally afterwards.
    state = driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        const player = window.Rowmotion.players[0];
        player.next().then(() => done({step: player.step, ghosts: player.element.querySelectorAll('.rowmotion-ghost').length}));
    """)
    assert state == {"step": 1, "ghosts": 0}


def test_explicit_moves_can_be_highlighted_apart_from_rows_that_shift(driver):
    driver.get(MESSENGER.as_uri())
    driver.find_element("xpath", "//label[contains(., 'highlight moves')]/input").click()
    marked = driver.execute_script("""
        const player = window.Rowmotion.players[0];
        player.hold(0.5);
        return Array.from(player.element.querySelectorAll('[data-moving]')).map((row) => ({
          id: row.getAttribute('data-item-id'), outline: getComputedStyle(row).outlineStyle}));
    """)
    assert marked == [{"id": "carol", "outline": "solid"}], marked


def test_the_reload_data_pane_jumps_when_the_step_starts(driver, tmp_path):
    (tmp_path / "site").mkdir()
    (tmp_path / "examples").mkdir()
    (tmp_path / "examples" / "messenger.yml").write_text((ROOT / "examples" / "messenger.yml").read_text())
    (tmp_path / "site" / "index.md").write_text("# Compare\n\n```rowmotion\nexample: messenger.yml\ncompare: reloadData\n```\n")
    subprocess.run([str(ROOT / ".build" / "debug" / "rowmotion"), "build", "--site", "site", "--examples", "examples", "--out", "_site"],
                   cwd=tmp_path, check=True, capture_output=True)
    driver.get((tmp_path / "_site" / "index.html").as_uri())
    seen = driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        const player = window.Rowmotion.players[0];
        const pane = player.element.querySelector('[data-compare-pane]');
        const ids = () => Array.from(pane.querySelectorAll('[data-item-id]')).map((r) => r.getAttribute('data-item-id'));
        player.element.addEventListener('rowmotion:batch', () => done({atStart: ids(), step: player.step}), {once: true});
        player.next();
    """)
    assert seen == {"atStart": ["carol", "alice", "dave", "erin"], "step": 0}, seen
