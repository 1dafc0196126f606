"""The ``Game`` facade and the ``MatchState`` base every game builds on.

A game module subclasses both and fills in a few hooks (OpenSpiel style):
``_legal()`` and ``_apply()`` per phase, ``_explain(action)`` for refusals,
``view(seat)``, and ``_start(deal)`` for the first deal.  Everything common --
parsing text, refusing illegal actions without touching the state, the log,
cloning, replay -- lives here once.
"""

from __future__ import annotations

import copy
import random
from abc import ABC, abstractmethod
from collections.abc import Sequence
from enum import StrEnum
from typing import Any, ClassVar

from engine.core.actions import Action, parse_action
from engine.core.cards import Card, parse_cards
from engine.core.events import Event
from engine.core.spec import Variant as VariantBase
from engine.core.view import Observation
from engine.errors import (
    GameOver,
    IllegalAction,
    InvalidPosition,
    NotYourTurn,
    UnsupportedAction,
)


class Phase(StrEnum):
    AUCTION = "auction"
    BIDDING = "bidding"
    TRUMP = "trump"
    PLAY = "play"
    OVER = "over"


def new_seed() -> int:
    """A fresh seed for a match started without one (kept, so replay works)."""
    return random.SystemRandom().randrange(2**62)


class Game(ABC):
    """A registered game: settings, match creation, notation and scoring."""

    name: ClassVar[str]
    title: ClassVar[str]
    summary: ClassVar[str] = ""
    Variant: ClassVar[type[VariantBase]]
    verbs: ClassVar[frozenset[str]]
    #: partnership game: seats i and i+2 form team i % 2
    partnership: ClassVar[bool] = False
    #: rule sections worth a line each in /rules and the terminal's help
    rules_lines: ClassVar[tuple[str, ...]] = ()

    def variant(self, **options: Any) -> VariantBase:
        """Settings by their rule-book names; out of range -> InvalidVariant."""
        return self.Variant.from_options(options)

    def num_seats(self, variant: VariantBase | None = None) -> int:
        return 4

    def team_of(self, seat: int) -> int | None:
        return seat % 2 if self.partnership else None

    def parse_action(self, text: str) -> Action:
        """Canonical notation -> Action; text of another game's verb is refused."""
        action = parse_action(text)
        if action.verb not in self.verbs:
            allowed = ", ".join(sorted(self.verbs))
            raise UnsupportedAction(
                f"{text.strip()!r} is not a {self.title} action (use: {allowed})"
            )
        return action

    @abstractmethod
    def new_match(
        self,
        seed: int | None = None,
        variant: VariantBase | None = None,
        deal: Any = None,
    ) -> MatchState:
        """A new match; ``deal`` fixes the first deal (list of hands or dict)."""

    @abstractmethod
    def position(self, **facts: Any) -> MatchState:
        """A mid-deal state built from named facts (see each game's module)."""

    def replay(
        self,
        actions: Sequence[Action | str],
        *,
        seed: int,
        variant: VariantBase | dict[str, Any] | None = None,
        deal: Any = None,
    ) -> MatchState:
        """Rebuild a match from its record; raises the first refusal met."""
        if isinstance(variant, dict):
            variant = self.Variant.from_options(variant)
        state = self.new_match(seed=seed, variant=variant, deal=deal)
        for action in actions:
            state.apply(action)
        return state

    def conformance_variants(self) -> list[VariantBase]:
        """Variants the shared conformance suite plays (keep them quick)."""
        return [self.Variant()]

    def __repr__(self) -> str:
        return f"get_game({self.name!r})"


