"""The Bazar Blot auction, the "bazar" (bot/rulebook/blot.md "Auction").

Numeric seniority (NT does not beat a suit at the same level), passes that
do not bind, four consecutive passes to close, sticky capot bids (>= 25),
one contra by an opponent on their turn, and recontra or two passes by the
contracted team to end it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.core.actions import CONTRA, PASS, RECONTRA, Action, bid

STRAINS = ("C", "D", "H", "S", "NT")
MAX_LEVEL = 80
CAPOT_MIN = 25


@dataclass
class Auction:
    first: int  # dealer + 1
    min_bid: int = 8
    to_act: int = 0
    history: list[tuple[int, str]] = field(default_factory=list)
    bidder: int | None = None
    level: int | None = None
    strain: str | None = None
    capot: bool = False
    doubling: int = 0  # 0 none, 1 contra, 2 recontra
    contra_by: int | None = None
    passes: int = 0  # consecutive passes
    done: bool = False
    redeal: bool = False

    def __post_init__(self) -> None:
        self.to_act = self.first

    def contract_text(self) -> str | None:
        if self.level is None:
            return None
        parts = [str(self.level), str(self.strain)]
        if self.capot:
            parts.append("capot")
        if self.doubling:
            parts.append("contra" if self.doubling == 1 else "recontra")
        return " ".join(parts)

    def legal(self) -> list[Action]:
        seat = self.to_act
        if self.contra_by is not None:
            return [PASS, RECONTRA]
        actions = [PASS]
        low = self.min_bid if self.level is None else self.level + 1
        for level in range(low, MAX_LEVEL + 1):
            if not self.capot:
                actions.extend(bid(level, s) for s in STRAINS)
            if level >= CAPOT_MIN:
                actions.extend(bid(level, s, capot=True) for s in STRAINS)
        if self.bidder is not None and (seat - self.bidder) % 2 == 1:
            actions.append(CONTRA)
        return actions

    def apply(self, action: Action) -> None:
        seat = self.to_act
        self.history.append((seat, str(action)))
        if action.verb == "contra":
            self.doubling = 1
            self.contra_by = seat
            self.passes = 0
            self.to_act = (seat + 1) % 4
            return
        if action.verb == "recontra":
            self.doubling = 2
            self.done = True
            return
        if action.verb == "pass":
            self.passes += 1
            if self.contra_by is not None:
                if self.passes == 2:
                    self.done = True
                else:
                    self.to_act = (seat + 2) % 4  # the contracted team only
                return
            if self.passes == 4:
                self.done = True
                self.redeal = self.level is None
                return
            self.to_act = (seat + 1) % 4
            return
        self.bidder, self.level, self.strain = seat, action.number, action.word
        self.capot = action.capot
        self.passes = 0
        self.to_act = (seat + 1) % 4
