"""macOS is a first-class platform although CI runs Linux: the installer's
Homebrew branch is run here with `brew` faked on PATH, and the browser tests
look for Chrome and Homebrew's chromedriver there."""
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "Tests" / "browser"))
import chrome  # noqa: E402

INSTALL = ROOT / "scripts" / "install-deps.sh"


def fake_brew(folder, installed=()):
    """A `brew` that logs its calls and knows `installed` as present."""
    log = folder / "brew.log"
    script = folder / "brew"
    known = " ".join(installed)
    script.write_text(f"""#!/bin/sh
echo "brew $*" >> "{log}"
if [ "$1" = list ]; then for k in {known}; do [ "$k" = "${{3:-$2}}" ] && exit 0; done; exit 1; fi
exit 0
""")
    script.chmod(0o755)
    return log


def run_install(folder, *packages, path=None):
    env = dict(os.environ, ROWMOTION_PLATFORM="Darwin", PATH=path or f"{folder}:/usr/bin:/bin")
    return subprocess.run(["/bin/sh", str(INSTALL), *packages], env=env, capture_output=True, text=True)


def test_on_macos_the_packages_come_from_homebrew_by_their_names_there(tmp_path):
    log = fake_brew(tmp_path, installed=["node"])
    result = run_install(tmp_path, "libcmark-dev", "cmark", "nodejs", "python3-venv", "chromium", "chromium-driver")
    assert result.returncode == 0, result.stderr
    calls = log.read_text().splitlines()
    installs = [call for call in calls if call.startswith("brew install")]
    assert installs == ["brew install cmark", "brew install --cask google-chrome", "brew install --cask chromedriver"], calls
    assert not any("apt" in call for call in calls)


def test_on_macos_without_homebrew_it_says_exactly_what_to_install(tmp_path):
    result = run_install(tmp_path, "libcmark-dev", "nodejs", path="/nonexistent")
    assert result.returncode == 1
    assert "Homebrew (https://brew.sh) is needed to install cmark, node" in result.stderr


def test_the_browser_tests_find_chrome_and_its_driver_on_macos(monkeypatch):
    monkeypatch.delenv("ROWMOTION_CHROME", raising=False)
    monkeypatch.delenv("ROWMOTION_CHROMEDRIVER", raising=False)
    binary, driver = chrome.paths("Darwin")
    assert binary == "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome"
    assert driver.endswith("chromedriver")
    assert chrome.paths("Linux") == ("/usr/bin/chromium", "/usr/bin/chromedriver")


def test_ccmark_names_a_homebrew_provider_beside_apt():
    manifest = (ROOT / "Package.swift").read_text()
    assert '.brew(["cmark"])' in manifest and '.apt(["libcmark-dev"])' in manifest


def test_make_deps_on_macos_goes_through_homebrew(tmp_path):
    """The Makefile's own branch: `make deps` on a (faked) Mac."""
    log = fake_brew(tmp_path)
    env = dict(os.environ, ROWMOTION_PLATFORM="Darwin", PATH=f"{tmp_path}:{os.environ['PATH']}")
    result = subprocess.run(["make", "-s", "--no-print-directory", "deps", "APT_PACKAGES=libcmark-dev nodejs"], cwd=ROOT, env=env,
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert [call for call in log.read_text().splitlines() if call.startswith("brew install")] == ["brew install cmark", "brew install node"]
