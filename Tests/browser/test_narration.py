"""What happens, in words, on screen (issue 29, item 5): held mid-step, each
row that changes is labelled with its old and new index paths and the call
that takes it there; hovering a call in the page's step list marks the rows
it names in the player, and hovering a row marks its calls. The expected
labels are worked out here by hand from the snapshots (IndexPath(row:
section:) as UIKit numbers them), not by the player's code."""
from selenium.webdriver.common.action_chains import ActionChains

from conftest import SCREENSHOTS, build_site


def row(id, value="1"):
    return {"id": id, "title": id.upper(), "value": value}


OTHER = {"id": "other", "header": "Other", "items": [row("z")]}
SEQUENCE = {
    "title": "Narrated",
    "steps": [
        {"label": "Five rows", "sections": [{"id": "main", "header": "Main", "items": [row(x) for x in "abcde"]}, OTHER]},
        # b deleted, d to the top, f inserted at the end: one batch.
        {"label": "Shuffle", "sections": [{"id": "main", "header": "Main", "items": [row(x) for x in "dacef"]}, OTHER]},
        # c's value changes in place: a reload.
        {"label": "C changes", "sections": [{"id": "main", "header": "Main", "items": [row("d"), row("a"), row("c", "2"), row("e"), row("f")]}, OTHER]},
        # The two sections change places: one section move.
        {"label": "Swap", "sections": [OTHER, {"id": "main", "header": "Main", "items": [row("d"), row("a"), row("c", "2"), row("e"), row("f")]}]},
    ],
}


def build(tmp_path):
    page = "# Narration\n\n```rowmotion\nexample: narrated.json\n```\n"
    return build_site(tmp_path, "narrated.json", SEQUENCE, page) / "examples" / "narrated.html"


def go(driver, step):
    driver.execute_async_script("const done = arguments[arguments.length - 1];"
                                "window.Rowmotion.players[0].goTo(arguments[0]).then(() => done())", step)


# Holds the next step at `fraction` through the scrubber and reads each
# row's label as drawn (the ::before content), ghosts included.
HOLD = """
const [fraction, done] = arguments;
const player = window.Rowmotion.players[0];
const scrubber = player.element.querySelector('.rowmotion-scrub input[type=range]');
scrubber.value = String(Math.round(fraction * 1000));
scrubber.dispatchEvent(new Event('input', {bubbles: true}));
requestAnimationFrame(() => requestAnimationFrame(() => {
  const labels = {};
  player.element.querySelectorAll('.rowmotion-row').forEach((el) => {
    const id = el.getAttribute('data-item-id') || ('ghost ' + el.getAttribute('data-ghost-of'));
    const content = getComputedStyle(el, '::before').content;
    labels[id] = content === 'none' || content === 'normal' ? null : JSON.parse(content);
  });
  done(labels);
}));
"""


def held_labels(driver, fraction=0.5):
    return driver.execute_async_script(HOLD, fraction)


def test_held_rows_say_their_index_paths_and_calls(driver, tmp_path):
    driver.get(build(tmp_path).as_uri())
    labels = held_labels(driver)
    assert labels == {
        "d": "[0, 3] → [0, 0] moveRow",
        "a": "[0, 0] → [0, 1]",          # shifted by the move, no call of its own
        "c": None,                        # [0, 2] before and after
        "e": "[0, 4] → [0, 3]",
        "f": "→ [0, 4] insertRows",
        "z": None,
        "ghost b": "[0, 1] → deleteRows",
    }, labels
    driver.save_screenshot(str(SCREENSHOTS / "narration-held.png"))
    # Played on, the step settles and the labels go.
    go(driver, 1)
    assert all(label is None for label in held_labels_settled(driver).values())

    labels = held_labels(driver)
    assert labels["c"] == "[0, 2] reloadRows", labels
    assert [labels[x] for x in "dae"] == [None, None, None], labels

    go(driver, 2)
    labels = held_labels(driver)
    # Whichever section the engine moves, every row says where it goes,
    # and the moved section's rows say moveSection.
    assert labels["z"].startswith("[1, 0] → [0, 0]"), labels
    for k, x in enumerate("dacef"):
        assert labels[x].startswith(f"[0, {k}] → [1, {k}]"), labels
    assert any(label and label.endswith("moveSection") for label in labels.values()), labels


def held_labels_settled(driver):
    return driver.execute_script("""
        const out = {};
        window.Rowmotion.players[0].element.querySelectorAll('.rowmotion-row').forEach((el) => {
          const content = getComputedStyle(el, '::before').content;
          out[el.getAttribute('data-item-id')] = content === 'none' || content === 'normal' ? null : content;
        });
        return out;""")


def hovered(driver):
    return driver.execute_script("""
        return Array.from(document.querySelectorAll('[data-hovered]')).map((el) =>
          el.classList.contains('call-line') ? 'call: ' + el.textContent.trim()
            : (el.getAttribute('data-item-id') || 'section ' + el.getAttribute('data-section-id')));""")


def test_hovering_a_call_marks_its_rows_and_hovering_a_row_marks_its_calls(driver, tmp_path):
    driver.get(build(tmp_path).as_uri())
    driver.set_window_size(1280, 1000)
    calls = driver.find_element("css selector", "#step-1 pre.swift-calls")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", calls)
    ActionChains(driver).move_to_element(calls).perform()
    lines = calls.find_elements("css selector", ".call-line")
    texts = [line.text.strip() for line in lines]
    assert len(lines) == 3 and "deleteRows" in texts[0] and "insertRows" in texts[1] and "moveRow" in texts[2], texts

    # Before the step, the list holds b and d: the delete names b, the move d.
    ActionChains(driver).move_to_element(lines[2]).perform()
    assert sorted(hovered(driver)) == sorted(["call: " + texts[2], "d"])
    ActionChains(driver).move_to_element(lines[0]).perform()
    assert sorted(hovered(driver)) == sorted(["call: " + texts[0], "b"])
    driver.save_screenshot(str(SCREENSHOTS / "narration-hover-call.png"))

    # After it, f is there for the insert to name; and back: the row d in
    # the list marks the moveRow line of the step it shows.
    go(driver, 1)
    ActionChains(driver).move_to_element(lines[1]).perform()
    assert sorted(hovered(driver)) == sorted(["call: " + texts[1], "f"])
    d = driver.find_element("css selector", "[data-rowmotion-player] [data-item-id='d']")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", d)
    ActionChains(driver).move_to_element(d).perform()
    assert sorted(hovered(driver)) == sorted(["call: " + texts[2], "d"])
    # A row no call of the step names marks nothing.
    ActionChains(driver).move_to_element(driver.find_element("css selector", "[data-rowmotion-player] [data-item-id='a']")).perform()
    assert hovered(driver) == []
