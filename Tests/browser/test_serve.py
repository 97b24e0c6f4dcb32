"""`rowmotion serve` end to end: a real server on a free port, a WebSocket
client that reads the live-reload events, and Chromium showing the page
reload, the error overlay and the last good page; then a clean Ctrl-C."""
import base64
import hashlib
import json
import os
import queue
import re
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

GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

EXAMPLE = """title: Tiny
steps:
  - label: Start
    items: [a, b, c]
  - label: C rises
    items: [c, a, b]
"""


class LiveSocket:
    """A minimal RFC 6455 client: the handshake, then unmasked server frames."""

    def __init__(self, port):
        self.socket = socket.create_connection(("127.0.0.1", port), timeout=20)
        key = base64.b64encode(os.urandom(16)).decode()
        self.socket.sendall((f"GET /_rowmotion/live HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
                             f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
                             f"Origin: http://127.0.0.1:{port}\r\n\r\n").encode())
        self.stream = self.socket.makefile("rb")
        head = b""
        while not head.endswith(b"\r\n\r\n"):
            byte = self.stream.read(1)
            assert byte, f"the server closed the socket during the handshake: {head!r}"
            head += byte
        assert head.startswith(b"HTTP/1.1 101"), head
        accept = base64.b64encode(hashlib.sha1((key + GUID).encode()).digest()).decode()
        assert f"sec-websocket-accept: {accept}".lower() in head.decode().lower(), head

    def frame(self):
        """(opcode, payload) of the next frame; (None, b"") when the socket ends."""
        header = self.stream.read(2)
        if len(header) < 2:
            return None, b""
        opcode, length = header[0] & 0x0F, header[1] & 0x7F
        if length == 126:
            length = int.from_bytes(self.stream.read(2), "big")
        elif length == 127:
            length = int.from_bytes(self.stream.read(8), "big")
        return opcode, self.stream.read(length)

    def message(self):
        """The next text message, as JSON."""
        while True:
            opcode, payload = self.frame()
            assert opcode is not None, "the live socket closed"
            if opcode == 0x1:
                return json.loads(payload)


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
    live = LiveSocket(port)
    hello = live.message()
    assert hello["type"] == "hello" and hello["errors"] == [], hello
    first = hello["build"]

    # Served pages carry the reload script; the site on disk does not.
    served_page = fetch(url + "guide.html")
    assert "The first version." in served_page and "data-rowmotion-live" in served_page
    assert "data-rowmotion-live" not in (project / "_site" / "guide.html").read_text()
    assert "data-rowmotion-live" not in (project / "_site" / "index.html").read_text()

    driver.get(url + "guide.html")
    WebDriverWait(driver, 10).until(lambda d: d.execute_script("return !!(window.rowmotionLive && window.rowmotionLive.messages.length)"))
    driver.execute_script("window.servedBefore = true")
    # No request for a favicon the site does not have (a 404 on every page before).
    assert not [entry for entry in driver.get_log("browser") if "favicon" in entry["message"]]

    # An edit: one event naming the changed page, and the page reloads with it.
    write(project / "site" / "guide.md", "---\ntitle: Guide\norder: 2\n---\n# Guide\n\nThe second version.\n")
    event = live.message()
    assert event["type"] == "build" and event["build"] == first + 1 and event["errors"] == [], event
    assert "guide.html" in event["changed"], event
    WebDriverWait(driver, 15).until(lambda d: d.execute_script("return window.servedBefore === undefined")
                                    and "The second version." in d.find_element(By.TAG_NAME, "main").text)
    assert "The second version." in fetch(url + "guide.html")

    # A broken file: its located error in the event, over the page, and the
    # last good page still served.
    driver.execute_script("window.servedBefore = true")
    write(project / "site" / "guide.md", "---\ntitle: [unclosed\n---\n# Guide\n\nThe broken version.\n")
    event = live.message()
    assert event["build"] == first + 1 and event["errors"], event
    assert any(error.startswith("site/guide.md:3:1: error: ") and "starts at 2:8" in error for error in event["errors"]), event
    overlay = WebDriverWait(driver, 15).until(lambda d: d.find_elements(By.ID, "rowmotion-live-errors"))[0]
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
    WebDriverWait(driver, 15).until(lambda d: "The third version." in d.find_element(By.TAG_NAME, "main").text)
    assert driver.find_elements(By.ID, "rowmotion-live-errors") == []

    # An edit to an example rebuilds its page and the page that embeds it.
    write(project / "examples" / "tiny.yml", EXAMPLE.replace("C rises", "C rises to the top"))
    event = live.message()
    assert {"examples/tiny.html", "index.html"} <= set(event["changed"]), event
    assert "guide.html" not in event["changed"], event
    assert "C rises to the top" in fetch(url + "examples/tiny.html")

    # Ctrl-C: the socket is closed, the process exits 0, the port is free.
    process.send_signal(signal.SIGINT)
    assert process.wait(timeout=10) == 0, process.stderr.read()
    opcode, _ = live.frame()
    while opcode not in (None, 0x8):
        opcode, _ = live.frame()
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
