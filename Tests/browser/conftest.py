"""A real headless Chromium (Debian's, or Google Chrome on macOS), driven
through the platform's chromedriver (see chrome.py)."""
import os
import subprocess
from pathlib import Path

import pytest

from chrome import new_browser

ROOT = Path(__file__).resolve().parents[2]
SITE = Path(os.environ.get("ROWMOTION_SITE", ROOT / ".build" / "strict-site"))
BINARY = Path(os.environ.get("ROWMOTION_BINARY", ROOT / ".build" / "debug" / "rowmotion"))
SCREENSHOTS = ROOT / ".build" / "browser-screenshots"


@pytest.fixture(scope="session")
def driver():
    browser = new_browser(extra_arguments=("--allow-file-access-from-files",), logging=True)
    # A script waits for its promise (axe's run, a step's end): this only
    # bounds one that never settles. axe over the 1,000-row page took over
    # 30 s while two builds and a fuzz run shared the machine's two cores.
    browser.set_script_timeout(180)
    yield browser
    browser.quit()


@pytest.fixture(scope="session")
def rowmotion():
    """Runs the built rowmotion binary from the repository's root."""
    def run(*arguments):
        return subprocess.run([str(BINARY), *arguments], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    return run


def build_site(folder, name, sequence, page):
    """A project in `folder` with one example `name` (a sequence, written as
    JSON) and `site/index.md` holding `page`, built --strict into
    folder/_site, which is returned."""
    import json
    (folder / "site").mkdir(parents=True)
    (folder / "examples").mkdir()
    (folder / "site" / "index.md").write_text(page)
    (folder / "examples" / name).write_text(json.dumps(sequence))
    subprocess.run([str(BINARY), "build", "--strict", "--site", "site", "--examples", "examples", "--out", "_site"],
                   cwd=folder, check=True, capture_output=True, text=True)
    return folder / "_site"


REPORT = ROOT / ".build" / "browser-report.json"


def record_figures(key, figures):
    """Adds figures under `key` to the browser report (printed at the end of
    the run): measured, never asserted."""
    import json
    known = json.loads(REPORT.read_text()) if REPORT.exists() else {}
    known[key] = figures
    REPORT.parent.mkdir(parents=True, exist_ok=True)
    REPORT.write_text(json.dumps(known, sort_keys=True))


def pytest_sessionstart(session):
    REPORT.unlink(missing_ok=True)


def pytest_terminal_summary(terminalreporter):
    """Prints the figures the browser tests measure (see test_animation.py)."""
    if REPORT.exists():
        terminalreporter.write_line(f"browser figures: {REPORT.read_text()}")
