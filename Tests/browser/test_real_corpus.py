"""A documentation site as real ones are written (Hugo's, GitHub's, mdBook's),
generated here with every feature issue 17 names: unknown front matter keys,
TOML front matter, `_index.md` and `README.md` section pages (the root one the
home page), folders four deep, a folder of 150 pages, natural order
(SE-0002 before SE-0010), percent-encoded file names, root-absolute and
`?query` links, repeated headings, `<a name>` anchors, GFM tables, a page
that starts with a thematic break, comment-only front matter. It must build
with --strict (no warning at all), and read well in Chromium at 1,280 and at
390 px: the current entry visible in a sidebar that stays in place, content
first on a phone with the navigation one tap away, search that finds a page
from file://."""
import random
import re
import subprocess
import tempfile
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from chrome import new_browser
from conftest import BINARY, record_figures

WORDS = ["list", "row", "section", "batch", "update", "snapshot", "identity", "move", "insert", "delete", "reload",
         "table", "cell", "index", "diff", "engine", "page", "theme"]


def write(root, path, text):
    file = root / "site" / path
    file.parent.mkdir(parents=True, exist_ok=True)
    file.write_text(text, encoding="utf-8")


def make_corpus(root, seed=17):
    rng = random.Random(seed)

    def sentence(n):
        return " ".join(rng.choice(WORDS) for _ in range(n)).capitalize() + "."

    (root / "examples").mkdir(parents=True)
    write(root, "README.md", "# Handbook\n\nStart with [the docs](docs/) or [the guide](guide/README.md).\n")
    write(root, "docs/_index.md", '+++\ntitle = "Documentation"\nweight = 1\nkeywords = ["docs", "guide"]\n'
                                  'categories = "reference"\n+++\nThe documentation.\n')
    write(root, "docs/getting-started/index.md",
          "---\ntitle: Getting started\nlinkTitle: Start\nweight: 1\naliases: [/start/]\ntags: [intro]\n---\n"
          "Read [the deep page](/docs/a/b/c/d/page-1.md) and [a spaced one](../sub%20dir/my%20page.md?tab=2).\n")
    write(root, "docs/sub dir/my page.md", "# My page\n\n<a name=\"legacy\"></a>Old anchor.\n\n"
                                           + "\n\n".join(sentence(30) for _ in range(40)) + "\n")
    for depth_page in range(1, 4):
        filler = "\n\n".join(sentence(30) for _ in range(12))
        write(root, f"docs/a/b/c/d/page-{depth_page}.md",
              f"# Deep page {depth_page}\n\nSee [the second](#example-1) and [the legacy anchor](/docs/sub%20dir/my%20page.md#legacy).\n\n"
              f"## Example\n\nFirst. {filler}\n\n## Example\n\nSecond. {filler}\n\n## Example\n\nThird. {filler}\n")
    write(root, "docs/a/_index.md", "---\n# only a comment\n---\n# Section A\n\nFour folders below.\n")
    write(root, "guide/README.md", "---\ntitle: The guide\n---\nNo heading of its own: the title is shown.\n\n"
                                   "| Option | Default | Meaning |\n| :-- | :-: | --: |\n| `--strict` | off | warnings fail |\n"
                                   "| `--base-url` | `/` | links under it \\| or not |\n")
    write(root, "guide/rule.md", "---\n\nThis page starts with a thematic break.\n")
    write(root, "guide/hydrate.md", "# Hydration\n\nThe word zyzzyva appears on this page only.\n\n```swift\nlet rows = 3 // comment\n```\n")
    for number in (100, 2, 10, 1, 20):
        write(root, f"proposals/SE-{number:04}.md", f"# SE-{number:04}: {sentence(4)}\n\n{sentence(20)}\n")
    for number in range(150):
        write(root, f"reference/item-{number}.md", f"# Item {number}\n\n{sentence(25)}\n")
    return root


