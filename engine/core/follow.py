"""Follow-suit, must-beat and must-trump filters, shared by every trick game.

Each filter returns an ``Allowed``: the cards that may be played and, when
that is a restriction, the reason code and a message naming the rule.  The
same object answers both "what is legal" and "why was that refused", so the
explanation can never drift from the rule it explains.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import NamedTuple

from engine.core.cards import SUIT_NAMES, Card
from engine.core.trick import STANDARD, Ranking, Trick


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


def lead_restricted(
    hand: Sequence[Card], trump: str | None, trump_broken: bool, ranking: Ranking = STANDARD
) -> Allowed:
    """Leading while trump is unbroken: a hand holding any non-trump must lead
    one (Batak "Leading"; Backalley's trump-lead rule)."""
    if trump is None or trump_broken:
        return Allowed(list(hand))
    suits = ranking.tables(trump).suit
    plain = [c for c in hand if suits[c] != trump]
    if plain and len(plain) < len(hand):
        return Allowed(plain, "trump_not_broken", _trump_not_broken(trump), trump=trump)
    return Allowed(list(hand))


def compulsory_follow(
    hand: Sequence[Card],
    trick: Trick,
    trump: str | None,
    *,
    void_cannot_overtrump: str,
    ranking: Ranking = STANDARD,
) -> Allowed:
    """The "compulsory heading and trumping" family (Callbreak, Eşli Batak).

    - Holding the led suit: if the trick is ruffed, any card of it; otherwise
      one higher than the highest of it in the trick if you hold one, else any
      card of it.
    - Void, holding trump: if not ruffed, any trump; if ruffed, a trump above
      the highest trump played if you hold one, else ``void_cannot_overtrump``:
      ``"any_card"`` (Callbreak: no forced under-trump) or ``"any_trump"``
      (Batak: a trump is compulsory).
    - Void in the led suit and in trump: any card.
    """
    plays = trick.plays
    if not plays:
        return Allowed(list(hand))
    suits, strength = ranking.tables(trump)
    led = suits[plays[0][1]]
    # one pass over the trick: the highest card of the led suit, and whether
    # (and how high) it has been trumped
    best_led = strength[plays[0][1]]
    best_trump: int | None = None
    for _, card in plays:
        suit, power = suits[card], strength[card]
        if suit == led:
            if power > best_led:
                best_led = power
        elif suit == trump and (best_trump is None or power > best_trump):
            best_trump = power
    ruffed = best_trump is not None
    same = [c for c in hand if suits[c] == led]
    if same:
        if ruffed:
            return Allowed(same, "must_follow_suit", _must_follow(led), led, trump)
        higher = [c for c in same if strength[c] > best_led]
        if higher:
            return Allowed(higher, "must_beat", _must_beat(led), led, trump)
        return Allowed(same, "must_follow_suit", _must_follow(led), led, trump)
    if trump is None:
        return Allowed(list(hand))
    trumps = [c for c in hand if suits[c] == trump]
    if not trumps:
        return Allowed(list(hand))
    if best_trump is None:
        return Allowed(trumps, "must_trump", _must_trump(led, trump), led, trump)
    over = [c for c in trumps if strength[c] > best_trump]
    if over:
        return Allowed(over, "must_overtrump", _MUST_OVERTRUMP, led, trump)
    if void_cannot_overtrump == "any_trump":
        return Allowed(trumps, "must_trump", _must_trump(led, trump), led, trump)
    return Allowed(list(hand))


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
