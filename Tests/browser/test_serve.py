"""`rowmotion serve` end to end: a real server on a free port, a client
that reads the live-reload events (Server-Sent Events), and Chromium showing the page
reload, the error overlay and the last good page; then a clean Ctrl-C."""
import hashlib
import json
import os
import queue
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from conftest import BINARY, SCREENSHOTS


def main_text(driver):
    """The page's main text, read in the page: an element found first and
    read after would be stale if the live reload replaced the page between
    the two (it did, once, under load)."""
    return driver.execute_script("const main = document.querySelector('main'); return main ? main.textContent : ''")

EXAMPLE = """title: Tiny
steps:
  - label: Start
    items: [a, b, c]
  - label: C rises
    items: [c, a, b]
"""


class LiveStream:
    """The live-reload stream read as a browser's EventSource reads it: a
    GET, a 200 of `text/event-stream`, then events of `data:` lines."""

    def __init__(self, port):
        self.socket = socket.create_connection(("127.0.0.1", port), timeout=20)
        self.socket.sendall((f"GET /_rowmotion/live HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAccept: text/event-stream\r\n"
                             f"Sec-Fetch-Site: same-origin\r\n\r\n").encode())
        self.buffer = b""
        head = self.read_until(b"\r\n\r\n")
        assert head is not None, f"the server closed the stream before its head ended: {self.buffer!r}"
        assert head.startswith(b"HTTP/1.1 200"), head
        assert b"content-type: text/event-stream" in head.lower(), head

    def read_until(self, end, timeout=20):
        """The bytes up to and including `end`; None when the stream ends.
        Raises TimeoutError when nothing more comes for `timeout` seconds."""
        while end not in self.buffer:
            self.socket.settimeout(timeout)
            try:
                chunk = self.socket.recv(65536)
            except socket.timeout as error:
                raise TimeoutError from error
            if not chunk:
                return None
            self.buffer += chunk
        index = self.buffer.index(end) + len(end)
        found, self.buffer = self.buffer[:index], self.buffer[index:]
        return found

    def event(self, timeout=20):
        """The next event's data; None when the stream ends."""
        while True:
            block = self.read_until(b"\n\n", timeout)
            if block is None:
                return None
            data = [line[len(b"data: "):] for line in block.split(b"\n") if line.startswith(b"data: ")]
            if data:
                return b"\n".join(data)

    def message(self):
        """The next message, as JSON."""
        data = self.event()
        assert data is not None, "the live stream ended"
        return json.loads(data)


def write(path, text):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def fetch(url):
    with urllib.request.urlopen(url, timeout=10) as response:
        return response.read().decode()


