"""Fixtures of the browser tests: Chromium (skipped with the reason when it
is not installed, unless ``CARDTABLE_REQUIRE_BROWSER=1``, which ``.ci/run``
sets once it has installed it), the real web table, and where screenshots
go (``CARDTABLE_SCREENSHOTS=1``: docs/images, the README's pictures;
otherwise a temporary folder, so every run still takes them)."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser.chromium import Browser, find_chromium, launch

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def chromium() -> tuple[str, str]:
    found = find_chromium()
    if isinstance(found, str):
        if os.environ.get("CARDTABLE_REQUIRE_BROWSER") == "1":
            pytest.fail(f"CARDTABLE_REQUIRE_BROWSER=1 but {found}")
        pytest.skip(found)
    return found


@pytest.fixture
def browser(chromium: tuple[str, str]) -> Iterator[Callable[..., Browser]]:
    """``browser(width=, height=, script=)``: a new Chromium window; all closed after the test."""
    opened: list[Browser] = []

    def open_one(width: int = 1280, height: int = 800, script: str = "") -> Browser:
        b = launch(chromium, width, height, script)
        opened.append(b)
        return b

    yield open_one
    for b in opened:
        b.quit()


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Callable[..., Any]]:
    """``server(mode=, discord=, port=, db=)``: the web table, stopped after the test."""
    from tests.browser.server import ServerThread

    running: list[ServerThread] = []

    def start(mode: str = "local", **kwargs: Any) -> ServerThread:
        db = kwargs.pop("db", str(tmp_path / "web.db"))
        srv = ServerThread(db, mode=mode, **kwargs).start()
        running.append(srv)
        return srv

    yield start
    for srv in running:
        srv.stop()


@pytest.fixture
def shots(tmp_path: Path) -> Path:
    if os.environ.get("CARDTABLE_SCREENSHOTS") == "1":
        return ROOT / "docs" / "images"
    return tmp_path / "shots"
