"""Every page of the project's own site, on a desktop and a phone-sized
window: nothing makes the page scroll sideways (wide code and tables scroll
inside their own box), and a reloadData() comparison sits beside its player
when there is room."""
import pytest

from conftest import SITE

PAGES = sorted(p.relative_to(SITE).as_posix() for p in SITE.rglob("*.html"))


@pytest.mark.parametrize("width", [1200, 390])
def test_no_page_scrolls_sideways(driver, width):
    assert PAGES, f"{SITE} has no pages (make test builds the strict site first)"
    driver.set_window_size(width, 900)
    try:
        wide = []
        for page in PAGES:
            driver.get((SITE / page).as_uri())
            overflow = driver.execute_script("""
                const root = document.documentElement;
                return root.scrollWidth - root.clientWidth;
            """)
            if overflow > 0:
                culprit = driver.execute_script("""
                    const limit = document.documentElement.clientWidth;
                    const all = Array.from(document.querySelectorAll('main *'));
                    const node = all.find((n) => n.getBoundingClientRect().right > limit + 1);
                    return node ? node.tagName + '.' + node.className : '?';
                """)
                wide.append(f"{page}: {overflow}px wider ({culprit})")
        assert not wide, "pages scroll sideways at %dpx:\n" % width + "\n".join(wide)
    finally:
        driver.set_window_size(1200, 1000)


def test_badges_stay_on_one_line_at_phone_width(driver):
    """A step's "2 batches" badge and a cell's badge never wrap inside
    themselves (they did at 390 px)."""
    driver.set_window_size(390, 900)
    try:
        wrapped, seen = [], 0
        for page in [p for p in PAGES if p.startswith("examples/")]:
            driver.get((SITE / page).as_uri())
            for text, height, line in driver.execute_script("""
                return Array.from(document.querySelectorAll('.badge, .cell-badge')).filter((b) => b.textContent.trim()).map((b) =>
                  [b.textContent, b.getBoundingClientRect().height, parseFloat(getComputedStyle(b).lineHeight) ||
                   1.2 * parseFloat(getComputedStyle(b).fontSize)]);"""):
                seen += 1
                if height > 1.6 * line:
                    wrapped.append(f"{page}: '{text}' is {height:.0f}px tall")
        assert seen >= 10, f"only {seen} badges found"
        assert not wrapped, "\n".join(wrapped)
    finally:
        driver.set_window_size(1200, 1000)
