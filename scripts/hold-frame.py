#!/usr/bin/env python3
"""Screenshots of a player held mid-batch, for looking at the motion
yourself: .venv/bin/python scripts/hold-frame.py PAGE STEP BATCH SCROLL FRACTION...

PAGE is a built page (e.g. _site/examples/messenger.html), STEP the step to
play (1 = the first change), BATCH the batch within it (0 = the first),
SCROLL the list's scrollTop in pixels, and each FRACTION a point of the
batch (0 to 1) to hold it at (the player's `hold(batch + fraction)`). Writes
.build/frames/NAME-STEP-BATCH-SCROLL-FRACTION.png of the list and prints the
paths. Uses Debian's chromium and chromedriver, as the browser tests do."""
import sys
from pathlib import Path

from selenium import webdriver
from selenium.webdriver.chrome.service import Service

HOLD = """
const [step, batch, fraction, scroll, done] = arguments;
const p = window.Rowmotion.players[0];
p.goTo(step - 1).then(() => {
  p.element.scrollIntoView();
  p.element.querySelector('.rowmotion-list').scrollTop = scroll;
  p.hold(batch + fraction);
  requestAnimationFrame(() => requestAnimationFrame(() => done(1)));
});
"""


def main(arguments):
    if len(arguments) < 5:
        sys.exit(__doc__)
    page = Path(arguments[0]).resolve()
    step, batch, scroll = int(arguments[1]), int(arguments[2]), int(arguments[3])
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=900,1000"):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    out = Path(".build/frames")
    out.mkdir(parents=True, exist_ok=True)
    try:
        driver.set_script_timeout(10)
        driver.get(page.as_uri())
        for fraction in (float(value) for value in arguments[4:]):
            driver.execute_async_script(HOLD, step, batch, fraction, scroll)
            name = out / f"{page.stem}-{step}-{batch}-{scroll}-{fraction}.png"
            driver.find_element("css selector", "[data-rowmotion-player] .rowmotion-list").screenshot(str(name))
            print(name)
    finally:
        driver.quit()


if __name__ == "__main__":
    main(sys.argv[1:])
