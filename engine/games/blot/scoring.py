"""Bazar Blot scoring (bot/rulebook/blot.md "Scoring" and "Match").

``round6(x) = (x + 4) // 10``: a remainder of 6 or more rounds up.
Multiplier M: suit 1, contra 2, recontra 4; NT 2, then the
``nt_doubling_multipliers`` setting (default 3 and 5).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field


def round6(points: int) -> int:
    return (points + 4) // 10


def multiplier(nt: bool, doubling: int, nt_multipliers: Sequence[int] = (3, 5)) -> int:
    """``doubling`` 0 = none, 1 = contra, 2 = recontra."""
    if nt:
        return (2, nt_multipliers[0], nt_multipliers[1])[doubling]
    return (1, 2, 4)[doubling]


@dataclass(frozen=True, slots=True)
class DealOutcome:
    """Everything the score of a deal depends on."""

    level: int
    nt: bool
    doubling: int  # 0, 1 contra, 2 recontra
    capot_bid: bool
    cards_declarers: int  # raw card points incl. the last trick
    tricks_declarers: int
    decl_declarers: int  # awarded declarations incl. belote, in raw points
    decl_defenders: int
    declarations_count: bool = True
    nt_multipliers: tuple[int, int] = (3, 5)


def is_made(o: DealOutcome) -> bool:
    """Made: ``cards + declarations >= 10 x level`` with at least one trick;
    a capot bid is made by taking all 8 tricks (ruling: its level, 25 or
    more, is a stake, not a number of card points -- "a made capot bid of
    25 scores 50")."""
    if o.capot_bid:
        return o.tricks_declarers == 8
    have = o.cards_declarers + (o.decl_declarers if o.declarations_count else 0)
    return have >= 10 * o.level and o.tricks_declarers >= 1


def score_deal(o: DealOutcome) -> tuple[int, int]:
    """(declarers, defenders) game points for one deal."""
    m = multiplier(o.nt, o.doubling, o.nt_multipliers)
    base = m * o.level
    decl_a, decl_d = o.decl_declarers // 10, o.decl_defenders // 10
    if not is_made(o):
        share = 25 if o.tricks_declarers == 0 else 16
        return 0, base + share + decl_d
    if o.tricks_declarers == 8:
        return base + 25 + decl_a, decl_d
    if o.doubling:
        return base + 16 + decl_a, decl_d
    return base + round6(o.cards_declarers) + decl_a, 16 - round6(o.cards_declarers) + decl_d


@dataclass(slots=True)
class Stakes:
    """What a deal's score depends on besides its card play: the contract
    and the declarations (raw points per team, belote included).  The table
    scores its deals with it and the searches price their outcomes with it."""

    declarer: int
    level: int
    nt: bool
    doubling: int = 0
    capot: bool = False
    #: awarded declarations plus belote, raw points, per team
    decl: list[int] = field(default_factory=lambda: [0, 0])
    declarations_count: bool = True
    nt_multipliers: tuple[int, int] = (3, 5)

    @property
    def side(self) -> int:
        """The declaring team."""
        return self.declarer % 2

    def outcome(self, cards_declarers: int, tricks_declarers: int) -> DealOutcome:
        side = self.declarer % 2
        return DealOutcome(
            level=self.level,
            nt=self.nt,
            doubling=self.doubling,
            capot_bid=self.capot,
            cards_declarers=cards_declarers,
            tricks_declarers=tricks_declarers,
            decl_declarers=self.decl[side],
            decl_defenders=self.decl[1 - side],
            declarations_count=self.declarations_count,
            nt_multipliers=self.nt_multipliers,
        )

    def score(self, cards_declarers: int, tricks_declarers: int) -> tuple[int, int]:
        """(declarers, defenders) game points with the declarers on these
        raw card points and tricks."""
        return score_deal(self.outcome(cards_declarers, tricks_declarers))

    def team_scores(self, points: Sequence[int], tricks: Sequence[int]) -> tuple[int, int]:
        """(team 0, team 1) game points from each team's raw card points and tricks."""
        side = self.declarer % 2
        a, d = self.score(points[side], tricks[side])
        return (a, d) if side == 0 else (d, a)

    def copy(self) -> Stakes:
        return Stakes(
            self.declarer,
            self.level,
            self.nt,
            self.doubling,
            self.capot,
            list(self.decl),
            self.declarations_count,
            self.nt_multipliers,
        )


def match_winner(totals: Sequence[int], target: int) -> int | None:
    """First team to the target; both -> higher; exact tie -> play on."""
    reached = [t for t, total in enumerate(totals) if total >= target]
    if not reached:
        return None
    if len(reached) == 1:
        return reached[0]
    if totals[0] == totals[1]:
        return None
    return 0 if totals[0] > totals[1] else 1
