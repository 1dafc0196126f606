"""The ``Game`` facade and the ``MatchState`` base every game builds on.

A game module subclasses both and fills in a few hooks (OpenSpiel style):
``_legal()`` and ``_apply()`` per phase, ``_explain(action)`` for refusals,
``view(seat)``, and ``_start(deal)`` for the first deal.  Everything common --
parsing text, refusing illegal actions without touching the state, the log,
cloning, replay -- lives here once.

Speed (issue 14): ``apply`` checks an action with ``_legal_action`` (a game
may answer without building the whole legal list) and knows the engine's own
shared action objects by identity; ``clone`` copies each attribute the way
``clone_plan`` names (shared when immutable, a shallow copy of its lists
otherwise) instead of deep-copying the state, and shares the match RNG with
the copy until one of them draws from it.
"""

from __future__ import annotations

import copy
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Collection, Mapping, Sequence
from enum import StrEnum
from typing import Any, ClassVar

from engine.core.actions import (
    BACKALLEY,
    SHARED_IDS,
    Action,
    check_action,
    parse_action,
    shared_or_same,
)
from engine.core.cards import Card, parse_cards
from engine.core.events import Event
from engine.core.spec import Variant as VariantBase
from engine.core.view import Observation
from engine.errors import (
    EngineError,
    GameOver,
    IllegalAction,
    InvalidAction,
    InvalidPosition,
    InvalidVariant,
    NotYourTurn,
    UnsupportedAction,
    quote,
)


class Phase(StrEnum):
    AUCTION = "auction"
    BIDDING = "bidding"
    TRUMP = "trump"
    PLAY = "play"
    OVER = "over"


# The members again as module constants, for the phase checks made on every
# action: on Python 3.11 ``Phase.PLAY`` goes through ``EnumType.__getattr__``
# and costs about ten times a global name.
PHASE_AUCTION = Phase.AUCTION
PHASE_BIDDING = Phase.BIDDING
PHASE_TRUMP = Phase.TRUMP
PHASE_PLAY = Phase.PLAY
PHASE_OVER = Phase.OVER


def new_seed() -> int:
    """A fresh seed for a match started without one (kept, so replay works)."""
    return random.SystemRandom().randrange(2**62)


def check_seed(seed: Any) -> int:
    """A seed is any ``int`` (negative and huge ones included: ``random.Random``
    takes them all, deterministically); not a bool, float or text, which
    would silently stand for some other number.  ``InvalidVariant`` otherwise."""
    if type(seed) is not int:
        raise InvalidVariant(
            f"a seed is a whole number (got {type(seed).__name__} {quote(seed)})", "bad_seed"
        )
    return seed


#: what each bid shape looks like, for messages
BID_FORMS: dict[str, str] = {
    "number": "'bid 3'",
    "strain": "'bid 9 H' (S, H, D, C or NT)",
    "capot": "'bid 25 S capot'",
    "backalley": "'bid backalley'",
}