@pytest.fixture(scope="module")
def corpus():
    with tempfile.TemporaryDirectory() as folder:
        root = make_corpus(Path(folder))
        build = subprocess.run([str(BINARY), "build", "--strict", "--no-cache"], cwd=root, capture_output=True, text=True)
        assert build.returncode == 0, build.stderr
        assert build.stderr == "", f"--strict build warned: {build.stderr}"
        yield root / "_site"


def nav_html(page):
    text = page.read_text(encoding="utf-8")
    return text[text.index("<nav"):text.index("</nav>")]


def test_sections_links_and_front_matter_build_as_real_sites_write_them(corpus):
    for output in ["index.html", "docs/index.html", "docs/getting-started/index.html", "guide/index.html",
                   "docs/sub dir/my page.html", "docs/a/b/c/d/page-1.html", "start/index.html", "proposals/SE-0002.html"]:
        assert (corpus / output).exists(), output
    assert "Handbook" in (corpus / "index.html").read_text()
    start = (corpus / "docs/getting-started/index.html").read_text()
    assert 'href="../../docs/a/b/c/d/page-1.html"' in start and 'href="../sub%20dir/my%20page.md?tab=2"' not in start
    assert 'href="../sub%20dir/my%20page.html?tab=2"' in start
    deep = (corpus / "docs/a/b/c/d/page-1.html").read_text()
    assert ['example', 'example-1', 'example-2'] == re.findall(r'<h2 id="([^"]+)"', deep)
    guide = (corpus / "guide/index.html").read_text()
    assert "<h1>The guide</h1>" in guide
    assert '<th align="center">Default</th>' in guide and "links under it | or not" in guide
    assert "<hr />" in (corpus / "guide/rule.html").read_text()
    assert 'class="hl-keyword">let</span>' in (corpus / "guide/hydrate.html").read_text()


