"""Refresh the message catalogues from the code: ``python -m bot.i18n.update``.

1. ``pybabel extract`` reads every marked text of ``bot/`` (``t``, ``tn``,
   ``tp``, ``N_``, discord.py's ``locale_str`` imported as ``_``, and the
   service errors' message ids) into ``bot/i18n/locales/messages.pot``,
   with the ``# i18n:`` comments above them for the translators;
2. ``pybabel update`` merges the template into every locale's
   ``messages.po`` (new ids appear untranslated, changed ones are marked
   fuzzy, which the bot ignores until a translator clears the flag).

No compile step: the bot reads the ``.po`` files at start
(``bot.i18n.catalog``).  ``--check`` only extracts into a temporary file
and says whether the template is out of date (exit 1).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

from babel.messages.frontend import CommandLineInterface
from babel.messages.pofile import read_po

from bot.i18n.catalog import DOMAIN, LOCALES, PLURAL_FORMS

ROOT = Path(__file__).resolve().parents[2]
LOCALE_DIR = Path(__file__).resolve().with_name("locales")
TEMPLATE = LOCALE_DIR / f"{DOMAIN}.pot"
MAPPING = Path(__file__).resolve().with_name("babel.cfg")
#: the functions and classes whose first argument is a message id
KEYWORDS = (
    "t",
    "tn:1,2",
    "tp:1c,2",
    "N_",
    "_",
    "ServiceError",
    "TableNotFound",
    "NotSeated",
    "TableFull",
    "AlreadySeated",
    "NotHost",
    "WrongStatus",
    "StaleAction",
    "NotModerator",
    "TableBusy",
    "TooManyTables",
    "Resuming",
    "InvalidSetting",
)


@contextlib.contextmanager
def _in_root() -> Iterator[None]:
    """Locations in the catalogues read ``bot/render/messages.py``, not a machine's path."""
    before = Path.cwd()
    os.chdir(ROOT)
    try:
        yield
    finally:
        os.chdir(before)


def extract(output: Path) -> None:
    with _in_root():
        _extract(output)


def _extract(output: Path) -> None:
    args = ["pybabel", "-q", "extract", "-F", str(MAPPING), "-o", str(output)]
    for keyword in KEYWORDS:
        args += ["-k", keyword]
    args += [
        "--add-comments=i18n:",
        "--strip-comments",
        "--add-location=file",
        "--sort-by-file",
        "--project=Card Table",
        "--version=1",
        "--copyright-holder=Card Table contributors",
        "--msgid-bugs-address=https://github.com/card-table/card-table/issues",
        "--width=100",
        "bot",
    ]
    CommandLineInterface().run(args)


def update() -> None:
    for code in LOCALES[1:]:
        po = LOCALE_DIR / code / "LC_MESSAGES" / f"{DOMAIN}.po"
        if not po.exists():
            CommandLineInterface().run(
                ["pybabel", "-q", "init", "-i", str(TEMPLATE), "-d", str(LOCALE_DIR), "-l", code]
            )
            _plural_header(po, code)
            continue
        CommandLineInterface().run(
            [
                "pybabel",
                "-q",
                "update",
                "-i",
                str(TEMPLATE),
                "-d",
                str(LOCALE_DIR),
                "-l",
                code,
                "--width=100",
                "--update-header-comment",
            ]
        )
        _plural_header(po, code)


def _plural_header(po: Path, code: str) -> None:
    """Babel's locale data and gettext's conventions differ for some of our
    languages: the catalogue's header is the one that counts."""
    text = po.read_text(encoding="utf-8")
    wanted = f'"Plural-Forms: {PLURAL_FORMS[code]}\\n"'
    fixed = re.sub(r'"Plural-Forms: [^"]*"', lambda _: wanted, text, count=1)
    if fixed != text:
        po.write_text(fixed, encoding="utf-8")


def ids(path: Path) -> set[tuple[str, str | None]]:
    with path.open("rb") as handle:
        catalog = read_po(handle)
    return {(str(m.id), m.context) for m in catalog if m.id}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.i18n.update", description=__doc__)
    parser.add_argument("--check", action="store_true", help="only say whether the .pot is stale")
    args = parser.parse_args(argv)
    if args.check:
        with tempfile.TemporaryDirectory() as folder:
            fresh = Path(folder) / "fresh.pot"
            extract(fresh)
            stale = ids(fresh) != ids(TEMPLATE)
        print("messages.pot is out of date" if stale else "messages.pot is up to date")
        return 1 if stale else 0
    extract(TEMPLATE)
    update()
    return 0


if __name__ == "__main__":
    sys.exit(main())