class MatchState(ABC):
    """Mutable state of one match.  Subclasses keep their data in plain
    attributes so ``clone`` (a deep copy sharing game and variant) is exact."""

    game: Game
    variant: VariantBase
    seed: int
    rng: random.Random
    log: list[Action]
    phase: Phase
    to_act: int | None
    round_number: int
    scores: list[int]
    initial_deal: Any

    def __init__(self, game: Game, variant: VariantBase, seed: int | None) -> None:
        self.game = game
        self.variant = variant
        self.seed = new_seed() if seed is None else int(seed)
        self.rng = random.Random(self.seed)
        self.log = []
        self.phase = Phase.PLAY
        self.to_act = None
        self.round_number = 1
        self.initial_deal = None
        self.num_seats = game.num_seats(variant)

    # -- the public API ----------------------------------------------------
    @property
    def is_over(self) -> bool:
        return self.phase is Phase.OVER

    @property
    def decider(self) -> int | None:
        """The seat whose player makes the current decision."""
        return self.to_act

    def legal_actions(self) -> list[Action]:
        if self.is_over:
            return []
        return self._legal()

    def apply(self, action: Action | str, *, seat: int | None = None) -> list[Event]:
        """Apply one action for the seat to act.  Nothing changes unless it is
        legal; refusals raise IllegalAction (or NotYourTurn / GameOver)."""
        if isinstance(action, str):
            action = self.game.parse_action(action)
        if self.is_over:
            raise GameOver("the match is over")
        if seat is not None and seat != self.decider:
            raise NotYourTurn(
                f"it is not your turn (waiting for seat {self.decider})", "not_your_turn"
            )
        if action not in self._legal():
            raise self._explain(action)
        events = self._apply(action)
        self.log.append(action)
        return events

    def clone(self) -> MatchState:
        memo: dict[int, Any] = {id(self.game): self.game, id(self.variant): self.variant}
        return copy.deepcopy(self, memo)

    @abstractmethod
    def view(self, seat: int | None) -> Observation:
        """Everything ``seat`` may see (None: a spectator), nothing more."""

    def record(self) -> dict[str, Any]:
        """The match as data: enough to rebuild it with ``game.replay``."""
        return {
            "game": self.game.name,
            "variant": self.variant.to_dict(),
            "seed": self.seed,
            "deal": self.initial_deal,
            "actions": [str(a) for a in self.log],
        }

    def card_inventory(self) -> list[Card]:
        """Every card of the match's deck wherever it lies now (hands, trick,
        tricks taken, stock, pile...): each exactly once."""
        raise NotImplementedError

    def full_deck(self) -> list[Card]:
        """The deck this match is played with."""
        raise NotImplementedError

    def shuffled_unseen(self, seat: int, rng: random.Random) -> MatchState:
        """A copy in which the cards ``seat`` cannot see are redistributed at
        random among the places it cannot see (same counts).  The seat's view
        must not change: the information-hiding tests rely on it, and search
        agents use the same idea to sample worlds."""
        raise NotImplementedError

    # -- hooks -------------------------------------------------------------
    @abstractmethod
    def _legal(self) -> list[Action]: ...

    @abstractmethod
    def _apply(self, action: Action) -> list[Event]: ...

    def _explain(self, action: Action) -> IllegalAction:
        """Why ``action`` is refused; games override for rule-specific reasons."""
        return IllegalAction(f"{action} is not a legal action now ({self.phase.value})")

    def _wrong_phase(self, action: Action) -> IllegalAction:
        return IllegalAction(
            f"{action.verb!r} is not possible now: the {self.phase.value} phase is on",
            "wrong_phase",
        )


def normalize_hands(hands: Sequence[Any], num_seats: int, size: int | None) -> list[list[Card]]:
    """Parse a list of hands (card texts or Cards); raise InvalidPosition on a
    wrong seat count, a wrong hand size or a card dealt twice."""
    problems: list[str] = []
    if len(hands) != num_seats:
        problems.append(f"expected {num_seats} hands, got {len(hands)}")
    parsed: list[list[Card]] = []
    for seat, hand in enumerate(hands):
        try:
            cards = (
                parse_cards(hand) if isinstance(hand, str) else parse_cards([str(c) for c in hand])
            )
        except ValueError as exc:
            problems.append(f"seat {seat}: {exc}")
            cards = []
        if size is not None and len(cards) != size:
            problems.append(f"seat {seat} holds {len(cards)} cards, expected {size}")
        parsed.append(cards)
    seen: dict[Card, int] = {}
    for seat, cards in enumerate(parsed):
        for card in cards:
            if card in seen:
                problems.append(f"{card} dealt twice (seats {seen[card]} and {seat})")
            seen[card] = seat
    if problems:
        raise InvalidPosition(problems)
    return parsed


def split_deal(deal: Any) -> tuple[list[Any], dict[str, Any]]:
    """A ``deal`` argument is a list of hands or a dict with "hands" and extras."""
    if isinstance(deal, dict):
        extras = dict(deal)
        hands = extras.pop("hands", None)
        if hands is None:
            raise InvalidPosition(["an explicit deal needs 'hands'"])
        return list(hands), extras
    return list(deal), {}


def hands_to_text(hands: Sequence[Sequence[Card]]) -> list[list[str]]:
    return [[str(c) for c in hand] for hand in hands]