def test_navigation_is_a_tree_in_natural_order_bounded_by_the_path(corpus):
    proposals = nav_html(corpus / "proposals/SE-0010.html")
    assert re.findall(r">SE-(\d+):", proposals) == ["0001", "0002", "0010", "0020", "0100"]
    deep = nav_html(corpus / "docs/a/b/c/d/page-2.html")
    for entry in (">Documentation<", ">Section A<", ">B<", ">C<", ">D<", ">Deep page 2<"):
        assert entry in deep, entry
    assert "item-7.html" not in deep, "a folder off the path stays collapsed"
    assert deep.count("<li") < 30
    weights = [len(nav_html(page).encode()) for page in corpus.rglob("*.html")
               if "<nav" in page.read_text(encoding="utf-8") and "Redirecting" not in page.read_text(encoding="utf-8")]
    record_figures("real_corpus_nav_bytes", {"max": max(weights), "median": sorted(weights)[len(weights) // 2],
                                             "pages": len(weights)})
    # The 150-item folder's pages carry it; no page carries the whole site.
    assert max(weights) < 40_000


def visible_in(driver, element, container):
    return driver.execute_script("""
        const [e, c] = arguments; const a = e.getBoundingClientRect(), b = c.getBoundingClientRect();
        return a.height > 0 && a.top >= b.top - 1 && a.bottom <= b.bottom + 1 && a.top >= 0 && a.bottom <= window.innerHeight;
    """, element, container)


def test_desktop_sidebar_shows_the_current_entry_and_stays_in_place(driver, corpus):
    driver.set_window_size(1280, 800)
    driver.get((corpus / "reference/item-140.html").as_uri())
    nav = driver.find_element(By.CSS_SELECTOR, ".site-nav")
    current = nav.find_element(By.CSS_SELECTOR, '[aria-current="page"]')
    assert current.text == "Item 140"
    assert driver.execute_script("return arguments[0].scrollHeight > arguments[0].clientHeight", nav), "the nav scrolls on its own"
    assert visible_in(driver, current, nav), "the current entry is scrolled into view"
    driver.get((corpus / "docs/sub dir/my page.html").as_uri())
    driver.execute_script("window.scrollTo(0, 2000)")
    nav = driver.find_element(By.CSS_SELECTOR, ".site-nav")
    assert driver.execute_script("return window.scrollY") > 500
    assert abs(driver.execute_script("return arguments[0].getBoundingClientRect().top", nav)) < 1, "the sidebar stays in place"
    assert not driver.find_element(By.CSS_SELECTOR, ".site-nav-button").is_displayed()


def test_name_anchors_and_repeated_headings_are_targets(driver, corpus):
    driver.set_window_size(1280, 800)
    driver.get((corpus / "docs/sub dir/my page.html").as_uri() + "#legacy")
    assert driver.execute_script("return document.getElementsByName('legacy')[0].getBoundingClientRect().top") < 100
    driver.get((corpus / "docs/a/b/c/d/page-3.html").as_uri())
    driver.find_element(By.LINK_TEXT, "the second").click()
    assert driver.current_url.endswith("#example-1")
    assert driver.execute_script("return document.getElementById('example-1').getBoundingClientRect().top") < 100


def test_search_finds_a_page_from_file_urls(driver, corpus):
    driver.set_window_size(1280, 800)
    driver.get((corpus / "reference/item-3.html").as_uri())
    box = driver.find_element(By.CSS_SELECTOR, ".site-search-input")
    box.send_keys("zyzzyva")
    WebDriverWait(driver, 10).until(lambda d: d.find_elements(By.CSS_SELECTOR, ".site-search-results a"))
    results = driver.find_elements(By.CSS_SELECTOR, ".site-search-results a")
    assert [r.text for r in results] == ["Hydration"]
    results[0].click()
    assert driver.current_url.endswith("/guide/hydrate.html")
    box = driver.find_element(By.CSS_SELECTOR, ".site-search-input")
    box.send_keys("example")
    WebDriverWait(driver, 10).until(lambda d: d.find_elements(By.CSS_SELECTOR, ".site-search-results a"))
    first = driver.find_elements(By.CSS_SELECTOR, ".site-search-results a")[0]
    assert "›" in first.text and "#example" in first.get_attribute("href"), "a heading match links to its section"


def test_phone_puts_content_first_with_the_navigation_a_tap_away(driver, corpus):
    driver.set_window_size(390, 844)
    try:
        driver.get((corpus / "docs/a/b/c/d/page-2.html").as_uri())
        main = driver.find_element(By.CSS_SELECTOR, "main")
        assert driver.execute_script("return arguments[0].getBoundingClientRect().top", main) < 120, "content first"
        tree = driver.find_element(By.CSS_SELECTOR, ".site-nav-tree")
        assert not tree.is_displayed()
        assert driver.execute_script("return document.documentElement.scrollWidth") <= 390, "nothing scrolls sideways"
        button = driver.find_element(By.CSS_SELECTOR, ".site-nav-button")
        size = button.size
        assert size["height"] >= 44 and size["width"] >= 44
        button.click()
        assert tree.is_displayed()
        current = tree.find_element(By.CSS_SELECTOR, '[aria-current="page"]')
        assert current.text == "Deep page 2"
        tree.find_element(By.LINK_TEXT, "Section A").click()
        assert driver.current_url.endswith("/docs/a/index.html")
    finally:
        driver.set_window_size(1200, 1000)


def test_phone_navigation_works_without_javascript(corpus):
    """The Menu button is a label for a checkbox: no script involved."""
    browser = new_browser(window_size="390,844", prefs={"profile.managed_default_content_settings.javascript": 2})
    try:
        browser.get((corpus / "guide/rule.html").as_uri())
        assert not browser.find_element(By.CSS_SELECTOR, ".site-search").is_displayed(), "search needs the script: hidden"
        browser.find_element(By.CSS_SELECTOR, ".site-nav-button").click()
        assert browser.find_element(By.CSS_SELECTOR, ".site-nav-tree").is_displayed()
    finally:
        browser.quit()
