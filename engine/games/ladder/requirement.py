"""Ladder values, action ranks and the requirement set by the last play
(bot/rulebook/ladder.md "Values" and "What may be played").

The rule is written once, on *requirement codes* (ints: ``0`` = ANY,
``v`` = MIN v, ``MAX9`` = only 2..9), in ``allows`` and ``after_play_code``
with the tables ``ALLOWED`` and ``AFTER_PLAY`` made from them; the
``Requirement`` object is the same rule's face for text and views
(``str``, ``parse``, ``describe``) and answers from the codes.
"""

from __future__ import annotations

from dataclasses import dataclass

ACTION_RANKS = frozenset({2, 3, 9, 10})
ORDINARY_RANKS = frozenset({4, 5, 6, 7, 8, 11, 12, 13, 14})
#: the ranks of a 52-card deck, low to high
RANKS = range(2, 15)
#: the action ranks, low to high
ACTION_ORDER = (2, 3, 9, 10)
#: rank -> is an action card (2, 3, 9, T); indexed 0..14
IS_ACTION = tuple(r in ACTION_RANKS for r in range(15))
#: requirement code of ANY and of MAX 9 (MIN v is v itself)
ANY_CODE = 0
MAX9_CODE = -9
#: a MIN above every ordinary rank (only action cards pass): MIN v for v > 14
TOP_CODE = 15


def allows(code: int, rank: int) -> bool:
    """ "What may be played": under ANY every rank; under MIN v ordinary
    ranks >= v and every action rank; under MAX 9 exactly the ranks 2..9."""
    if code == ANY_CODE:
        return True
    if code == MAX9_CODE:
        return 2 <= rank <= 9
    return IS_ACTION[rank] or rank >= code


def after_play_code(rank: int) -> int:
    """ "Effects": the requirement an ordinary card, a 9 or a T leaves (2 and
    3: ANY; a 9: MAX 9; any other rank v: MIN v)."""
    if rank in (2, 3):
        return ANY_CODE
    if rank == 9:
        return MAX9_CODE
    return rank


#: requirement code -> the ranks it allows, lowest first (the legal-play scan)
ALLOWED: dict[int, tuple[int, ...]] = {
    code: tuple(r for r in RANKS if allows(code, r))
    for code in (ANY_CODE, MAX9_CODE, *range(1, TOP_CODE + 1))
}
#: rank -> the requirement code a play of it leaves; indexed 0..14
AFTER_PLAY = tuple(after_play_code(r) if r >= 2 else ANY_CODE for r in range(15))


@dataclass(frozen=True, slots=True)
class Requirement:
    """``ANY``, ``MIN v`` or ``MAX 9``."""

    kind: str = "ANY"
    value: int | None = None

    def __str__(self) -> str:
        return self.kind if self.value is None else f"{self.kind} {self.value}"

    @staticmethod
    def parse(text: str) -> Requirement:
        parts = text.upper().split()
        if parts == ["ANY"]:
            return ANY
        if len(parts) == 2 and parts[0] == "MIN" and parts[1].isdigit():
            return Requirement("MIN", int(parts[1]))
        if parts == ["MAX", "9"]:
            return MAX9
        raise ValueError(f"a requirement is ANY, MIN v or MAX 9 (got {text!r})")

    @property
    def code(self) -> int:
        """The requirement code (module docstring); MIN v with v <= 2 allows
        every rank (code ANY), with v > 14 only the action ranks."""
        if self.kind == "ANY":
            return ANY_CODE
        if self.kind == "MAX":
            return MAX9_CODE
        assert self.value is not None
        return ANY_CODE if self.value <= 2 else min(self.value, TOP_CODE)

    def allows(self, rank: int) -> bool:
        """``allows`` on this requirement's code."""
        return allows(self.code, rank)

    def describe(self) -> str:
        if self.kind == "ANY":
            return "any rank may be played"
        if self.kind == "MAX":
            return "only 2 to 9 may be played (T, J, Q, K, A are blocked)"
        return f"play {self.value} or higher, or an action card (2, 3, 9, T)"


ANY = Requirement()
MAX9 = Requirement("MAX", 9)
#: requirement code -> the requirement a play or a pickup leaves
OF_CODE: dict[int, Requirement] = {
    ANY_CODE: ANY,
    MAX9_CODE: MAX9,
    **{v: Requirement("MIN", v) for v in range(4, TOP_CODE)},
}


def after_play(rank: int) -> Requirement:
    """The requirement an ordinary card, a 9 or a T leaves (2 and 3: ANY)."""
    return OF_CODE[AFTER_PLAY[rank]]
