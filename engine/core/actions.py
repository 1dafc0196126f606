"""Actions and their canonical text notation.

One ``Action`` type serves every game (DESIGN.md, "Action notation"):
``play AS``, ``play 7H 7D``, ``bid 9``, ``bid 9 H``, ``bid 9 NT``,
``bid 25 S capot``, ``bid backalley``, ``pass``, ``contra``, ``recontra``,
``trump H``, ``pickup``, ``hidden 2``.  ``str(action)`` is canonical and
``parse_action(str(a)) == a`` for every action.  A game narrows the verbs and
shapes it accepts in ``Game.parse_action``.

The grammar is strict on purpose (issue "Nothing lost at the edges"): text
that is not exactly an action is refused with ``InvalidAction`` quoting it,
never read as something else.  Accepted: surrounding whitespace, any case,
runs of spaces or tabs between words, and a ten written ``10`` (``10H``).
Refused: anything but plain ASCII letters, digits, spaces and tabs (so no
unicode digits such as ``²`` or ``٣``, no look-alike letters, no commas or
line breaks), more than ``MAX_ACTION_TEXT`` characters, an unknown verb (a
bare card or number included: the front ends resolve their own shorthand
against the legal actions), missing or extra words, numbers with a sign or a
leading zero or above ``MAX_NUMBER``, and malformed or repeated cards.
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass
from typing import Any, TypeGuard, cast

from engine.core.cards import JOKER_SUIT, SUITS, Card, standard_deck
from engine.errors import InvalidAction, quote

VERBS = frozenset({"play", "bid", "pass", "contra", "recontra", "trump", "pickup", "hidden"})
STRAINS = (*SUITS, "NT")
BACKALLEY = "backalley"
#: the longest text ``parse_action`` reads; the longest real action is far shorter
MAX_ACTION_TEXT = 64
#: the largest number in an action (bid levels, hidden-card slots)
MAX_NUMBER = 999
_SUIT_INDEX = {s: i for i, s in enumerate((JOKER_SUIT, *SUITS))}
_WORD_SEPARATOR = re.compile(r"[ \t]+")
_ALLOWED_TEXT = re.compile(r"[A-Za-z0-9 \t]*")
_NUMBER = re.compile(r"0|[1-9][0-9]{0,2}")
_CARD_OF_TOKEN: dict[str, Card] = {str(c): c for c in standard_deck(jokers=True)}
_CARD_OF_TOKEN.update({"10" + s: Card(10, s) for s in SUITS})
_VALID_CARDS = frozenset(_CARD_OF_TOKEN.values())
_NO_ARGUMENT_VERBS = ("pass", "contra", "recontra", "pickup")


def _card_order(card: Card) -> tuple[int, int]:
    return (_SUIT_INDEX.get(card.suit, 9), -card.rank)


@dataclass(frozen=True, slots=True)
class Action:
    """A decision.  Fields not used by a verb stay at their defaults.

    - ``cards``: the cards of a ``play`` (several equal ranks in Ladder), kept
      in canonical order (suit S H D C, high first) whatever order they are
      given in, so that ``play 7D 7H`` and ``play 7H 7D`` are one action.
    - ``number``: a bid level, or the hidden-card index (1-based) of ``hidden``.
    - ``word``: a strain (``S``..``C``, ``NT``) for ``bid``/``trump``, or
      ``backalley`` for Backalley's whole-hand bid.
    - ``capot``: Bazar Blot's capot bid.

    Construction does not validate (legal-action lists build many actions);
    ``check_action`` does, and ``MatchState.apply`` calls it.
    """

    verb: str
    cards: tuple[Card, ...] = ()
    number: int | None = None
    word: str | None = None
    capot: bool = False

    def __deepcopy__(self, memo: dict[int, Any]) -> Action:
        """Immutable: copies of a state share it (``MatchState.clone``)."""
        return self

    def __post_init__(self) -> None:
        cards = self.cards
        if len(cards) > 1 and all(type(c) is Card for c in cards):
            object.__setattr__(self, "cards", tuple(sorted(cards, key=_card_order)))

    def __str__(self) -> str:
        text = _TEXT_OF_SHARED.get(id(self))
        return text if text is not None else self._format()

    def _format(self) -> str:
        """The canonical notation (``str(action)``), formatted from the fields."""
        parts = [self.verb]
        parts.extend(str(c) for c in self.cards)
        if self.number is not None:
            parts.append(str(self.number))
        if self.word is not None:
            parts.append(self.word)
        if self.capot:
            parts.append("capot")
        return " ".join(parts)

    def __repr__(self) -> str:
        return f"Action.parse({str(self)!r})"

    @property
    def card(self) -> Card:
        """The single card of a one-card play."""
        return self.cards[0]

    @staticmethod
    def parse(text: str) -> Action:
        return parse_action(text)


# -- reading text ----------------------------------------------------------------
def parse_action(text: str) -> Action:
    """Read canonical action text; see the module docstring for the grammar.

    Raises ``InvalidAction`` quoting the (clipped) input when the text is not
    exactly one action.
    """
    if not isinstance(text, str):
        raise InvalidAction(
            f"an action is text such as 'play AS' or 'bid 3', not {type(text).__name__} "
            f"{quote(text)}",
            "not_text",
        )
    if len(text) > MAX_ACTION_TEXT:
        raise InvalidAction(
            f"{quote(text)} is too long: an action is at most {MAX_ACTION_TEXT} characters",
            "too_long",
            {"limit": MAX_ACTION_TEXT},
        )
    body = text.strip(" \t\r\n")
    if not body:
        raise InvalidAction("empty input: type an action such as 'play AS' or 'bid 3'", "empty")
    if not _ALLOWED_TEXT.fullmatch(body):
        odd = next(ch for ch in body if not _ALLOWED_TEXT.fullmatch(ch))
        raise InvalidAction(
            f"{quote(body)} is not an action: {odd!r} is not allowed "
            "(use plain letters, digits and spaces, e.g. 'play 7H 7D')",
            "bad_character",
        )
    words = _WORD_SEPARATOR.split(body)
    verb, args = words[0].lower(), words[1:]
    if verb not in VERBS:
        card = _CARD_OF_TOKEN.get(words[0].upper())
        hint = f"to play it, type 'play {card}'" if card else "e.g. 'play AS', 'bid 3', 'pass'"
        raise InvalidAction(
            f"{quote(body)} is not an action: it must start with one of "
            f"{', '.join(sorted(VERBS))} ({hint})",
            "unknown_verb",
            {"word": words[0][:24]},
        )
    if verb == "play":
        return _parse_play(body, args)
    if verb in _NO_ARGUMENT_VERBS:
        if args:
            raise InvalidAction(
                f"{quote(body)}: {verb!r} takes nothing after it", "extra_words", {"move": verb}
            )
        return _BARE[verb]
    if verb == "trump":
        if len(args) != 1 or args[0].upper() not in SUITS:
            raise InvalidAction(f"{quote(body)}: name one suit, e.g. 'trump H'", "bad_trump")
        return trump(args[0].upper())
    if verb == "hidden":
        if len(args) != 1:
            raise InvalidAction(
                f"{quote(body)}: name one hidden card, e.g. 'hidden 2'", "bad_hidden"
            )
        return hidden(_parse_number(body, args[0]))
    return _parse_bid(body, args)


def _parse_number(body: str, word: str) -> int:
    if not _NUMBER.fullmatch(word):
        raise InvalidAction(
            f"{quote(body)}: {quote(word, 8)} is not a number from 0 to {MAX_NUMBER} "
            "(digits only, no sign or leading zero)",
            "bad_number",
            {"word": word[:8], "max": MAX_NUMBER},
        )
    return int(word)


def _parse_play(body: str, args: list[str]) -> Action:
    if not args:
        raise InvalidAction(f"{quote(body)}: 'play' needs a card, e.g. 'play AS'", "bad_play")
    cards: list[Card] = []
    for word in args:
        card = _CARD_OF_TOKEN.get(word.upper())
        if card is None:
            raise InvalidAction(
                f"{quote(body)}: {quote(word, 8)} is not a card "
                "(rank 2-9 T J Q K A, then suit S H D C: AS, TH, 10H, 7D; jokers RJ, BJ)",
                "bad_card",
                {"word": word[:8]},
            )
        if card in cards:
            raise InvalidAction(
                f"{quote(body)}: {card} is named twice", "bad_card", {"card": str(card)}
            )
        cards.append(card)
    return play(*cards)


def _parse_bid(body: str, args: list[str]) -> Action:
    if len(args) == 1 and args[0].lower() == BACKALLEY:
        return bid(word=BACKALLEY)
    if not args or len(args) > 3:
        raise InvalidAction(
            f"{quote(body)}: a bid is 'bid N', 'bid N S' (S, H, D, C or NT), "
            "'bid N S capot' or 'bid backalley'",
            "bad_bid",
        )
    number = _parse_number(body, args[0])
    rest = [a.upper() for a in args[1:]]
    if rest and rest[0] == "CAPOT":
        raise InvalidAction(
            f"{quote(body)}: capot follows a strain, e.g. 'bid 25 S capot'", "bad_strain"
        )
    if rest and rest[0] not in STRAINS:
        raise InvalidAction(f"{quote(body)}: a bid strain is one of S, H, D, C or NT", "bad_strain")
    if len(rest) == 2 and rest[1] != "CAPOT":
        raise InvalidAction(
            f"{quote(body)}: only 'capot' may follow the strain, e.g. 'bid 25 S capot'",
            "bad_bid",
        )
    return bid(number, rest[0] if rest else None, len(rest) == 2)


# -- checking Action objects ----------------------------------------------------------
def action_problem(action: Any) -> str | None:
    """Why ``action`` is not an ``Action`` that ``parse_action`` could have
    produced (None when it is one): the check ``apply`` makes on objects, so
    that look-alikes (``number=True``, cards as plain tuples, a list of cards,
    a card named twice, fields of the wrong verb) never reach the rules."""
    if type(action) is not Action:
        return f"an action is an Action or its text, not {type(action).__name__} {quote(action)}"
    verb, cards, number, word, capot = (
        action.verb,
        action.cards,
        action.number,
        action.word,
        action.capot,
    )
    if type(verb) is not str or verb not in VERBS:
        return f"unknown verb {quote(verb)}"
    if type(capot) is not bool:
        return "capot must be True or False"
    if number is not None and (type(number) is not int or not 0 <= number <= MAX_NUMBER):
        return f"the number must be a whole number from 0 to {MAX_NUMBER} (got {quote(number)})"
    if word is not None and type(word) is not str:
        return f"the word must be text (got {quote(word)})"
    if type(cards) is not tuple or not all(type(c) is Card and c in _VALID_CARDS for c in cards):
        return f"the cards must be a tuple of Card (got {quote(cards)})"
    if verb == "play":
        if (
            not cards
            or len(set(cards)) != len(cards)
            or (number, word, capot) != (None, None, False)
        ):
            return "a play names one or more different cards and nothing else"
        return None
    if cards:
        return f"{verb!r} takes no cards"
    if verb in _NO_ARGUMENT_VERBS:
        return None if (number, word, capot) == (None, None, False) else f"{verb!r} takes nothing"
    if verb == "trump":
        ok = number is None and word in SUITS and not capot
        return None if ok else "'trump' names one suit: S, H, D or C"
    if verb == "hidden":
        ok = number is not None and word is None and not capot
        return None if ok else "'hidden' names one slot number"
    if word == BACKALLEY:
        return None if number is None and not capot else "'bid backalley' takes nothing else"
    if number is None or (word is not None and word not in STRAINS) or (capot and word is None):
        return "a bid is a number, then optionally a strain (S H D C NT), then optionally capot"
    return None


def check_action(action: Any) -> Action:
    """``action`` itself when it is a well-formed Action; else InvalidAction."""
    problem = action_problem(action)
    if problem is not None:
        raise InvalidAction(problem, "not_an_action")
    return cast(Action, action)


# -- the shared action objects ---------------------------------------------------
# Every action a legal-action list or ``parse_action`` hands out is one shared
# object per value ("interned"): building a legal list costs a dict lookup per
# card, ``apply`` recognises an action it handed out by identity (no field by
# field check), and logs share the objects.  Only well-formed actions of a
# bounded set are shared: single cards, plays of equal ranks (Ladder), bids,
# trumps, hidden slots and the bare verbs -- at most a few thousand objects.
_SHARED: dict[Action, Action] = {}
#: ids of the shared objects (kept alive by ``_SHARED``, so never reused)
SHARED_IDS: set[int] = set()
#: id of a shared object -> its text (``str(action)``, formatted once)
_TEXT_OF_SHARED: dict[int, str] = {}
_REGISTERING = threading.Lock()


def _shared(action: Action) -> Action:
    """The shared object equal to ``action`` when ``action`` is well-formed
    (``action`` itself becomes it when it is the first of its value and may
    be shared); a malformed ``action`` is returned as it is, never traded for
    a well-formed look-alike (``bid(True)`` is not ``bid(1)``)."""
    if action_problem(action) is not None:
        return action
    found = _SHARED.get(action)
    if found is not None:
        return found
    if len({c.rank for c in action.cards}) > 1:
        return action
    with _REGISTERING:  # two threads must not both register one value
        found = _SHARED.setdefault(action, action)
        if found is action:
            SHARED_IDS.add(id(action))
            _TEXT_OF_SHARED[id(action)] = action._format()
    return found


def is_shared(action: object) -> TypeGuard[Action]:
    """True for an action handed out by this module's constructors or by
    ``parse_action``: well-formed by construction, so ``apply`` skips
    ``check_action`` for it."""
    return id(action) in SHARED_IDS


def shared_or_same(action: Action) -> Action:
    """The shared object equal to a well-formed ``action`` if there is one,
    else ``action``: what ``apply`` logs for an Action built by hand."""
    try:
        return _SHARED.get(action, action)
    except TypeError:
        return action


def play(*cards: Card) -> Action:
    """A play action; several cards are put in canonical (suit, high-first) order."""
    if len(cards) == 1:
        found = PLAY_OF.get(cards[0])
        if found is not None and type(cards[0]) is Card:
            return found
    elif all(type(c) is Card for c in cards):  # Ladder's plays of equal cards
        found = _PLAYS.get(cards)
        if found is None:
            found = _shared(Action("play", cards))
            if is_shared(found):
                _PLAYS[cards] = found
        return found
    return _shared(Action("play", tuple(cards)))


#: cards in the order given -> the shared play of several cards
_PLAYS: dict[tuple[Card, ...], Action] = {}


def play_of(cards: tuple[Card, ...]) -> Action:
    """``play(*cards)`` for cards taken from a hand (legal-list builders): a
    dictionary look-up once the play has been made."""
    found = PLAY_OF.get(cards[0]) if len(cards) == 1 else _PLAYS.get(cards)
    return found if found is not None else play(*cards)


def bid(number: int | None = None, word: str | None = None, capot: bool = False) -> Action:
    plain = (number is None or type(number) is int) and (word is None or type(word) is str)
    if not (plain and type(capot) is bool):
        return _shared(Action("bid", number=number, word=word, capot=capot))
    key = (number, word, capot)
    found = _BIDS.get(key)
    if found is None:
        found = _shared(Action("bid", number=number, word=word, capot=capot))
        if is_shared(found):
            _BIDS[key] = found
    return found


#: (number, word, capot) -> the shared bid, for the auctions' legal lists
_BIDS: dict[tuple[Any, Any, Any], Action] = {}
PASS = _shared(Action("pass"))
CONTRA = _shared(Action("contra"))
RECONTRA = _shared(Action("recontra"))
PICKUP = _shared(Action("pickup"))
_BARE = {a.verb: a for a in (PASS, CONTRA, RECONTRA, PICKUP)}
#: card -> the shared ``play`` of that one card (the trick games' legal lists)
PLAY_OF: dict[Card, Action] = {}
for _card in _CARD_OF_TOKEN.values():
    PLAY_OF[_card] = _shared(Action("play", (_card,)))


def trump(suit: str) -> Action:
    found = _TRUMPS.get(suit) if type(suit) is str else None
    if found is None:
        found = _shared(Action("trump", word=suit))
        if is_shared(found):
            _TRUMPS[suit] = found
    return found


def hidden(index: int) -> Action:
    """``hidden N`` (Ladder's legal lists build one per hidden card and decision)."""
    found = _HIDDEN.get(index) if type(index) is int else None
    if found is None:
        found = _shared(Action("hidden", number=index))
        if is_shared(found):
            _HIDDEN[index] = found
    return found


#: suit -> the shared ``trump`` action; slot number -> the shared ``hidden`` action
_TRUMPS: dict[str, Action] = {}
_HIDDEN: dict[int, Action] = {}
