"""Differential test: the engine behaves exactly as it did before its hot paths
were rewritten (issue 14).  Seeded random games of all five games are reduced
to digests of everything observable (``fingerprint.py``) and compared with
digests recorded at the commit before the rewrite."""

from __future__ import annotations

import json

import pytest

from tests.engine import fingerprint

RECORDED: dict[str, str] = json.loads(fingerprint.DATA.read_text())
CASES = list(enumerate(fingerprint.CASES))


def test_every_game_and_case_is_recorded():
    names = {name for name, _ in fingerprint.CASES}
    assert names == {"batak", "callbreak", "blot", "backalley", "ladder"}
    expected = {fingerprint.key(i, s) for i, _ in CASES for s in fingerprint.SEEDS}
    assert set(RECORDED) == expected


@pytest.mark.parametrize(("index", "case"), CASES, ids=[f"{n}-v{i}" for i, (n, _) in CASES])
def test_seeded_random_games_match_the_recorded_fingerprint(index, case):
    name, options = case
    changed = [
        seed
        for seed in fingerprint.SEEDS
        if fingerprint.digest(name, options, seed) != RECORDED[fingerprint.key(index, seed)]
    ]
    assert not changed, (
        f"{name} case {index}: behaviour changed for seeds {changed}; compare "
        f"`python -m tests.engine.fingerprint --dump {index} {changed[0]}` with the same "
        "command at the recording commit"
    )


def test_a_changed_rule_changes_the_fingerprint(monkeypatch):
    """The digest is sensitive: a one-point scoring change shows."""
    from engine.games.callbreak import rules

    original = rules.score_deal
    monkeypatch.setattr(rules, "score_deal", lambda b, t: tuple(x + 1 for x in original(b, t)))
    name, options = fingerprint.CASES[1]
    assert fingerprint.digest(name, options, 0) != RECORDED[fingerprint.key(1, 0)]
