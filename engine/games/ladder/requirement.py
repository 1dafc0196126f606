"""Ladder values, action ranks and the requirement set by the last play
(bot/rulebook/ladder.md "Values" and "What may be played")."""

from __future__ import annotations

from dataclasses import dataclass

ACTION_RANKS = frozenset({2, 3, 9, 10})
ORDINARY_RANKS = frozenset({4, 5, 6, 7, 8, 11, 12, 13, 14})


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

    def allows(self, rank: int) -> bool:
        """Under ANY every rank; under MIN v ordinary ranks >= v and every
        action rank; under MAX 9 exactly the ranks 2..9."""
        if self.kind == "ANY":
            return True
        if self.kind == "MAX":
            return 2 <= rank <= 9
        assert self.value is not None
        return rank in ACTION_RANKS or rank >= self.value

    def describe(self) -> str:
        if self.kind == "ANY":
            return "any rank may be played"
        if self.kind == "MAX":
            return "only 2 to 9 may be played (T, J, Q, K, A are blocked)"
        return f"play {self.value} or higher, or an action card (2, 3, 9, T)"


ANY = Requirement()
MAX9 = Requirement("MAX", 9)


def after_play(rank: int) -> Requirement:
    """The requirement an ordinary card, a 9 or a T leaves (2 and 3: ANY)."""
    if rank in (2, 3):
        return ANY
    if rank == 9:
        return MAX9
    return Requirement("MIN", rank)