@pytest.fixture
def served(tmp_path):
    """A small project served by `rowmotion serve --port 0`; yields (process, base URL, project)."""
    write(tmp_path / "site" / "index.md", "---\ntitle: Home\norder: 1\n---\n# Home\n\n```rowmotion\nexample: tiny.yml\n```\n")
    write(tmp_path / "site" / "guide.md", "---\ntitle: Guide\norder: 2\n---\n# Guide\n\nThe first version.\n")
    write(tmp_path / "examples" / "tiny.yml", EXAMPLE)
    process = subprocess.Popen([str(BINARY), "serve", "--port", "0"], cwd=tmp_path,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    lines = queue.Queue()
    threading.Thread(target=lambda: [lines.put(line) for line in process.stdout], daemon=True).start()
    seen, url = [], None
    deadline = time.time() + 60
    while url is None and time.time() < deadline and process.poll() is None:
        try:
            line = lines.get(timeout=1)
        except queue.Empty:
            continue
        seen.append(line)
        if line.startswith("serving "):
            url = line.split(" at ")[1].split(" ")[0]
    assert url, f"serve did not say where it serves: {seen} {process.stderr.read() if process.poll() is not None else ''}"
    yield process, url, tmp_path
    if process.poll() is None:
        process.kill()
        process.wait()


def test_serve_reloadsTheEditedPage_showsErrorsOverTheLastGoodPage_andStopsCleanly(served, driver):
    process, url, project = served
    port = int(url.rstrip("/").rsplit(":", 1)[1])
    live = LiveStream(port)
    hello = live.message()
    assert hello["type"] == "hello" and hello["errors"] == [], hello
    first = hello["build"]

    # Served pages carry the reload script; the site on disk does not.
    served_page = fetch(url + "guide.html")
    assert "The first version." in served_page and "data-rowmotion-live" in served_page
    assert "data-rowmotion-live" not in (project / "_site" / "guide.html").read_text()
    assert "data-rowmotion-live" not in (project / "_site" / "index.html").read_text()

    driver.get(url + "guide.html")
    WebDriverWait(driver, 60).until(lambda d: d.execute_script("return !!(window.rowmotionLive && window.rowmotionLive.messages.length)"))
    driver.execute_script("window.servedBefore = true")
    # No request for a favicon the site does not have (a 404 on every page before).
    assert not [entry for entry in driver.get_log("browser") if "favicon" in entry["message"]]

    # An edit: one event naming the changed page, and the page reloads with it.
    write(project / "site" / "guide.md", "---\ntitle: Guide\norder: 2\n---\n# Guide\n\nThe second version.\n")
    event = live.message()
    assert event["type"] == "build" and event["build"] == first + 1 and event["errors"] == [], event
    assert "guide.html" in event["changed"], event
    WebDriverWait(driver, 60).until(lambda d: d.execute_script("return window.servedBefore === undefined")
                                    and "The second version." in main_text(d))
    assert "The second version." in fetch(url + "guide.html")

    # A broken file: its located error in the event, over the page, and the
    # last good page still served.
    driver.execute_script("window.servedBefore = true")
    write(project / "site" / "guide.md", "---\ntitle: [unclosed\n---\n# Guide\n\nThe broken version.\n")
    event = live.message()
    assert event["build"] == first + 1 and event["errors"], event
    assert any(error.startswith("site/guide.md:3:1: error: ") and "starts at 2:8" in error for error in event["errors"]), event
    overlay = WebDriverWait(driver, 60).until(lambda d: d.find_elements(By.ID, "rowmotion-live-errors"))[0]
    assert "site/guide.md:3:1: error: " in overlay.text
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    driver.save_screenshot(str(SCREENSHOTS / "serve-error-overlay.png"))
    assert driver.execute_script("return window.servedBefore") is True
    assert "The second version." in fetch(url + "guide.html")
    assert "The broken version." not in (project / "_site" / "guide.html").read_text()

    # Fixed: the overlay goes, the page reloads with the new text.
    write(project / "site" / "guide.md", "---\ntitle: Guide\norder: 2\n---\n# Guide\n\nThe third version.\n")
    event = live.message()
    assert event["build"] == first + 2 and event["errors"] == [], event
    WebDriverWait(driver, 60).until(lambda d: "The third version." in main_text(d))
    assert driver.find_elements(By.ID, "rowmotion-live-errors") == []

    # An edit to an example rebuilds its page and the page that embeds it.
    write(project / "examples" / "tiny.yml", EXAMPLE.replace("C rises", "C rises to the top"))
    event = live.message()
    assert {"examples/tiny.html", "index.html"} <= set(event["changed"]), event
    assert "guide.html" not in event["changed"], event
    assert "C rises to the top" in fetch(url + "examples/tiny.html")

    # Ctrl-C: the stream ends, the process exits 0, the port is free.
    process.send_signal(signal.SIGINT)
    assert process.wait(timeout=10) == 0, process.stderr.read()
    assert live.event() is None
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", port), timeout=2)


def test_serve_refusesAPortInUse_withAClearError(served):
    _, url, project = served
    port = url.rstrip("/").rsplit(":", 1)[1]
    result = subprocess.run([str(BINARY), "serve", "--port", port], cwd=project, capture_output=True, text=True, timeout=30)
    assert result.returncode == 1
    assert f"error: cannot listen on 127.0.0.1:{port}: the address is already in use" in result.stderr


@pytest.mark.skipif(sys.platform != "linux" or not os.path.exists("/usr/bin/xdg-open"), reason="xdg-open on Linux")
def test_serve_says_its_first_build_made_the_site_and_when_no_browser_opens(tmp_path):
    """Issue 30, item 7: the first build said "9 files changed" (nothing had
    changed: there was nothing before), and --open said nothing when xdg-open
    found no browser (a machine without a desktop)."""
    write(tmp_path / "site" / "index.md", "# Home\n\n```rowmotion\nexample: tiny.yml\n```\n")
    write(tmp_path / "examples" / "tiny.yml", EXAMPLE)
    environment = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "BROWSER")}
    process = subprocess.Popen([str(BINARY), "serve", "--port", "0", "--open"], cwd=tmp_path, env=environment,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        out, err = queue.Queue(), queue.Queue()
        threading.Thread(target=lambda: [out.put(line) for line in process.stdout], daemon=True).start()
        threading.Thread(target=lambda: [err.put(line) for line in process.stderr], daemon=True).start()
        said, warned = [], []
        deadline = time.time() + 60
        while time.time() < deadline and not (any(l.startswith("serving ") for l in said) and warned):
            try:
                said.append(out.get(timeout=0.2))
            except queue.Empty:
                pass
            while not err.empty():
                warned.append(err.get())
        built = [line for line in said if line.startswith("built in ")]
        assert built and re.fullmatch(r"built in \d+ ms: 2 pages, 2 rendered, 0 from the cache\n", built[0]), said
        assert not any("changed" in line for line in said), said
        assert any("could not open a browser" in line and "yourself" in line for line in warned), warned
    finally:
        process.kill()
        process.wait()


# Edits in any order while `serve` runs: pages and examples written, broken,
# fixed, deleted and renamed, alone or several at once faster than the
# watcher polls. Once the edits settle, the site `serve` wrote is the site a
# fresh `rowmotion build` makes of the same files, byte for byte, or, when
# that build fails, the last event carries its errors and the site on disk
# is the last good one. `make test` runs a seeded share; `make fuzz` more.

SERVE_EDITS = int(os.environ.get("ROWMOTION_SERVE_EDITS", "14"))
SERVE_SEED = int(os.environ.get("ROWMOTION_SERVE_SEED", "20261125"))


def site_files(folder):
    return {str(path.relative_to(folder)): path.read_bytes() for path in sorted(folder.rglob("*")) if path.is_file()}


def inputs_key(files):
    """What `serve`'s live events call `inputs`: the SHA-256 of a line per
    input file in the byte order of their paths, each the path, a NUL, the
    hex SHA-256 of its bytes and a line feed (`InputTree.digest`)."""
    lines = b"".join(path.encode() + b"\0" + hashlib.sha256(data).hexdigest().encode() + b"\n"
                     for path, data in sorted(files.items(), key=lambda item: item[0].encode()))
    return hashlib.sha256(lines).hexdigest()


def event_of_inputs(live, key, where, timeout=120):
    """The first event of a build that read exactly these inputs: the one
    that saw the last edit, however long the builds before it took."""
    deadline = time.monotonic() + timeout
    seen = []
    while True:
        left = deadline - time.monotonic()
        try:
            data = live.event(timeout=max(left, 0.01))
        except TimeoutError:
            raise AssertionError(f"no build read the inputs {key[:12]}… within {timeout} s; events: {seen}; {where}")
        assert data is not None, "the live stream ended"
        event = json.loads(data)
        if event.get("inputs") == key:
            return event
        seen.append(event)


def save(path, text):
    """Writes as editors save: a hidden file renamed over the old one, so
    the watcher never sees half a file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    hidden = path.parent / f".{path.name}.saving"
    hidden.write_text(text)
    hidden.rename(path)


def random_edit(rng, project, step):
    """One edit a user could make; returns what it did, for the replay."""
    pages = sorted((project / "site").glob("*.md"))
    examples = sorted((project / "examples").glob("*.yml"))
    kind = rng.choice(["page", "page", "broken page", "delete page", "rename page", "example", "broken example",
                       "delete example", "embed", "same bytes"])
    page, example = f"p{rng.randrange(4)}.md", f"e{rng.randrange(3)}.yml"
    if kind == "page":
        save(project / "site" / page, f"---\ntitle: Page {step}\norder: {rng.randrange(5)}\n---\n# Page {step}\n\nText {rng.random()}.\n")
        return f"page {page}"
    if kind == "broken page":
        save(project / "site" / page, f"---\ntitle: [unclosed {step}\n---\n# Broken\n")
        return f"broken page {page}"
    if kind == "example":
        first = rng.sample("abcdef", rng.randint(1, 5))
        save(project / "examples" / example,
             f"title: Example {step}\nsteps:\n  - items: [{', '.join(first)}]\n  - items: [{', '.join(rng.sample(first, len(first)))}]\n")
        return f"example {example}"
    if kind == "broken example":
        save(project / "examples" / example, "title: Broken\nsteps:\n  - items: [a, a]\n  - items: [\n")
        return f"broken example {example}"
    others = [path for path in pages if path.name != "index.md"]
    if kind == "delete page" and others:
        victim = rng.choice(others)
        victim.unlink()
        return f"delete page {victim.name}"
    if kind == "rename page" and others and not (project / "site" / page).exists():
        victim = rng.choice(others)
        victim.rename(project / "site" / page)
        return f"rename page {victim.name} to {page}"
    if kind == "delete example" and examples:
        victim = rng.choice(examples)
        victim.unlink()
        return f"delete example {victim.name}"
    if kind == "embed" and examples:
        shown = rng.choice(examples).name
        save(project / "site" / "index.md", f"---\ntitle: Home\norder: 1\n---\n# Home\n\n```rowmotion\nexample: {shown}\n```\n")
        return f"embed {shown}"
    if kind == "same bytes" and pages:
        victim = rng.choice(pages)
        save(victim, victim.read_text())
        return f"same bytes {victim.name}"
    return f"nothing ({kind})"


def sources(project):
    """The inputs as a build lists them: no hidden path at any depth."""
    return {f"{folder}/{name}": text for folder in ("site", "examples")
            for name, text in site_files(project / folder).items() if not any(part.startswith(".") for part in name.split("/"))}


def fresh_build(files, folder):
    """The site a fresh `rowmotion build` makes of `files` (None if it fails)."""
    shutil.rmtree(folder, ignore_errors=True)
    for name, text in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_bytes(text)
    result = subprocess.run([str(BINARY), "build", "--no-cache", "--out", "_site"], cwd=folder, capture_output=True, text=True)
    return site_files(folder / "_site") if result.returncode == 0 else None


def test_serve_fuzz_ofEditsInAnyOrder_leavesTheSiteAFreshBuildMakes(served, tmp_path_factory):
    process, url, project = served
    port = int(url.rstrip("/").rsplit(":", 1)[1])
    rng = random.Random(SERVE_SEED)
    replay = f"ROWMOTION_SERVE_SEED={SERVE_SEED} ROWMOTION_SERVE_EDITS={SERVE_EDITS} pytest Tests/browser/test_serve.py -k fuzz"
    live = LiveStream(port)
    live.message()
    done = []
    scratch = tmp_path_factory.mktemp("fresh")
    last_good = site_files(project / "_site")
    status, step = None, 0
    while step < SERVE_EDITS:
        # One edit, or a burst of several faster than the watcher polls;
        # the sources after each, since serve may build any of them.
        states = []
        touched = False
        for _ in range(rng.choice([1, 1, 2, 3])):
            done.append(random_edit(rng, project, step))
            touched = touched or not done[-1].startswith("nothing")
            states.append(sources(project))
            step += 1
            time.sleep(rng.choice([0, 0.05, 0.3]))
        # A touched file (its bytes or its time) makes a build: the test
        # waits for the event of the one that read the files as they are
        # now, never for a quiet moment, which a slow build outlasts.
        # Edits that touched nothing send nothing: the last status holds.
        where = f"seed {SERVE_SEED}, after {done}; replay: {replay}"
        event = status = event_of_inputs(live, inputs_key(states[-1]), where) if touched else status
        assert process.poll() is None, f"serve exited {process.returncode}: {process.stderr.read()}; {where}"
        on_disk = site_files(project / "_site")
        expected = fresh_build(states[-1], scratch / "last")
        if expected is not None:
            assert event is None or event["errors"] == [], f"a fresh build succeeds but serve says {event['errors']}; {where}"
            assert sorted(on_disk) == sorted(expected), f"{sorted(set(on_disk) ^ set(expected))}; {where}"
            differing = [path for path in expected if on_disk[path] != expected[path]]
            assert not differing, f"serve's {differing} differ from a fresh build's; {where}"
        else:
            assert event is not None and event["errors"], f"a fresh build fails but serve said no error; {where}"
            # The last good site: from before the edits, or from a state
            # the watcher caught between two of them.
            good = [last_good] + [site for index, state in enumerate(states[:-1])
                                  if (site := fresh_build(state, scratch / f"state{index}")) is not None]
            assert on_disk in good, f"after a failed build the site on disk is no good build's; {where}"
        last_good = on_disk
    process.send_signal(signal.SIGINT)
    assert process.wait(timeout=10) == 0
