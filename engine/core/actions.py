"""Actions and their canonical text notation.

One ``Action`` type serves every game (DESIGN.md, "Action notation"):
``play AS``, ``play 7H 7D``, ``bid 9``, ``bid 9 H``, ``bid 9 NT``,
``bid 25 S capot``, ``bid backalley``, ``pass``, ``contra``, ``recontra``,
``trump H``, ``pickup``, ``hidden 2``.  ``str(action)`` is canonical and
``parse_action(str(a)) == a`` for every action.  A game narrows the verbs it
accepts in ``Game.parse_action``.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.core.cards import SUITS, Card
from engine.errors import InvalidAction

VERBS = frozenset({"play", "bid", "pass", "contra", "recontra", "trump", "pickup", "hidden"})
STRAINS = (*SUITS, "NT")
_SUIT_INDEX = {s: i for i, s in enumerate(("J", *SUITS))}


@dataclass(frozen=True, slots=True)
class Action:
    """A decision.  Fields not used by a verb stay at their defaults.

    - ``cards``: the cards of a ``play`` (several equal ranks in Ladder).
    - ``number``: a bid level, or the hidden-card index (1-based) of ``hidden``.
    - ``word``: a strain (``S``..``C``, ``NT``) for ``bid``/``trump``, or
      ``backalley`` for Backalley's whole-hand bid.
    - ``capot``: Bazar Blot's capot bid.
    """

    verb: str
    cards: tuple[Card, ...] = ()
    number: int | None = None
    word: str | None = None
    capot: bool = False

    def __str__(self) -> str:
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


def play(*cards: Card) -> Action:
    """A play action; several cards are put in canonical (suit, high-first) order."""
    if len(cards) > 1:
        cards = tuple(sorted(cards, key=lambda c: (_SUIT_INDEX.get(c.suit, 9), -c.rank)))
    return Action("play", tuple(cards))


def bid(number: int | None = None, word: str | None = None, capot: bool = False) -> Action:
    return Action("bid", number=number, word=word, capot=capot)


PASS = Action("pass")
CONTRA = Action("contra")
RECONTRA = Action("recontra")
PICKUP = Action("pickup")


def trump(suit: str) -> Action:
    return Action("trump", word=suit)


def hidden(index: int) -> Action:
    return Action("hidden", number=index)


def parse_action(text: str) -> Action:
    """Parse any action text (case-insensitive, extra spaces ignored).

    Raises ``InvalidAction`` quoting the text when it is not an action.
    A bare card (``AS``) is read as ``play AS`` and a bare number as ``bid N``
    so that people can type less.
    """
    if not isinstance(text, str):
        raise InvalidAction(f"{text!r} is not an action")
    words = text.replace(",", " ").split()
    if not words:
        raise InvalidAction("empty input: type an action such as 'play AS' or 'bid 3'")
    verb = words[0].lower()
    args = words[1:]
    if verb not in VERBS:
        if verb.isdigit() and not args:
            return bid(int(verb))
        try:
            return play(*(Card.parse(w) for w in words))
        except ValueError:
            raise InvalidAction(
                f"{text.strip()!r} is not an action (try 'play AS', 'bid 3' or 'pass')"
            ) from None
    try:
        if verb == "play":
            if not args:
                raise InvalidAction("'play' needs a card, e.g. 'play AS'")
            return play(*(Card.parse(w) for w in args))
        if verb in ("pass", "contra", "recontra", "pickup"):
            if args:
                raise InvalidAction(f"{verb!r} takes nothing after it (got {text.strip()!r})")
            return Action(verb)
        if verb == "trump":
            if len(args) != 1 or args[0].upper() not in SUITS:
                raise InvalidAction(f"{text.strip()!r}: name a suit, e.g. 'trump H'")
            return trump(args[0].upper())
        if verb == "hidden":
            if len(args) != 1 or not args[0].isdigit():
                raise InvalidAction(f"{text.strip()!r}: name a hidden card, e.g. 'hidden 2'")
            return hidden(int(args[0]))
        return _parse_bid(text, args)
    except ValueError as exc:
        if isinstance(exc, InvalidAction):
            raise
        raise InvalidAction(f"{text.strip()!r}: {exc}") from None


def _parse_bid(text: str, args: list[str]) -> Action:
    if len(args) == 1 and args[0].lower() == "backalley":
        return bid(word="backalley")
    if not args or not args[0].isdigit() or len(args[0]) > 4:
        raise InvalidAction(f"{text.strip()!r}: a bid needs a number, e.g. 'bid 3'")
    number = int(args[0])
    rest = [a.upper() for a in args[1:]]
    capot = False
    if rest and rest[-1] == "CAPOT":
        capot = True
        rest.pop()
    if len(rest) > 1 or (rest and rest[0] not in STRAINS):
        raise InvalidAction(f"{text.strip()!r}: a bid strain is one of S, H, D, C or NT")
    return bid(number, rest[0] if rest else None, capot)
