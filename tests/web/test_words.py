"""The ``welcome`` frame's words: every key in every language, translated
where the catalogue has it, and the client's English fallback list agrees
with the server's keys and placeholders."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.i18n import LOCALES, placeholders
from bot.web.words import GAME_WORDS, LABELS, words_in

CLIENT_WORDS = Path(__file__).resolve().parents[2] / "bot" / "web" / "static" / "words.js"
ENTRY = re.compile(r'^\s*(?:"([^"]+)"|([A-Za-z_][A-Za-z0-9_]*))\s*:\s*"((?:[^"\\]|\\.)*)"\s*,?\s*$')


@pytest.mark.parametrize("lang", LOCALES)
def test_every_key_in_every_language(lang: str) -> None:
    words = words_in(lang)
    assert set(words) == set(LABELS) | set(GAME_WORDS)
    assert all(isinstance(v, str) and v for v in words.values())
    for key, msgid in LABELS.items():
        assert placeholders(words[key]) == placeholders(msgid), (lang, key)
    if lang != "en":
        english = words_in("en")
        translated = [k for k in LABELS if words[k] != english[k]]
        assert len(translated) > len(LABELS) // 2, "the catalogue is not used"


def client_words() -> dict[str, str]:
    found: dict[str, str] = {}
    inside = False
    for line in CLIENT_WORDS.read_text(encoding="utf-8").splitlines():
        if line.startswith("export const EN"):
            inside = True
            continue
        if inside and line.startswith("}"):
            break
        match = ENTRY.match(line) if inside else None
        if match:
            found[match[1] or match[2]] = match[3]
    return found


@pytest.mark.skipif(not CLIENT_WORDS.exists(), reason="the client is not in this tree yet")
def test_the_client_asks_only_for_words_the_server_sends() -> None:
    client = client_words()
    assert client, "no EN entries read from words.js"
    english = words_in("en")
    missing = sorted(set(client) - set(english))
    assert not missing, f"words.js uses keys the server does not send: {missing}"
    for key, text in client.items():
        assert placeholders(text) == placeholders(english[key]), key
