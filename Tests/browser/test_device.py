"""The player as an iPhone's table view (issue 29), in Chromium, held
mid-step: a batch's change is scrolled into sight before it plays; the list
takes the size and table style a sequence asks for (`height:`, `width:`,
`style:`); a sequence's own `duration:` and `spring:` time its batches as
UIView.animate(withDuration:delay:usingSpringWithDamping:initialSpringVelocity:)
would. Positions are read from the page, and what they should be is worked
out here, not by the player's code."""
import json
import math
import subprocess

import pytest

from conftest import BINARY, SCREENSHOTS


def build(tmp_path, sequence, page="# Device\n\n```rowmotion\nexample: inbox.json\n```\n"):
    (tmp_path / "site").mkdir()
    (tmp_path / "examples").mkdir()
    (tmp_path / "site" / "index.md").write_text(page)
    (tmp_path / "examples" / "inbox.json").write_text(json.dumps(sequence))
    subprocess.run([str(BINARY), "build", "--strict", "--site", "site", "--examples", "examples", "--out", "_site"],
                   cwd=tmp_path, check=True, capture_output=True, text=True)
    return tmp_path / "_site" / "index.html"


def mail(id, sender, subject):
    return {"id": id, "sender": sender, "subject": subject}


TODAY = {"id": "today", "header": "Today", "items": [mail("m1", "Ana", "Lunch?"), mail("m2", "Ben", "Invoice"), mail("m3", "Cy", "Photos")]}
YESTERDAY = {"id": "yesterday", "header": "Yesterday", "items": [mail("m4", "Dee", "Trip"), mail("m5", "Eve", "Notes")]}
MONDAY = {"id": "monday", "header": "Monday", "items": [mail("m6", "Fay", "Plans"), mail("m7", "Gus", "Receipt")]}
# The seven-row inbox of the issue, in a list too short for it.
INBOX = {
    "title": "Inbox", "height": 300, "cell": {"style": "subtitle", "title": "sender", "subtitle": "subject"},
    "steps": [
        {"label": "Three days", "sections": [TODAY, YESTERDAY, MONDAY]},
        {"label": "Monday goes away", "sections": [TODAY, YESTERDAY]},
        {"label": "A new mail today", "sections": [{**TODAY, "items": [mail("m0", "Zoe", "Hello")] + TODAY["items"]}, YESTERDAY]},
    ],
}

# Holds the player's next step at `fraction` of it through the scrubber, as
# a user would, and returns where things are then.
HOLD = """
const [fraction, done] = arguments;
const player = window.Rowmotion.players[0];
const scrubber = player.element.querySelector('.rowmotion-scrub input[type=range]');
let detail = null;
player.element.addEventListener('rowmotion:batch', (event) => { detail = event.detail; }, {once: true});
scrubber.value = String(Math.round(fraction * 1000));
scrubber.dispatchEvent(new Event('input', {bubbles: true}));
requestAnimationFrame(() => requestAnimationFrame(() => {
  const list = player.element.querySelector('.rowmotion-list');
  const box = list.getBoundingClientRect();
  const seen = (el) => {
    const r = el.getBoundingClientRect(), style = getComputedStyle(el);
    return r.bottom > box.top + 1 && r.top < box.bottom - 1 && Number(style.opacity) > 0.05;
  };
  const parts = Array.from(list.querySelectorAll('.rowmotion-row, .rowmotion-header')).map((el) => ({
    id: el.getAttribute('data-item-id'), text: el.textContent, ghost: el.classList.contains('rowmotion-ghost'),
    top: el.getBoundingClientRect().top - box.top, seen: seen(el)}));
  // The timing of what runs, as the browser holds it.
  const timings = list.getAnimations({subtree: true}).map((a) => a.effect.getTiming());
  done({scrollTop: list.scrollTop, height: box.height, parts: parts,
        scrolledTo: detail ? detail.scrolledTo : undefined,
        easings: Array.from(new Set(timings.map((t) => t.easing))), durations: Array.from(new Set(timings.map((t) => t.duration)))});
}));
"""


def hold(driver, fraction):
    return driver.execute_async_script(HOLD, fraction)


def go(driver, step):
    driver.execute_async_script("const done = arguments[arguments.length - 1];"
                                "window.Rowmotion.players[0].goTo(arguments[0]).then(() => done())", step)


@pytest.mark.parametrize("width", [390, 1280])
def test_a_change_below_the_fold_is_scrolled_into_sight_before_the_batch_plays(driver, tmp_path, width):
    """Issue 29, item 1: "Monday goes away" deleted a section below the
    fold of a list capped in height, and a reviewer pressing Next saw
    nothing move. Held at 25, 50 and 75 %, the leaving Monday rows are on
    screen inside the list; once settled the list stays where it scrolled."""
    page = build(tmp_path, INBOX)
    driver.set_window_size(width, 900)
    driver.get(page.as_uri())
    assert driver.execute_script("return document.querySelector('.rowmotion-list').getBoundingClientRect().height") == pytest.approx(300, abs=1)
    assert driver.execute_script("return document.querySelector('.rowmotion-list').scrollTop") == 0
    for fraction in (0.25, 0.5, 0.75):
        held = hold(driver, fraction)
        assert held["scrollTop"] > 0, held
        leaving = [p for p in held["parts"] if p["ghost"] and ("Fay" in p["text"] or "Gus" in p["text"])]
        assert leaving and any(p["seen"] for p in leaving), json.dumps(held, indent=1)
    (SCREENSHOTS / f"inbox-monday-held-{width}.png").parent.mkdir(parents=True, exist_ok=True)
    driver.save_screenshot(str(SCREENSHOTS / f"inbox-monday-held-{width}.png"))


