"""Headless Chromium for the browser tests, from the distribution's packages
(``chromium`` + ``chromium-driver``; ``.ci/run`` installs them), driven with
selenium through ``/usr/bin/chromedriver``: nothing is downloaded (Selenium
Manager stays offline: the driver's path is given and ``SE_OFFLINE`` set).

Every WebSocket frame the page receives is read from Chromium's own
performance log (``Network.webSocketFrameReceived``), so the hidden-card
checks see what went over the wire, not what the client chose to keep.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

CHROMIUM_NAMES = ("chromium", "chromium-browser", "google-chrome")
DRIVER_NAMES = ("chromedriver",)
#: the flags of issue 28: headless, no sandbox (root in CI), no network of its own
FLAGS = (
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
    "--disable-extensions",
    "--hide-scrollbars",
)


#: a point of the element that the element itself would receive, as an
#: offset from its box's middle (what selenium's move_to_element_with_offset takes)
_VISIBLE_POINT = """
const el = arguments[0];
const r = el.getBoundingClientRect();
for (const fy of [0.3, 0.45, 0.6, 0.75, 0.2])
  for (const fx of [0.12, 0.25, 0.4, 0.55, 0.7, 0.85]) {
    const x = r.left + r.width * fx, y = r.top + r.height * fy;
    const hit = document.elementFromPoint(x, y);
    if (hit && (hit === el || el.contains(hit)))
      return [Math.round(x - (r.left + r.width / 2)), Math.round(y - (r.top + r.height / 2))];
  }
return null;
"""


def _which(names: tuple[str, ...], env: str) -> str | None:
    given = os.environ.get(env)
    if given:
        return given if Path(given).exists() else None
    for name in names:
        found = shutil.which(name)
        if found:
            return found
    return None


def find_chromium() -> tuple[str, str] | str:
    """(chromium, chromedriver) paths, or the reason the browser tests cannot run."""
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (pip install -e '.[dev]')"
    browser = _which(CHROMIUM_NAMES, "CARDTABLE_CHROMIUM")
    driver = _which(DRIVER_NAMES, "CARDTABLE_CHROMEDRIVER")
    if browser is None or driver is None:
        return (
            "Chromium and chromedriver are not installed (apt-get install chromium chromium-driver)"
        )
    return browser, driver


@dataclass
class Browser:
    """One Chromium window (one person) with the WebSocket frames it received."""

    driver: Any
    profile: str
    frames: list[dict[str, Any]] = field(default_factory=list)

    # -- frames ------------------------------------------------------------------------
    def drain(self) -> list[dict[str, Any]]:
        """Move the performance log's WebSocket frames into ``frames``."""
        for entry in self.driver.get_log("performance"):
            message = json.loads(entry["message"])["message"]
            if message.get("method") != "Network.webSocketFrameReceived":
                continue
            payload = message["params"]["response"].get("payloadData", "")
            try:
                self.frames.append(json.loads(payload))
            except ValueError:
                continue
        return self.frames

    def states(self) -> list[dict[str, Any]]:
        return [f for f in self.drain() if f.get("type") == "state"]

    # -- the page ----------------------------------------------------------------------
    def open(self, url: str) -> None:
        self.driver.get(url)

    def js(self, script: str, *args: Any) -> Any:
        return self.driver.execute_script(script, *args)

    def body(self, key: str) -> str | None:
        return self.js("return document.body.dataset[arguments[0]] ?? null", key)

    def wait(self, test: Callable[[], Any], timeout: float = 20, what: str = "") -> Any:
        """Wait until ``test()`` is truthy (the page changes on the server's
        pushes; the test looks every 50 ms)."""
        end = time.monotonic() + timeout
        last: Any = None
        while time.monotonic() < end:
            try:
                last = test()
            except Exception as exc:  # a page being redrawn: look again
                last = exc
            if last and not isinstance(last, Exception):
                return last
            time.sleep(0.05)
        raise AssertionError(f"timed out waiting for {what or test} (last: {last!r})")

    def css(self, selector: str) -> list[Any]:
        from selenium.webdriver.common.by import By

        return self.driver.find_elements(By.CSS_SELECTOR, selector)

    def click(self, element: Any) -> None:
        """Click where a person would: on a part of the element that is on top
        (a fanned card lies partly under its neighbour, and is turned a little)."""
        from selenium.webdriver.common.action_chains import ActionChains

        offset = self.js(_VISIBLE_POINT, element)
        assert offset is not None, (
            f"nothing of {element.get_attribute('outerHTML')[:80]} is visible"
        )
        ActionChains(self.driver).move_to_element_with_offset(element, *offset).click().perform()

    def keys(self, *keys: str) -> None:
        from selenium.webdriver.common.action_chains import ActionChains

        chain = ActionChains(self.driver)
        for key in keys:
            chain.send_keys(key)
        chain.perform()

    def screenshot(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.driver.save_screenshot(str(path))

    def resize(self, width: int, height: int) -> None:
        self.driver.set_window_size(width, height)

    def console_errors(self) -> list[str]:
        return [
            e["message"]
            for e in self.driver.get_log("browser")
            if e["level"] == "SEVERE" and "favicon" not in e["message"]
        ]

    def quit(self) -> None:
        try:
            self.driver.quit()
        finally:
            shutil.rmtree(self.profile, ignore_errors=True)


def launch(
    paths: tuple[str, str], width: int = 1280, height: int = 800, script: str = ""
) -> Browser:
    """A new headless Chromium with an empty profile; ``script`` runs in every
    page before the page's own scripts (the fake Discord SDK)."""
    os.environ["SE_OFFLINE"] = "true"  # Selenium Manager: never fetch anything
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    browser, driver = paths
    profile = tempfile.mkdtemp(prefix="ct-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = browser
    for flag in (*FLAGS, f"--user-data-dir={profile}", f"--window-size={width},{height}"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"performance": "ALL", "browser": "ALL"})
    chrome = webdriver.Chrome(service=Service(executable_path=driver), options=options)
    if script:
        chrome.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": script})
    return Browser(chrome, profile)
