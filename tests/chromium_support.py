"""Headless Chromium for the browser tests (Debian's chromium and chromedriver, through Selenium): one per
test process, shared by every test file that clicks (the `chromium_session` fixture, tests/conftest.py),
and handed to each as a new browser would be (`as_new`). Starting one costs about a second of wall and of
CPU, and the suite's browser tests started eight."""

from __future__ import annotations

import shutil
from typing import Any

CHROMIUM, DRIVER = shutil.which("chromium"), shutil.which("chromedriver")


def chromium(width: int = 1300, height: int = 1000) -> Any:
    """A new headless Chromium, its console kept (a page's errors are read back)."""
    from selenium import webdriver

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM or ""
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     f"--window-size={width},{height}"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(options=options, service=webdriver.ChromeService(DRIVER))


class Shared:
    """The process's one Chromium, started when a test first asks, started again if it died."""

    def __init__(self) -> None:
        self.driver: Any = None

    def get(self, width: int = 1300, height: int = 1000) -> Any:
        if self.driver is not None:
            try:
                return as_new(self.driver, width, height)
            except Exception:  # noqa: BLE001 (a browser a test crashed or closed: a new one)
                self.quit()
        self.driver = chromium(width, height)
        return self.driver

    def release(self) -> None:
        """Done with it for now: its pages closed (a page left open on a server that stops tries it again)."""
        if self.driver is not None:
            try:
                as_new(self.driver)
            except Exception:  # noqa: BLE001 (the next test's get() starts a new one)
                self.quit()

    def quit(self) -> None:
        if self.driver is not None:
            try:
                self.driver.quit()
            finally:
                self.driver = None


def as_new(driver: Any, width: int = 1300, height: int = 1000) -> Any:
    """`driver` as a new browser to the test that takes it: one blank tab of that size, no cookies (a cookie is
    kept per host, whatever the port), nothing in its console, the default script timeout. What a page kept
    in its origin's storage stays, and no test meets it again: each server listens on a port of its own and
    names its tables and games at random."""
    handles = driver.window_handles
    for handle in handles[1:]:
        driver.switch_to.window(handle)
        driver.close()
    driver.switch_to.window(handles[0])
    driver.get("about:blank")
    driver.execute_cdp_cmd("Network.clearBrowserCookies", {})
    driver.set_script_timeout(30)
    if driver.get_window_size() != {"width": width, "height": height}:
        driver.set_window_size(width, height)
    driver.get_log("browser")
    return driver
