"""Card play shared by the trick-game heuristics: win cheaply when tricks
are wanted, duck (shedding the most dangerous loser) when they are not,
leave a trick to a partner who is winning it, cash masters nobody is known
to ruff, and keep trumps for the tricks where they count.

Reads only an ``Observation`` plus the game's trump and card order.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from engine.ai.knowledge import is_master, known_voids, unseen_cards
from engine.core.cards import Card
from engine.core.trick import TRUMP_BONUS, Ranking, Trick
from engine.core.view import Observation


@dataclass(frozen=True)
class PlayContext:
    """Who is playing which hand, and what the game's cards mean."""

    seat: int  # the seat whose card is played (Batak's dummy included)
    hand: tuple[Card, ...]  # that seat's cards
    trump: str | None
    ranking: Ranking
    deck: Sequence[Card]
    partner: int | None = None
    #: card points (Blot): feed them to a winning partner, keep them from opponents
    points: Callable[[Card], int] | None = None
    #: lead master trumps before side-suit masters (declarers drawing trumps)
    draw_trumps: bool = False


def choose_card(view: Observation, cards: list[Card], ctx: PlayContext, want_tricks: bool) -> Card:
    """The card to play among the legal ``cards``."""
    unseen = unseen_cards(view, ctx.deck)
    voids = known_voids(view, ctx.ranking, ctx.trump)
    if not view.trick:
        return _lead(view, cards, ctx, want_tricks, unseen, voids)
    return _follow(view, cards, ctx, want_tricks, unseen, voids)


def _is_trump(card: Card, ctx: PlayContext) -> bool:
    return ctx.ranking.is_trump(card, ctx.trump)


def _strength(card: Card, ctx: PlayContext) -> int:
    if _is_trump(card, ctx):
        return TRUMP_BONUS + ctx.ranking.trump_power(card)
    return ctx.ranking.plain_power(card)


def _opponents(view: Observation, ctx: PlayContext) -> list[int]:
    return [s for s in range(view.num_seats) if s not in (ctx.seat, ctx.partner)]


def _lead(
    view: Observation,
    cards: list[Card],
    ctx: PlayContext,
    want_tricks: bool,
    unseen: set[Card],
    voids: dict[int, set[str]],
) -> Card:
    suit = ctx.ranking.suit_of
    trumps_out = ctx.trump is not None and any(_is_trump(c, ctx) for c in unseen)
    side = [c for c in cards if not _is_trump(c, ctx)]
    if want_tricks:
        opponents = _opponents(view, ctx)
        if ctx.draw_trumps and trumps_out:
            top = [
                c
                for c in cards
                if _is_trump(c, ctx) and is_master(c, unseen, ctx.ranking, ctx.trump)
            ]
            if top:
                return max(top, key=lambda c: _strength(c, ctx))
        safe = [
            c
            for c in side
            if is_master(c, unseen, ctx.ranking, ctx.trump)
            and not (trumps_out and any(suit(c, ctx.trump) in voids[o] for o in opponents))
        ]
        if safe:
            return max(safe, key=lambda c: _strength(c, ctx))
        masters = [
            c for c in cards if _is_trump(c, ctx) and is_master(c, unseen, ctx.ranking, ctx.trump)
        ]
        if masters and trumps_out:
            return max(masters, key=lambda c: _strength(c, ctx))
        if side:
            lengths: dict[str, int] = {}
            for c in side:
                lengths[suit(c, ctx.trump)] = lengths.get(suit(c, ctx.trump), 0) + 1
            return min(side, key=lambda c: (lengths[suit(c, ctx.trump)], _strength(c, ctx)))
        return min(cards, key=lambda c: _strength(c, ctx))
    pool = side or cards
    return min(
        pool, key=lambda c: (is_master(c, unseen, ctx.ranking, ctx.trump), _strength(c, ctx))
    )


def _follow(
    view: Observation,
    cards: list[Card],
    ctx: PlayContext,
    want_tricks: bool,
    unseen: set[Card],
    voids: dict[int, set[str]],
) -> Card:
    trick = Trick(view.trick[0][0], list(view.trick))
    led = trick.led_suit(ctx.ranking, ctx.trump)
    assert led is not None
    win_seat, win_card = trick.winning_play(ctx.ranking, ctx.trump)
    best = ctx.ranking.power(win_card, led, ctx.trump)
    winners = [c for c in cards if ctx.ranking.power(c, led, ctx.trump) > best]
    losers = [c for c in cards if c not in winners]
    still = [
        (trick.leader + k) % view.num_seats for k in range(len(view.trick) + 1, view.num_seats)
    ]
    opponents_after = [s for s in still if s != ctx.partner]
    partner_winning = ctx.partner is not None and win_seat == ctx.partner

    def power(c: Card) -> int:
        return ctx.ranking.power(c, led, ctx.trump)

    if partner_winning and losers:
        partner_safe = not opponents_after or is_master(win_card, unseen, ctx.ranking, ctx.trump)
        if partner_safe:
            return _shed(losers, led, ctx, feed=True)
    if want_tricks and winners and not partner_winning:
        if not opponents_after:
            return min(winners, key=power)
        safe = [c for c in winners if _holds(c, led, ctx, unseen, voids, opponents_after)]
        if safe:
            return min(safe, key=power)
        return max(winners, key=power)
    if losers:
        return _shed(losers, led, ctx)
    return min(cards, key=lambda c: (_is_trump(c, ctx), power(c)))


def _shed(losers: list[Card], led: str, ctx: PlayContext, feed: bool = False) -> Card:
    """Duck with the highest non-trump that still loses (it is the card most
    likely to win a trick we do not want later); keep trumps.  Where cards
    carry points, give the most to a partner who holds the trick and the
    least to the opponents."""
    if ctx.points is not None:
        points = ctx.points
        plain = [c for c in losers if not _is_trump(c, ctx)] or losers
        if feed:
            return max(plain, key=lambda c: (points(c), -ctx.ranking.plain_power(c)))
        return min(plain, key=lambda c: (points(c), ctx.ranking.plain_power(c)))
    return max(
        losers,
        key=lambda c: (not _is_trump(c, ctx), ctx.ranking.power(c, led, ctx.trump) % TRUMP_BONUS),
    )


def _holds(
    card: Card,
    led: str,
    ctx: PlayContext,
    unseen: set[Card],
    voids: dict[int, set[str]],
    opponents_after: list[int],
) -> bool:
    """Will ``card`` survive the opponents still to play?  Not if a stronger
    card of its suit is unseen, nor (for a plain card) if one of them may be
    void in the led suit and still hold a trump."""
    if not is_master(card, unseen, ctx.ranking, ctx.trump):
        return False
    if _is_trump(card, ctx) or ctx.trump is None:
        return True
    trumps_out = any(_is_trump(c, ctx) for c in unseen)
    return not (trumps_out and any(led in voids[s] for s in opponents_after))
