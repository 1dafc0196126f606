"""bot/logs.py: ``table=<id>`` on every log line about a table, in text or
JSON, through the handler ``python -m bot run`` sets up."""

from __future__ import annotations

import io
import json
import logging

import pytest

from bot.discord.run import configure_logging
from bot.logs import JsonFormatter, TextFormatter, set_up_handler, table_context


@pytest.fixture
def capture():
    """A logger with its own stream handler set up as ``run`` does."""

    def make(log_format: str) -> tuple[logging.Logger, io.StringIO]:
        stream = io.StringIO()
        handler = set_up_handler(logging.StreamHandler(stream), log_format)
        logger = logging.getLogger(f"cardtable.test.{log_format}")
        logger.handlers[:] = [handler]
        logger.setLevel(logging.DEBUG)
        logger.propagate = False
        return logger, stream

    return make


def test_text_lines_name_the_table(capture):
    log, stream = capture("text")
    log.warning("table %s: edit failed (%s); retrying", 12, "429")
    log.error("table #%s is damaged", 7)
    log.info("click on table %s not acknowledged: %s", 31, "gone")
    log.info("AI worker pool was broken; restarted")
    log.info("nothing %s here", "tabled")
    lines = stream.getvalue().splitlines()
    assert (
        " WARNING cardtable.test.text table=12: table 12: edit failed (429); retrying" in lines[0]
    )
    assert "table=7: table #7 is damaged" in lines[1]
    assert "table=31: click on table 31" in lines[2]
    assert "table=" not in lines[3] and "table=" not in lines[4]


def test_explicit_and_context_tables(capture):
    log, stream = capture("text")
    log.info("replayed", extra={"table": 5})
    with table_context(9):
        log.info("dealt a new hand")
    log.info("after")
    lines = stream.getvalue().splitlines()
    assert "table=5: replayed" in lines[0]
    assert "table=9: dealt a new hand" in lines[1]
    assert "table=" not in lines[2]


def test_json_lines(capture):
    log, stream = capture("json")
    log.warning("table %s: could not %s (%s)", 4, "edit", "Forbidden")
    try:
        raise ValueError("boom")
    except ValueError:
        log.exception("presenting failed")
    first, second = (json.loads(line) for line in stream.getvalue().splitlines()[:2])
    assert first["table"] == 4 and first["level"] == "WARNING"
    assert first["message"] == "table 4: could not edit (Forbidden)"
    assert first["logger"] == "cardtable.test.json" and first["time"].endswith("+00:00")
    assert "table" not in second and "ValueError: boom" in second["exception"]
    # a traceback stays inside its one JSON line
    assert len(stream.getvalue().splitlines()) == 2


def test_formatters_work_without_the_filter():
    record = logging.LogRecord("x", logging.INFO, __file__, 1, "table %s: ok", (3,), None)
    assert "table=3: table 3: ok" in TextFormatter().format(record)
    record = logging.LogRecord("x", logging.INFO, __file__, 1, "table %s: ok", (3,), None)
    assert json.loads(JsonFormatter().format(record))["table"] == 3


def test_run_configures_the_root_handler(monkeypatch):
    root = logging.getLogger()
    saved = root.handlers[:], root.level
    root.handlers[:] = []
    try:
        configure_logging("INFO", "json")
        (handler,) = root.handlers
        assert isinstance(handler.formatter, JsonFormatter)
        root.handlers[:] = []
        configure_logging("INFO")
        assert isinstance(root.handlers[0].formatter, TextFormatter)
    finally:
        root.handlers[:], level = saved
        root.setLevel(level)
