"""The browser client's files, without a browser: its own code stays under
200 KB (issue 28's target), every module it imports is there, the vendored
Discord SDK is the pinned, unchanged build its README names, and every label
key the client looks up is one the server sends (``welcome.words``)."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import pytest

STATIC = Path(__file__).resolve().parents[2] / "bot" / "web" / "static"
VENDOR = STATIC / "vendor" / "discord-embedded-app-sdk"
IMPORT = re.compile(
    r"""(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)"""
)


def own_files() -> list[Path]:
    return [p for p in STATIC.rglob("*") if p.is_file() and VENDOR not in p.parents]


def test_the_client_code_is_under_200_kb():
    size = sum(p.stat().st_size for p in own_files())
    assert 10_000 < size < 200 * 1024, size


def test_every_module_the_client_imports_is_there():
    modules = [p for p in STATIC.rglob("*") if p.suffix in (".js", ".mjs")]
    assert len(modules) > 70
    for module in modules:
        for found in IMPORT.finditer(module.read_text(encoding="utf-8")):
            target = found.group(1) or found.group(2)
            assert target.startswith("."), f"{module.name} imports {target!r}: no bare imports"
            assert (module.parent / target).resolve().is_file(), f"{module}: {target}"
    page = (STATIC / "index.html").read_text(encoding="utf-8")
    for ref in re.findall(r'(?:src|href)="(static/[^"]+)"', page):
        assert (STATIC / ref.removeprefix("static/")).is_file(), ref


def test_the_vendored_sdk_is_the_pinned_build():
    readme = (VENDOR / "README.md").read_text(encoding="utf-8")
    assert "version **2.5.0**" in readme and (VENDOR / "LICENSE.md").is_file()
    assert 'var version = "2.5.0";' in (VENDOR / "package.json.mjs").read_text(encoding="utf-8")
    files = sorted(VENDOR.rglob("*.mjs"), key=lambda p: str(p.relative_to(VENDOR)))
    digest = hashlib.sha256(b"".join(p.read_bytes() for p in files)).hexdigest()
    assert digest in readme, "the vendored files changed: update the README's provenance"
    assert "export { DiscordSDK }" in (VENDOR / "index.mjs").read_text(encoding="utf-8")


def client_keys() -> set[str]:
    words = (STATIC / "words.js").read_text(encoding="utf-8")
    table = words[words.index("export const EN = {") : words.index("};")]
    return set(re.findall(r'^\s+"?([a-z_]+(?:\.[A-Za-z_]+)?)"?:', table, re.M))


def test_every_key_the_client_looks_up_has_an_english_fallback():
    keys = client_keys()
    used: set[str] = set()
    for module in STATIC.glob("*.js"):
        used |= set(
            re.findall(r'\bt\("([a-z_]+(?:\.[A-Za-z_]+)?)"', module.read_text(encoding="utf-8"))
        )
    assert used and used <= keys, sorted(used - keys)
    # keys made from data: every game, suit, call and status the server may name
    from engine import GAMES

    for name in GAMES:
        assert f"game.{name}" in keys
    for key in (
        "suit.S",
        "suit.H",
        "suit.D",
        "suit.C",
        "suit.J",
        "suit.NT",
        "bid.pass",
        "bid.contra",
        "bid.recontra",
        "bid.capot",
        "bid.backalley",
        "bid.NT",
        "status.lobby",
        "status.playing",
        "status.finished",
        "status.abandoned",
        "rank.A",
        "rank.K",
        "rank.Q",
        "rank.J",
    ):
        assert key in keys, key


@pytest.mark.parametrize("lang", ["en", "tr"])
def test_the_server_sends_every_key_the_client_uses(lang: str):
    from bot.web.words import words_in

    sent = words_in(lang)
    assert client_keys() <= set(sent), sorted(client_keys() - set(sent))
    if lang == "en":
        # the client's English fallback is the server's English
        words = (STATIC / "words.js").read_text(encoding="utf-8")
        for key in ("your_turn", "waiting_for", "seconds_left", "move_of", "card_of"):
            assert f'{key}: "{sent[key]}"' in words, key
