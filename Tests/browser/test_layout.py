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
