"""What the tests of a virtual list and a virtual grid share: the player
walked through its snapshots (scrolled first, then step by step), each
settled DOM checked by the test's own rule, and a held batch's elements
counted; and the longest task of a page's loads, measured."""
from test_page_weight import traced_load

SETTLE = "const done = arguments[0]; requestAnimationFrame(() => requestAnimationFrame(done))"
NEXT = "const done = arguments[0]; window.Rowmotion.players[0].next().then(() => requestAnimationFrame(() => done()))"


def scroll_list(browser, top):
    browser.execute_script("document.querySelector('.rowmotion-list').scrollTop = arguments[0]", top)
    browser.execute_async_script(SETTLE)


def walk(browser, page, snapshots, dom, problems_of, before_step=None, held_from=0):
    """Problems of the page's player, its DOM read by the script `dom`
    (which returns `state` and `items` among what `problems_of(snap, ids,
    label)` reads): loaded, scrolled far down, then after each step (each
    preceded by `before_step(browser, step, snap)` when given), and held
    mid-way through the step after snapshot `held_from`, where a batch has
    cells for what it shows: a bounded number. Returns (problems, the last snapshot's DOM)."""
    browser.get(page.as_uri())
    snap = browser.execute_script(dom)
    assert snap["state"] == [{"id": "", "items": snapshots[0]}]
    problems = problems_of(snap, snapshots[0], "loaded")
    for scroll in (40_000, 200_000, 10**9):
        scroll_list(browser, scroll)
        problems += problems_of(browser.execute_script(dom), snapshots[0], f"scrolled to {scroll}")
    browser.execute_script("document.querySelector('.rowmotion-list').scrollTop = 0")
    for step in range(1, len(snapshots)):
        if before_step:
            before_step(browser, step, snap)
        browser.execute_async_script(NEXT)
        snap = browser.execute_script(dom)
        if snap["state"] != [{"id": "", "items": snapshots[step]}]:
            problems.append(f"step {step}: state() is not the snapshot")
        problems += problems_of(snap, snapshots[step], f"step {step}")
    browser.execute_async_script("const [k, done] = arguments; window.Rowmotion.players[0].goTo(k).then(() => done())", held_from)
    browser.execute_script("window.Rowmotion.players[0].hold(0.5)")
    held = browser.execute_script("return document.querySelectorAll('[data-item-id], .rowmotion-ghost').length")
    if held > 3 * len(snap["items"]):
        problems.append(f"held: {held} elements")
    return problems, snap


def longest_load_tasks(page):
    """The longest task of each of 3 loads (after one to warm up), sorted."""
    runs = traced_load(page, 4)[1:]
    return sorted(round(max(t["dur"] for t in events if t["name"] == "ThreadControllerImpl::RunTask") / 1000, 1) for events in runs)