def bid_form(action: Action) -> str:
    """``number``, ``strain``, ``capot`` or ``backalley``: the shape of a bid."""
    if action.word == BACKALLEY:
        return "backalley"
    if action.capot:
        return "capot"
    return "strain" if action.word is not None else "number"


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
    #: the shapes of ``bid`` this game uses (keys of ``BID_FORMS``)
    bid_forms: ClassVar[frozenset[str]] = frozenset()
    #: the most cards one ``play`` names (Ladder plays several equal cards)
    max_play_cards: ClassVar[int] = 1

    def variant(self, **options: Any) -> VariantBase:
        """Settings by their rule-book names; out of range -> InvalidVariant."""
        return self.Variant.from_options(options)

    def check_variant(self, variant: Any) -> VariantBase:
        """The variant to play: this game's own ``Variant``, a mapping of
        settings (names to values or texts), or None for the defaults; anything
        else (another game's variant, a string, a list) -> InvalidVariant."""
        if variant is None:
            return self.Variant()
        if isinstance(variant, self.Variant):
            return variant
        if isinstance(variant, Mapping):
            return self.Variant.from_options(variant)
        raise InvalidVariant(
            f"the variant of {self.title} is {self.name}.variant(...) or a mapping of its "
            f"settings (got {type(variant).__name__} {quote(variant)})",
            "bad_variant",
        )

    def num_seats(self, variant: VariantBase | None = None) -> int:
        return 4

    def team_of(self, seat: int) -> int | None:
        return seat % 2 if self.partnership else None

    def parse_action(self, text: str) -> Action:
        """Canonical notation -> Action (the grammar: ``engine.core.actions``).
        Text of a verb or a shape this game never uses (``pass`` in Callbreak,
        ``bid 9 H`` in Batak, two cards in a trick game) is UnsupportedAction."""
        action = parse_action(text)
        problem = self.form_problem(action)
        if problem is not None:
            raise UnsupportedAction(
                f"{quote(text.strip())} is not a {self.title} action: {problem}",
                params={"move": action.verb, "verbs": sorted(self.verbs)},
            )
        return action

    def form_problem(self, action: Action) -> str | None:
        """Why a well-formed ``action`` can never be legal in this game (its
        verb or shape), or None."""
        if action.verb not in self.verbs:
            return f"use {', '.join(sorted(self.verbs))}"
        if action.verb == "play" and len(action.cards) > self.max_play_cards:
            if self.max_play_cards == 1:
                return "play one card at a time, e.g. 'play AS'"
            return f"play at most {self.max_play_cards} cards at once"
        if action.verb == "bid" and bid_form(action) not in self.bid_forms:
            forms = " or ".join(BID_FORMS[f] for f in sorted(self.bid_forms))
            return f"a bid here looks like {forms}"
        return None

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
        """Rebuild a match from its record; raises the first refusal met
        (every input error is an EngineError: InvalidAction for a malformed
        action list, InvalidVariant for a bad seed or variant, InvalidPosition
        for a bad deal).  The seed is required: a replay never draws one."""
        if seed is None:
            raise InvalidVariant("a replay needs the match's seed", "bad_seed")
        if isinstance(actions, str | bytes | bytearray) or not isinstance(actions, Sequence):
            raise InvalidAction(
                "a replay takes a list of actions (Action or text), "
                f"not {type(actions).__name__} {quote(actions)}",
                "not_a_log",
            )
        state = self.new_match(
            seed=check_seed(seed), variant=self.check_variant(variant), deal=deal
        )
        for action in actions:
            state.apply(action)
        return state

    def conformance_variants(self) -> list[VariantBase]:
        """Variants the shared conformance suite plays (keep them quick)."""
        return [self.Variant()]

    def __repr__(self) -> str:
        return f"get_game({self.name!r})"


#: attribute name -> how ``MatchState.clone`` copies it
ClonePlan = Mapping[str, Callable[[Any], Any]]


def share(value: Any) -> Any:
    """``clone_plan``: the copy shares the value (immutable, or only ever
    replaced whole, never changed in place)."""
    return value


def copy_rows(rows: list[list[Any]]) -> list[list[Any]]:
    """``clone_plan``: a list of lists (hands), both levels copied."""
    return [list(row) for row in rows]


def copy_deal(deal: Any) -> Any:
    """``clone_plan`` for ``initial_deal``: None, or a dict of seats and
    (lists of) lists of card texts, every list copied."""
    if deal is None:
        return None
    return {
        key: [list(row) if isinstance(row, list) else row for row in value]
        if isinstance(value, list)
        else value
        for key, value in deal.items()
    }


def _deep(value: Any) -> Any:  # pragma: no cover - a marker, never called
    return value


