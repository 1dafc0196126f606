"""No game rule is written in engine/ai (issue 25, "One rules implementation").

The rules (which cards are legal, who wins a trick, what a card does to the
play state, how a deal scores) are the engine's: ``engine.core.follow``,
``engine.core.playmask``, the games' ``rules.py`` and ``scoring.py``,
Ladder's ``engine.games.ladder.table``.  The
AI chooses among legal cards and evaluates; it calls those functions.  This
test reads every module of engine/ai (its syntax tree) and refuses:

- a function or class whose name says it states a rule (``legal``,
  ``trick_winner``, ``score_deal``...);
- the follow and trick-winner idioms on masks: ``ABOVE[x.led_top]`` and
  ``ABOVE[x.trump_top]`` (what beats the trick: ``PlayMask.beating``);
- changing the play state by hand (assigning ``won``, ``led_top``,
  ``trump_top``, ``win_seat`` or ``broken``, or taking a card from
  ``hands[...]`` / counting a trick in ``won[...]``: a card is played by the
  engine, ``PlayMask.play``/``push``, or ``state.apply``; dealing a sampled
  world, ``hands[seat] = ...``, is the AI's);
- importing the deleted restatement (``engine.ai.bitdeal``).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

AI = Path(__file__).resolve().parents[2] / "engine" / "ai"

#: modules whose game's rules are still restated on masks, being moved onto
#: the engine by their owners.  This list must only shrink: remove a
#: module's entry when its rules are the engine's.  (Empty: Blot and Ladder
#: are converted.)
NOT_YET_CONVERTED: set[str] = set()

#: names a rule would be defined under
RULE_NAMES = {
    "legal",
    "legal_mask",
    "legal_cards",
    "allowed_cards",
    "_allowed_cards",
    "follow",
    "must_follow",
    "trick_winner",
    "winning_play",
    "winner",
    "beating",
    "play_card",
    "score_deal",
    "score_bid",
    "score_tricks",
    "deal_scores",
    # Ladder (engine.games.ladder.table, requirement.py)
    "plays",
    "play_counts",
    "allows",
    "after_play",
    "redeal",
    "_pick_up",
    "_effect",
}
PLAY_STATE = {"won", "led_top", "trump_top", "win_seat", "broken"}
DELETED = {"engine.ai.bitdeal"}


def modules() -> list[Path]:
    return sorted(
        p for p in AI.rglob("*.py") if p.relative_to(AI).as_posix() not in NOT_YET_CONVERTED
    )


def problems(tree: ast.AST) -> list[str]:
    found = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            if node.name in RULE_NAMES:
                found.append(f"line {node.lineno}: defines {node.name!r}")
        elif isinstance(node, ast.Subscript):
            if (
                isinstance(node.value, ast.Name)
                and node.value.id == "ABOVE"
                and isinstance(node.slice, ast.Attribute)
                and node.slice.attr in ("led_top", "trump_top")
            ):
                found.append(f"line {node.lineno}: ABOVE[...{node.slice.attr}]")
        elif isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                if isinstance(target, ast.Attribute) and target.attr in PLAY_STATE:
                    found.append(f"line {node.lineno}: sets .{target.attr}")
                if (
                    isinstance(node, ast.AugAssign)
                    and isinstance(target, ast.Subscript)
                    and isinstance(target.value, ast.Attribute)
                    and target.value.attr in ("hands", "won")
                ):
                    found.append(f"line {node.lineno}: changes .{target.value.attr}[...]")
        elif isinstance(node, ast.ImportFrom) and node.module in DELETED:
            found.append(f"line {node.lineno}: imports {node.module}")
        elif isinstance(node, ast.Import):
            found.extend(
                f"line {node.lineno}: imports {a.name}" for a in node.names if a.name in DELETED
            )
    return found


@pytest.mark.parametrize("path", modules(), ids=lambda p: p.relative_to(AI).as_posix())
def test_no_rules_in_ai_modules(path: Path) -> None:
    assert problems(ast.parse(path.read_text(), str(path))) == []


def test_the_allow_list_names_existing_modules_only() -> None:
    """An entry for a module that is gone (or converted and renamed) must go."""
    for name in NOT_YET_CONVERTED:
        assert (AI / name).exists(), f"{name} no longer exists: remove it from the list"


def test_the_check_finds_a_restated_rule() -> None:
    """The check is not vacuous: each idiom it refuses is found."""
    source = """
from engine.ai.bitdeal import Deal
def legal(deal):
    return deal.hands[0] & ABOVE[deal.led_top]
def play(deal, bit):
    deal.hands[deal.to_act] &= ~(1 << bit)
    deal.won[0] += 1
    deal.trump_top = bit
"""
    found = problems(ast.parse(source))
    assert len(found) == 6, found


def test_the_check_finds_a_restated_ladder_rule() -> None:
    """Ladder's legal plays or effects written again in engine/ai are found."""
    source = """
def plays(table, seat):
    return {}
def after_play(rank):
    return rank
"""
    assert len(problems(ast.parse(source))) == 2
