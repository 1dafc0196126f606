"""Follow-suit, must-beat and must-trump rules, shared by every trick game.

The rule families of Callbreak, Eşli Batak and Backalley are written once,
here, as functions over bit masks (``engine.core.bits``): each returns the
legal-card mask of the seat to play *and* the reason code of the rule, so
the engine's legal actions, its refusal messages (``Allowed``, said in five
languages by the front ends) and every search (``engine.core.playmask``)
come from the same statement of the rule.  A game picks its family and
options in its rules module (``play_rules``).

``Allowed`` is what a game's ``_allowed_cards`` answers: the cards that may
be played and, when that is a restriction, the reason code and a message
naming the rule, so the explanation can never drift from the rule it
explains.  Bazar Blot's list filters (``of_suit``, ``stronger_than``) work
on its own card order.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache
from typing import NamedTuple

from engine.core.bits import ABOVE, SUIT_MASK
from engine.core.cards import SUIT_NAMES, Card
from engine.core.trick import STANDARD, Ranking


class Allowed(NamedTuple):
    """The cards that may be played, and the rule (reason code and message)
    when that is a restriction.  A named tuple: one is built per decision."""

    cards: list[Card]
    reason: str = "any_card"
    message: str = "any card may be played"
    #: the suit to follow and the trump, when the rule names them: the values
    #: a front end needs to say the rule in another language
    suit: str | None = None
    trump: str | None = None


def suit_name(suit: str | None) -> str:
    return SUIT_NAMES.get(suit or "", str(suit))


# the filters' messages, formatted once per suit
@cache
def _must_follow(led: str) -> str:
    return f"you must follow suit ({suit_name(led)})"


@cache
def _must_beat(led: str) -> str:
    return f"you must follow {suit_name(led)} with a card higher than the highest one in the trick"


@cache
def _must_trump(led: str, trump: str) -> str:
    return f"you have no {suit_name(led)}, so you must play a trump ({suit_name(trump)})"


@cache
def _trump_not_broken(trump: str) -> str:
    return (
        f"trump ({suit_name(trump)}) may not be led until it is broken while you hold another suit"
    )


_MUST_OVERTRUMP = "the trick is ruffed: you must play a trump higher than the highest one in it"


def of_suit(
    hand: Sequence[Card], suit: str, ranking: Ranking = STANDARD, trump: str | None = None
) -> list[Card]:
    suits = ranking.tables(trump).suit
    return [c for c in hand if suits[c] == suit]


def stronger_than(
    cards: Sequence[Card], best: Card | None, suit: str, ranking: Ranking, trump: str | None
) -> list[Card]:
    """Cards of ``suit`` that beat ``best`` (all of them when ``best`` is None)."""
    if best is None:
        return list(cards)
    strength = ranking.trump_power if suit == trump else ranking.plain_power
    floor = strength(best)
    return [c for c in cards if strength(c) > floor]


# -- the rules on masks (``engine.core.bits``) ---------------------------------------------
#: reason codes (front ends say them in five languages: bot/i18n)
ANY_CARD = "any_card"
MUST_FOLLOW = "must_follow_suit"
MUST_BEAT = "must_beat"
MUST_TRUMP = "must_trump"
MUST_OVERTRUMP = "must_overtrump"
TRUMP_NOT_BROKEN = "trump_not_broken"

#: ``legal(hand, led, led_top, trump_top, broken) -> (mask, reason)``: the
#: cards of ``hand`` the seat to play may play, and the rule that says so.
#: ``led`` is the led slot (-1: leading), ``led_top`` the strongest bit of
#: the led slot in the trick, ``trump_top`` the strongest trump bit played
#: to it (-1: none), ``broken`` whether trump is broken (the lead rules).
LegalMask = Callable[[int, int, int, int, bool], tuple[int, str]]

#: lead rules: any card; no trump lead while trump is unbroken unless the
#: hand holds only trumps (Batak "Leading", Backalley ``trump_lead=broken``);
#: never a trump lead unless the hand holds only trumps (Backalley's default:
#: ``broken`` is not read)
LEADS = ("any", "unbroken", "only_trumps")


def _legal_mask(trump: int, lead: str, heading: bool, under_any_trump: bool) -> LegalMask:
    """Both families in one function, specialised once per deal (the hot
    path of every search: one call per card, the lead rule inline)."""
    if lead not in LEADS:
        raise ValueError(f"lead rule {lead!r} is not one of {LEADS}")
    lead_any = lead == "any"
    lead_unbroken = lead == "unbroken"
    tmask = SUIT_MASK[trump]
    suit_mask, above = SUIT_MASK, ABOVE

    def legal(hand: int, led: int, led_top: int, trump_top: int, broken: bool) -> tuple[int, str]:
        if led < 0:  # the lead: a hand with any non-trump leads one while it must
            if lead_any or (lead_unbroken and broken):
                return hand, ANY_CARD
            plain = hand & ~tmask
            if plain and plain != hand:
                return plain, TRUMP_NOT_BROKEN
            return hand, ANY_CARD
        same = hand & suit_mask[led]
        if not heading:
            return (same, MUST_FOLLOW) if same else (hand, ANY_CARD)
        if same:
            if led != trump and trump_top >= 0:  # ruffed
                return same, MUST_FOLLOW
            higher = same & above[led_top]
            return (higher, MUST_BEAT) if higher else (same, MUST_FOLLOW)
        trumps = hand & tmask
        if not trumps:
            return hand, ANY_CARD
        if trump_top < 0:
            return trumps, MUST_TRUMP
        over = trumps & above[trump_top]
        if over:
            return over, MUST_OVERTRUMP
        return (trumps, MUST_TRUMP) if under_any_trump else (hand, ANY_CARD)

    return legal


def compulsory_heading(trump: int, *, void_cannot_overtrump: str, lead: str = "any") -> LegalMask:
    """The "compulsory heading and trumping" family (Callbreak, Eşli Batak;
    rules/callbreak.md and rules/batak.md "Play"), for trump slot ``trump``.

    - Leading: ``lead`` (one of ``LEADS``).
    - Holding the led suit: if the trick is ruffed, any card of it; otherwise
      one higher than the highest of it in the trick if you hold one, else any
      card of it.
    - Void, holding trump: if not ruffed, any trump; if ruffed, a trump above
      the highest trump played if you hold one, else ``void_cannot_overtrump``:
      ``"any_card"`` (Callbreak: no forced under-trump) or ``"any_trump"``
      (Batak: a trump is compulsory).
    - Void in the led suit and in trump: any card.

    The options are fixed here, once per deal: the returned function is the
    hot path of every search (``engine.core.playmask``)."""
    if void_cannot_overtrump not in ("any_card", "any_trump"):
        raise ValueError(f"void_cannot_overtrump {void_cannot_overtrump!r}")
    return _legal_mask(trump, lead, True, void_cannot_overtrump == "any_trump")


def follow_suit(trump: int, *, lead: str = "any") -> LegalMask:
    """The "follow suit" family (Backalley, rules/backalley.md "Play"): lead
    as ``lead`` says; follow the led suit if you can, else play anything."""
    return _legal_mask(trump, lead, False, False)


def heading_message(reason: str, led: str | None, trump: str | None) -> str:
    """The message of a reason code of the families above (English; the
    front ends say the code in their own language)."""
    if reason == MUST_FOLLOW:
        return _must_follow(led or "")
    if reason == MUST_BEAT:
        return _must_beat(led or "")
    if reason == MUST_TRUMP:
        return _must_trump(led or "", trump or "")
    if reason == MUST_OVERTRUMP:
        return _MUST_OVERTRUMP
    if reason == TRUMP_NOT_BROKEN:
        return _trump_not_broken(trump or "")
    return "any card may be played"


def refusal_for(
    card: Card, hand: Sequence[Card], allowed: Allowed, owner: str = "your hand"
) -> tuple[str, str, dict[str, str]] | None:
    """Why ``card`` may not be played (reason, message, values), or None if
    it may.  The values are the card and the suits the rule names (``{"card":
    "KS", "suit": "D", "trump": "S"}``), so another language can say it too."""
    if card not in hand:
        where = "hand" if owner == "your hand" else "dummy"
        return "not_in_hand", f"{card} is not in {owner}", {"card": str(card), "source": where}
    if card not in allowed.cards:
        params = {"card": str(card)}
        if allowed.suit is not None:
            params["suit"] = allowed.suit
        if allowed.trump is not None:
            params["trump"] = allowed.trump
        return allowed.reason, f"{card} is not allowed: {allowed.message}", params
    return None