class _RandomHandle:
    """A state's handle on the match RNG (``MatchState.rng``).  A clone and
    its original hold the same generator until one of them draws: that one
    first takes a private copy (copy on write).  Copying a ``random.Random``
    costs more than copying the rest of a state, and most clones (search
    worlds, the service's look-ahead) never draw.  Each state has its own
    handle, so no count is shared between states (or threads).  Two handles
    are equal when their generators are in the same state, so snapshots of
    a state compare as they did with a plain ``random.Random``."""

    __slots__ = ("private", "random")

    def __init__(self, rng: random.Random, private: bool = True) -> None:
        self.random = rng
        self.private = private

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _RandomHandle) and (
            self.random.getstate() == other.random.getstate()
        )

    __hash__ = None  # type: ignore[assignment]

    def __deepcopy__(self, memo: dict[int, Any]) -> _RandomHandle:
        return _RandomHandle(_copy_random(self.random))


def _copy_random(rng: random.Random) -> random.Random:
    new = type(rng).__new__(type(rng))
    new.setstate(rng.getstate())
    return new


class MatchState(ABC):
    """Mutable state of one match.  Subclasses keep their data in plain
    attributes and name in ``clone_plan`` how ``clone`` copies each one;
    an attribute the plan does not name is deep-copied (always right, only
    slower).

    ``_legal_memo`` (a slot, so outside the attributes that snapshots,
    ``clone`` and copies see) is the last ``legal_actions()`` answer with
    the ``_legal_key()`` it was computed for: ``apply`` accepts an action
    of that answer without asking the rules again while the key still
    matches (see ``_legal_key``)."""

    __slots__ = ("__dict__", "__weakref__", "_legal_memo")

    #: attribute -> how ``clone`` copies it: ``share``, ``list``, ``set``,
    #: ``copy_rows``... (subclasses extend it: ``{**Base.clone_plan, ...}``)
    clone_plan: ClassVar[ClonePlan] = {
        "game": share,
        "variant": share,
        "seed": share,
        "_rng": share,  # replaced by clone(): see _RandomHandle
        "log": list,
        "phase": share,
        "to_act": share,
        "round_number": share,
        "scores": list,
        "initial_deal": copy_deal,
        "num_seats": share,
    }

    game: Game
    variant: VariantBase
    seed: int
    log: list[Action]
    phase: Phase
    to_act: int | None
    round_number: int
    scores: list[int]
    initial_deal: Any
    #: (key, the legal actions) of the last ``legal_actions()``
    _legal_memo: tuple[tuple[Any, ...], tuple[Action, ...]] | None

    def __init__(self, game: Game, variant: VariantBase, seed: int | None) -> None:
        if not isinstance(variant, game.Variant):
            raise InvalidVariant(
                f"{type(variant).__name__} is not a {game.title} variant", "bad_variant"
            )
        self.game = game
        self.variant = variant
        self.seed = new_seed() if seed is None else check_seed(seed)
        self._rng = _RandomHandle(random.Random(self.seed))
        self.log = []
        self.phase = PHASE_PLAY
        self.to_act = None
        self.round_number = 1
        self.initial_deal = None
        self.num_seats = game.num_seats(variant)
        self._legal_memo = None

    @property
    def rng(self) -> random.Random:
        """The match RNG (deals, Ladder's redistribution), private to this
        state from the first use after a ``clone``."""
        handle = self._rng
        if not handle.private:
            handle.random = _copy_random(handle.random)
            handle.private = True
        return handle.random

    @rng.setter
    def rng(self, value: random.Random) -> None:
        self._rng = _RandomHandle(value)

    # -- the public API ----------------------------------------------------
    @property
    def is_over(self) -> bool:
        return self.phase is PHASE_OVER

    @property
    def decider(self) -> int | None:
        """The seat whose player makes the current decision."""
        return self.to_act

    def legal_actions(self) -> list[Action]:
        if self.phase is PHASE_OVER:
            return []
        legal = self._legal()
        key = self._legal_key()
        if key is not None:
            # a copy of our own: the caller may change the list it gets
            self._legal_memo = (key, tuple(legal))
        return legal

    def apply(self, action: Action | str, *, seat: int | None = None) -> list[Event]:
        """Apply one action for the seat to act and return what it caused.

        ``action`` is an ``Action`` or its text (read by ``game.parse_action``,
        a convenience for tests and front ends).  Anything else, and an Action
        that ``parse_action`` could not have produced (``number=True``, cards
        as plain tuples...), is InvalidAction.  ``seat``, when given, must be
        the int of the deciding seat (NotYourTurn otherwise).  Every refusal is
        an EngineError raised before anything changes: a refused action leaves
        the state exactly as it was.  An accepted action is one of
        ``legal_actions()``, and that canonical object is what the log keeps.
        """
        checked: Action
        if id(action) in SHARED_IDS:  # one of the engine's own action objects
            checked = action  # type: ignore[assignment]  # (no typing.cast call here)
        elif isinstance(action, str):
            checked = self.game.parse_action(action)
        else:  # an object built elsewhere: check it is a well-formed Action
            checked = shared_or_same(check_action(action))
        if self.phase is PHASE_OVER:
            raise GameOver("the match is over")
        if seat is not None and (type(seat) is not int or seat != self.decider):
            raise NotYourTurn(
                f"it is not your turn (waiting for seat {self.decider}; got {quote(seat)})",
                "not_your_turn",
            )
        try:
            memo = self._legal_memo
        except AttributeError:  # a state made without __init__ or clone
            memo = None
        # (identity, compared in C: ``in`` on the tuple would call the
        # dataclass ``__eq__`` of every action before the one found)
        if memo is not None and id(checked) in map(id, memo[1]) and memo[0] == self._legal_key():
            # ``checked`` is one of the objects of the last legal list, and
            # the position it was computed for has not changed since
            legal = checked
        else:
            found = self._legal_action(checked)
            if found is None:
                raise self._explain(checked)
            legal = found
        self._legal_memo = None
        events = self._apply(legal)
        self.log.append(legal)
        return events

    def clone(self) -> MatchState:
        """An independent copy: playing on it never changes this state (nor
        the reverse).  Each attribute is copied as ``clone_plan`` says."""
        new = object.__new__(type(self))
        plan = self.clone_plan
        memo: dict[int, Any] | None = None
        copied: dict[str, Any] = {}
        for name, value in self.__dict__.items():
            how = plan.get(name, _deep)
            if how is share:
                copied[name] = value
            elif how is _deep:
                if memo is None:
                    memo = {id(self.game): self.game, id(self.variant): self.variant}
                copied[name] = copy.deepcopy(value, memo)
            else:
                copied[name] = how(value)
        new.__dict__.update(copied)
        new._legal_memo = None
        # both now share the generator; each copies it before drawing
        self._rng.private = False
        new._rng = _RandomHandle(self._rng.random, private=False)
        return new

    def __getstate__(self) -> dict[str, Any]:
        """Copies (``copy.copy``, ``deepcopy``, pickling) take the
        attributes, never the legal-action memo: ids mean nothing in
        another process, and a copy asks the rules afresh."""
        return self.__dict__

    @abstractmethod
    def view(self, seat: int | None) -> Observation:
        """Everything ``seat`` may see (None: a spectator), nothing more.
        Implementations start with ``self.check_seat(seat)``."""

    def check_seat(self, seat: Any) -> None:
        """``seat`` is None (a spectator) or an int from 0 to num_seats - 1;
        else EngineError -- never a bool, nor ``-1`` quietly meaning the last
        seat and showing its hand."""
        if seat is not None and (type(seat) is not int or not 0 <= seat < self.num_seats):
            raise EngineError(
                f"a seat is a number from 0 to {self.num_seats - 1} or None (got {quote(seat)})",
                "bad_seat",
            )

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

    def _legal_key(self) -> tuple[Any, ...] | None:
        """What the legal actions depend on, cheaply, or None (the default:
        ``apply`` always asks ``_legal_action``).  When a game answers a key,
        ``legal_actions()`` remembers its list with the key, and ``apply``
        accepts an action of that list (the very object) without asking the
        rules again if the key is still equal -- so the key must change
        whenever the legal actions may (a trick game: the hand to play from
        and the trick, each with its length).  The memo also ends at every
        ``apply``; it is the usual driver's saving (``legal_actions()``, then
        ``apply`` of one of them), which otherwise computes the rules twice."""
        return None

    def _legal_action(self, action: Action) -> Action | None:
        """The object of ``_legal()`` equal to ``action`` (what the log keeps),
        or None when ``action`` is not legal.  Games override it where they can
        answer without building the whole list (a trick game's card play)."""
        legal = self._legal()
        for candidate in legal:
            if candidate is action:  # the engine's shared objects
                return candidate
        if action in legal:
            return legal[legal.index(action)]
        return None

    @abstractmethod
    def _apply(self, action: Action) -> list[Event]: ...

    def _explain(self, action: Action) -> IllegalAction:
        """Why ``action`` is refused; games override for rule-specific reasons."""
        return IllegalAction(f"{action} is not a legal action now ({self.phase.value})")

    def _wrong_phase(self, action: Action) -> IllegalAction:
        return IllegalAction(
            f"{action.verb!r} is not possible now: the {self.phase.value} phase is on",
            "wrong_phase",
            {"move": action.verb, "phase": self.phase.value},
        )