def test_a_change_already_in_sight_does_not_scroll_the_list(driver, tmp_path):
    """The list is left where the reader put it when something that changes
    can already be seen: a new mail at the top of Today, seen from the top."""
    page = build(tmp_path, INBOX)
    driver.set_window_size(1280, 900)
    driver.get(page.as_uri())
    go(driver, 1)
    driver.execute_script("document.querySelector('.rowmotion-list').scrollTop = 0")
    held = hold(driver, 0.5)
    assert held["scrollTop"] == 0 and held["scrolledTo"] is None, held


def test_a_change_above_the_top_scrolls_up_to_it(driver, tmp_path):
    """Scrolled to the bottom, a mail arriving at the top of Today is
    brought into sight: the list scrolls up to it."""
    page = build(tmp_path, INBOX)
    driver.set_window_size(1280, 900)
    driver.get(page.as_uri())
    go(driver, 1)
    driver.execute_script("const l = document.querySelector('.rowmotion-list'); l.scrollTop = l.scrollHeight")
    assert driver.execute_script("return document.querySelector('.rowmotion-list').scrollTop") > 0
    held = hold(driver, 0.5)
    assert held["scrollTop"] == 0, held
    arriving = [p for p in held["parts"] if p["id"] == "m0"]
    assert arriving and arriving[0]["seen"], held


def spring_progress(damping, velocity, seconds, p):
    """x(s) of a damped oscillator from 0 to 1 whose swing has died to 0.1 %
    at the end of the duration, with x'(0) = velocity distances per second."""
    if p >= 1:
        return 1.0
    omega = math.log(1000) / (damping * seconds)
    s = p * seconds
    if damping >= 1:
        return 1 - math.exp(-omega * s) * (1 + (omega - velocity) * s)
    damped = omega * math.sqrt(1 - damping ** 2)
    return 1 - math.exp(-damping * omega * s) * (math.cos(damped * s) + (damping * omega - velocity) / damped * math.sin(damped * s))


@pytest.mark.parametrize("spring", [None, {"damping": 0.5, "velocity": 0}, {"damping": 1, "velocity": 2}])
def test_duration_and_spring_time_every_batch_as_the_sequence_asks(driver, tmp_path, spring):
    """Issue 29, item 8: `duration: 0.6` makes each batch last 0.6 s; a
    `spring:` moves a row along the damped spring UIKit's
    usingSpringWithDamping runs (overshooting its place when the damping
    is under 1), checked at seven held moments; without it, ease-in-out."""
    sequence = {"title": "Timing", "duration": 0.6,
                "steps": [{"items": [{"id": k} for k in "abcdef"]}, {"items": [{"id": k} for k in "bcdefa"]}]}
    if spring:
        sequence["spring"] = spring
    page = build(tmp_path, sequence)
    driver.set_window_size(1280, 900)
    driver.get(page.as_uri())
    top = lambda held: next(p["top"] for p in held["parts"] if p["id"] == "a" and not p["ghost"])
    start, end = top(hold(driver, 0)), top(hold(driver, 1))
    assert end - start > 100
    for p in (0.1, 0.2, 0.3, 0.4, 0.5, 0.7, 0.9):
        held = hold(driver, p)
        assert held["durations"] == [600], held["durations"]
        assert len(held["easings"]) == 1, held["easings"]
        if spring:
            assert held["easings"][0].startswith("linear(")
            expected = start + (end - start) * spring_progress(spring["damping"], spring["velocity"], 0.6, p)
        else:
            assert held["easings"] == ["ease-in-out"]
            expected = None
        if expected is not None:
            assert top(held) == pytest.approx(expected, abs=1.5), f"at {p}: {top(held)} vs {expected}"
    if spring and spring["damping"] < 1:
        # Under-damped: the row passes its place before it settles.
        assert max(top(hold(driver, p / 20)) for p in range(1, 20)) > end + 5


def test_presentation_keys_are_checked_where_they_are_written(tmp_path):
    """A wrong size, style or spring is an error at its value, as swiftc writes it."""
    (tmp_path / "site").mkdir()
    (tmp_path / "examples").mkdir()
    (tmp_path / "site" / "index.md").write_text("# x\n\n```rowmotion\nexample: bad.yml\nheight: 20\n```\n")
    (tmp_path / "examples" / "bad.yml").write_text(
        "style: insetgrouped\nduration: 0\nspring:\n  damping: 2\n  velocty: 1\nsteps:\n  - items: [a]\n")
    result = subprocess.run([str(BINARY), "build", "--site", "site", "--examples", "examples", "--out", "_site"],
                            cwd=tmp_path, capture_output=True, text=True)
    assert result.returncode == 1
    err = result.stderr
    assert "examples/bad.yml:1:8: error: unknown table style 'insetgrouped'; did you mean 'insetGrouped'?" in err, err
    assert "examples/bad.yml:2:11: error: 'duration' must be from 0.05 to 10 (seconds per batch; UIKit's is 0.3), not 0" in err, err
    assert "examples/bad.yml:5:3: error: unknown key 'velocty' in 'spring'" in err, err
    assert "site/index.md:5:9: error: 'height' must be from 120 to 4000" in err, err
    assert not (tmp_path / "_site").exists()
