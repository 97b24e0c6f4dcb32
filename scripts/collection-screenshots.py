"""Screenshots of the collection-view examples, settled and held at 50 % of
a step, at 390 and 1,280 px (what issue 43's closing note lists), for a
person to look at against UIKit. Usage:
  .build/debug/rowmotion build --strict --out /tmp/site43
  .venv/bin/python scripts/collection-screenshots.py /tmp/site43 /tmp/shots"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "browser"))
from chrome import new_browser  # noqa: E402

site, out = sys.argv[1], sys.argv[2]
os.makedirs(out, exist_ok=True)
cases = [("photo-grid", 0), ("app-store", 0), ("task-data-table", 2)]
for width in (390, 1280):
    b = new_browser(window_size=f"{max(width, 500)},1100")
    # Headless Chromium opens no narrower than 500 px: the window is resized to the width asked.
    b.set_window_size(width + b.execute_script("return window.outerWidth - window.innerWidth"), 1100)
    try:
        for name, step in cases:
            b.get(f"file://{os.path.abspath(site)}/examples/{name}.html")
            b.execute_async_script("const [n, done] = arguments; window.Rowmotion.players[0].goTo(n).then(() => done())", step)
            el = b.find_element("css selector", "[data-rowmotion-player]")
            b.execute_script("arguments[0].scrollIntoView()", el)
            el.screenshot(f"{out}/{name}-{width}-settled.png")
            b.execute_script("window.Rowmotion.players[0].hold(0.5)")
            el.screenshot(f"{out}/{name}-{width}-held50.png")
        print(width, "px:", b.execute_script("return window.innerWidth"), "px inside")
    finally:
        b.quit()