def normalize_hands(
    hands: Sequence[Any],
    num_seats: int,
    size: int | None,
    deck: Collection[Card] | None = None,
) -> list[list[Card]]:
    """Parse a list of hands (card texts or Cards); raise InvalidPosition on a
    wrong seat count, a wrong hand size, something that is not a card, a card
    outside ``deck`` (a joker in a 52-card game) or a card dealt twice."""
    problems: list[str] = []
    if len(hands) != num_seats:
        problems.append(f"expected {num_seats} hands, got {len(hands)}")
    parsed: list[list[Card]] = []
    for seat, hand in enumerate(hands):
        try:
            cards = parse_cards(hand)
        except ValueError as exc:
            problems.append(f"seat {seat}: {exc}")
            cards = []
        if size is not None and len(cards) != size:
            problems.append(f"seat {seat} holds {len(cards)} cards, expected {size}")
        if deck is not None:
            problems += [
                f"seat {seat}: {c} is not in this game's deck" for c in cards if c not in deck
            ]
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


def split_deal(deal: Any, extras_allowed: Sequence[str] = ()) -> tuple[list[Any], dict[str, Any]]:
    """A ``deal`` argument is a list of hands or a mapping with "hands" and
    extras (only the names in ``extras_allowed``); InvalidPosition otherwise."""
    if isinstance(deal, Mapping):
        extras = dict(deal)
        hands = extras.pop("hands", None)
        unknown = [k for k in extras if k not in extras_allowed]
        if unknown:
            allowed = ", ".join(["hands", *extras_allowed])
            raise InvalidPosition(
                [f"unknown deal entry {quote(k)} (known: {allowed})" for k in unknown]
            )
        if hands is None:
            raise InvalidPosition(["an explicit deal needs 'hands'"])
        return check_rows(hands, "hands"), extras
    return check_rows(deal, "deal"), {}


def check_rows(rows: Any, what: str) -> list[Any]:
    """``rows`` as a list when it is a list or tuple (of hands, card rows or
    cards); InvalidPosition otherwise."""
    if not isinstance(rows, list | tuple):
        raise InvalidPosition([f"{what} must be a list (got {quote(rows)})"])
    return list(rows)


def deal_seat(extras: Mapping[str, Any], key: str, num_seats: int, default: int) -> int:
    """A seat named in an explicit deal ("dealer", "first_bidder"): an int
    from 0 to num_seats - 1, else InvalidPosition."""
    value = extras.get(key, default)
    if type(value) is not int or not 0 <= value < num_seats:
        raise InvalidPosition(
            [f"{key} must be a seat from 0 to {num_seats - 1} (got {quote(value)})"]
        )
    return value


def hands_to_text(hands: Sequence[Sequence[Card]]) -> list[list[str]]:
    return [[str(c) for c in hand] for hand in hands]
