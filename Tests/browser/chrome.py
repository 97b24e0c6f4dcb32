"""Where the browser for the tests is: Debian's chromium and chromedriver on
Linux (pointing Selenium's Service at the driver keeps it off the network),
Google Chrome and Homebrew's chromedriver on macOS. ROWMOTION_CHROME and
ROWMOTION_CHROMEDRIVER override both."""
import os
import platform
import shutil

from selenium import webdriver
from selenium.webdriver.chrome.service import Service


def paths(system=None):
    """(browser binary, driver) for this platform."""
    system = system or platform.system()
    binary, driver = os.environ.get("ROWMOTION_CHROME"), os.environ.get("ROWMOTION_CHROMEDRIVER")
    if system == "Darwin":
        binary = binary or "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome"
        driver = driver or shutil.which("chromedriver") or "/opt/homebrew/bin/chromedriver"
    else:
        binary = binary or "/usr/bin/chromium"
        driver = driver or "/usr/bin/chromedriver"
    return binary, driver


def new_browser(window_size="1200,1000", extra_arguments=(), prefs=None, logging=False):
    """A headless browser for the tests."""
    binary, driver = paths()
    options = webdriver.ChromeOptions()
    options.binary_location = binary
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     f"--window-size={window_size}", *extra_arguments):
        options.add_argument(argument)
    if prefs:
        options.add_experimental_option("prefs", prefs)
    if logging:
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service(driver), options=options)
