"""What a seat can infer from its own view: cards still unseen, tricks of
this deal, suits a player has shown out of, trumps a player cannot hold.
Shared by the trick-game heuristics and the world builders; every input is
an ``Observation``, never the full state."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Literal

from engine.core.cards import Card
from engine.core.trick import STANDARD, Ranking, Trick
from engine.core.view import Observation, Plays

#: when a player void in the led suit must play a trump, per game:
#: "never" (Backalley), "unruffed" (Callbreak: only while no spade is in the
#: trick), "always" (Batak), "blot" (unless the partner is winning, and only
#: inferable while no trump is in the trick: rules/blot.md "Play")
TrumpDuty = Literal["never", "unruffed", "always", "blot"]


def completed_tricks(view: Observation) -> list[Plays]:
    """This deal's finished tricks, rebuilt from the public ``played`` list."""
    done = view.played[: len(view.played) - len(view.trick)]
    size = view.num_seats
    return [tuple(done[i : i + size]) for i in range(0, len(done), size)]


def deal_tricks(view: Observation) -> list[Plays]:
    """Finished tricks plus the one in progress (when it has cards)."""
    tricks: list[Plays] = [*completed_tricks(view)]
    if view.trick:
        tricks.append(view.trick)
    return tricks


def unseen_cards(view: Observation, deck: Iterable[Card]) -> set[Card]:
    """Cards of the deck this seat has not seen: in other hands (or out of play)."""
    return set(deck) - view.visible_cards()


def known_voids(
    view: Observation, ranking: Ranking = STANDARD, trump: str | None = None
) -> dict[int, set[str]]:
    """Seat -> suits it has shown out of this deal (it did not follow the led suit)."""
    voids: dict[int, set[str]] = {s: set() for s in range(view.num_seats)}
    for trick in deal_tricks(view):
        led = ranking.suit_of(trick[0][1], trump)
        for seat, card in trick[1:]:
            if ranking.suit_of(card, trump) != led:
                voids[seat].add(led)
    return voids


def inferred_voids(
    view: Observation,
    ranking: Ranking = STANDARD,
    trump: str | None = None,
    duty: TrumpDuty = "never",
) -> dict[int, set[str]]:
    """Shown-out suits, plus trump for a player who was void in a plain led
    suit and did not trump although the rules made a trump compulsory."""
    voids: dict[int, set[str]] = {s: set() for s in range(view.num_seats)}
    for plays in deal_tricks(view):
        trick = Trick(plays[0][0], [plays[0]])
        for seat, card in plays[1:]:
            note_play(voids, trick, seat, card, ranking, trump, duty)
            trick.plays.append((seat, card))
    return voids


def note_play(
    voids: dict[int, set[str]],
    trick: Trick,
    seat: int,
    card: Card,
    ranking: Ranking,
    trump: str | None,
    duty: TrumpDuty,
) -> None:
    """What ``seat`` playing ``card`` to ``trick`` (before the card is added)
    shows about its hand: out of the led suit, and out of trump when a trump
    was due (see ``TrumpDuty``).  Used card by card in rollouts."""
    if not trick.plays:
        return
    led = ranking.suit_of(trick.plays[0][1], trump)
    suit = ranking.suit_of(card, trump)
    if suit == led:
        return
    voids[seat].add(led)
    if trump is None or duty == "never" or led == trump or suit == trump:
        return
    if duty == "always":
        voids[seat].add(trump)
        return
    if trick.is_ruffed(ranking, trump):
        return
    if duty == "blot" and trick.winner(ranking, trump) % 2 == seat % 2:
        return
    voids[seat].add(trump)


def touching(
    low: Card,
    high: Card,
    unseen: set[Card],
    ranking: Ranking = STANDARD,
    trump: str | None = None,
) -> bool:
    """``low`` and ``high`` (same suit) are equivalent for winning tricks:
    no unseen card of their suit lies between them."""
    suit = ranking.suit_of(low, trump)
    if ranking.suit_of(high, trump) != suit:
        return False
    strength = ranking.trump_power if suit == trump else ranking.plain_power
    lo, hi = sorted((strength(low), strength(high)))
    return not any(ranking.suit_of(c, trump) == suit and lo < strength(c) < hi for c in unseen)


def equivalence_classes(
    cards: Sequence[Card],
    unseen: set[Card],
    ranking: Ranking = STANDARD,
    trump: str | None = None,
    points: dict[Card, int] | None = None,
) -> list[list[Card]]:
    """Group ``cards`` into runs of equivalent cards: same suit, no unseen
    card between neighbours, and (where cards carry points) equal points.
    Playing any card of a run has the same effect on every future trick."""
    by_suit: dict[str, list[Card]] = {}
    for card in cards:
        by_suit.setdefault(ranking.suit_of(card, trump), []).append(card)
    classes: list[list[Card]] = []
    for suit, group in by_suit.items():
        strength = ranking.trump_power if suit == trump else ranking.plain_power
        group.sort(key=strength)
        run = [group[0]]
        for card in group[1:]:
            same_points = points is None or points.get(card) == points.get(run[-1])
            if same_points and touching(run[-1], card, unseen, ranking, trump):
                run.append(card)
            else:
                classes.append(run)
                run = [card]
        classes.append(run)
    return classes


#: which compulsory plays a game has, for ``cards_not_held``: "heading"
#: (Callbreak, Batak: beat the highest card of the led suit unless the trick
#: is ruffed; void in a ruffed trick, over-trump if able), "blot" (beat a
#: trump lead; void while an opponent wins, trump over the highest trump if
#: able), "none"
FollowDuty = Literal["heading", "blot", "none"]


def cards_not_held(
    view: Observation,
    deck: Iterable[Card],
    ranking: Ranking = STANDARD,
    trump: str | None = None,
    duty: FollowDuty = "none",
) -> dict[int, set[Card]]:
    """Seat -> cards it cannot hold: a card it would have had to play (a
    higher card of the led suit, a higher trump) when it played another.
    Cards only leave a hand, so what was missing then is missing now."""
    missing: dict[int, set[Card]] = {s: set() for s in range(view.num_seats)}
    if duty == "none":
        return missing
    cards = list(deck)

    def stronger(suit: str, than: Card | None) -> set[Card]:
        strength = ranking.trump_power if suit == trump else ranking.plain_power
        floor = strength(than) if than is not None else -1
        return {c for c in cards if ranking.suit_of(c, trump) == suit and strength(c) > floor}

    for plays in deal_tricks(view):
        trick = Trick(plays[0][0], [plays[0]])
        led = ranking.suit_of(plays[0][1], trump)
        for seat, card in plays[1:]:
            suit = ranking.suit_of(card, trump)
            top_led = trick.highest_of(led, ranking, trump)
            top_trump = trick.highest_of(trump, ranking, trump) if trump is not None else None
            if duty == "heading":
                ruffed = trick.is_ruffed(ranking, trump)
                if suit == led and not ruffed and card not in stronger(led, top_led):
                    missing[seat] |= stronger(led, top_led)
                elif (
                    suit != led
                    and ruffed
                    and trump is not None
                    and card not in stronger(trump, top_trump)
                ):
                    missing[seat] |= stronger(trump, top_trump)
            elif trump is not None:
                if led == trump and suit == trump and card not in stronger(trump, top_trump):
                    missing[seat] |= stronger(trump, top_trump)
                elif suit != led and led != trump:
                    winner = trick.winner(ranking, trump)
                    if winner % 2 != seat % 2 and card not in stronger(trump, top_trump):
                        missing[seat] |= stronger(trump, top_trump)
            trick.plays.append((seat, card))
    return missing
