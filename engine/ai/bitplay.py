"""The shared trick-play heuristic on bit-coded deals, and the play-out that
uses it for every seat (the search agent's rollouts in Callbreak, Eşli
Batak and Backalley).

``choose`` is ``engine.ai.heuristics.trickplay.decide_at`` on the
engine's masks (``engine.core.playmask``): the same named rules in the
same order with the same tie-breaks, so a rollout plays exactly as the
heuristic agents do -- ``tests/ai/test_bitplay.py`` checks the two agree on
random positions of every game.  What is special here is only speed: a
card is a bit, "the cards of a suit" a mask, "is it a master" one ``and``
with the unseen cards, and nothing is allocated per card but a few small
lists.  The rules are not here: the legal cards are the game's own
function (``TrickRules.legal``) and a card is played by ``PlayMask.play``.

Each seat's knowledge during a play-out (``Knowledge``) is what the
heuristic would read from its own view: the cards nobody has seen (all but
the public ones and its own hand), the suits each player has shown out of
(with the trump a void player would have had to play, per game) and the
plain suits each player has led.  It starts from the searching seat's view,
all of it public, and grows card by card.
"""

from __future__ import annotations

import time

from engine.core.bits import ABOVE, SUIT_MASK, bits_of
from engine.core.playmask import PlayMask, TrickRules


class Knowledge:
    """Public cards, and per seat the slots it is void in and the plain slots it led."""

    __slots__ = ("led", "public", "voids")

    def __init__(self, public: int, voids: list[int], led: list[int]) -> None:
        self.public = public
        self.voids = voids
        self.led = led

    def copy(self) -> Knowledge:
        return Knowledge(self.public, self.voids[:], self.led[:])


def note(know: Knowledge, deal: PlayMask, bit: int) -> None:
    """What the seat to act shows by playing ``bit`` (before it is played):
    ``engine.ai.knowledge.note_play`` and the suits led."""
    seat = deal.to_act
    slot = bit >> 4
    rules = deal.rules
    trump = rules.trump
    duty = rules.trump_duty
    if deal.plays:
        led = deal.led
        if slot != led:
            know.voids[seat] |= 1 << led
            if (
                duty != "never"
                and led != trump
                and slot != trump
                and (duty == "always" or deal.trump_top < 0)
            ):
                know.voids[seat] |= 1 << trump
    elif slot != trump:
        know.led[seat] |= 1 << slot
    know.public |= 1 << bit


def _lowest(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


def _lengths(hand: int) -> list[int]:
    return [(hand & m).bit_count() for m in SUIT_MASK]


def _masters(mask: int, unseen: int) -> int:
    """The cards of ``mask`` no unseen card of their slot beats."""
    out = 0
    while mask:
        m = SUIT_MASK[(mask.bit_length() - 1) >> 4]
        part = mask & m
        top = (unseen & m).bit_length() - 1
        out |= part & ABOVE[top] if top >= 0 else part
        mask &= ~m
    return out


def _slot_cards(slot_bits: int) -> int:
    out = 0
    for slot in range(5):
        if slot_bits >> slot & 1:
            out |= SUIT_MASK[slot]
    return out


#: slot bits -> the card mask of those slots
_SLOT_CARDS = tuple(_slot_cards(bits) for bits in range(32))


def choose(
    deal: PlayMask,
    rules: TrickRules,
    cards: int,
    unseen: int,
    voids: list[int],
    partner: int | None,
    partner_led: int,
) -> int:
    """The heuristic's card (a bit of ``cards``, the legal ones) for the
    seat to act, whose whole hand is ``deal.hands[deal.to_act]``."""
    seat = deal.to_act
    trump = rules.trump
    out = (unseen & SUIT_MASK[trump]).bit_count()
    tbit = 1 << trump
    if not deal.plays:
        #: slots an opponent is known void in while it may still hold a trump
        ruffable = 0
        if out:
            for o in range(rules.num_seats):
                if o != seat and o != partner and not voids[o] & tbit:
                    ruffable |= voids[o]
            ruffable &= ~tbit
        return _lead(deal, rules, cards, unseen, voids, partner, partner_led, out, ruffable)
    return _follow(deal, rules, cards, unseen, voids, partner, out)


def _lead(
    deal: PlayMask,
    rules: TrickRules,
    cards: int,
    unseen: int,
    voids: list[int],
    partner: int | None,
    partner_led: int,
    out: int,
    ruffable: int,
) -> int:
    seat = deal.to_act
    trump = rules.trump
    tmask = SUIT_MASK[trump]
    side = cards & ~tmask
    trumps = cards & tmask
    top_unseen_trump = (unseen & tmask).bit_length() - 1
    masters_t = trumps & ABOVE[top_unseen_trump] if top_unseen_trump >= 0 else trumps
    if masters_t and out and trumps.bit_count() >= out:
        tbit = 1 << trump
        # draw_trumps: an opponent may still hold a trump
        if any(not voids[o] & tbit for o in range(rules.num_seats) if o != seat and o != partner):
            return (masters_t & -masters_t).bit_length() - 1  # the cheapest of equal masters
    hand = deal.hands[seat] or cards
    safe = _masters(side, unseen) & ~_SLOT_CARDS[ruffable]
    if safe:  # cash_master: the longest suit, then the strongest
        length = _lengths(hand)
        best, best_key = -1, (-1, -1, 0)
        for slot in range(5):
            part = safe & SUIT_MASK[slot]
            if part:
                b = part.bit_length() - 1
                key = (length[slot], b & 15, -b)
                if key > best_key:
                    best, best_key = b, key
        return best
    if not side:  # lead_trump
        pool = masters_t or trumps
        return (pool & -pool).bit_length() - 1
    ours = side & _SLOT_CARDS[partner_led & ~ruffable & 31]
    if ours:  # partner_suit: the lowest
        lows = [_lowest(part) for m in SUIT_MASK if (part := ours & m)]
        return min(lows, key=lambda b: (b & 15, b))
    return _from_length(hand, side, unseen, ruffable)


def _from_length(hand: int, side: int, unseen: int, ruffable: int) -> int:
    """The longest side suit no opponent is known to ruff; its top card when
    it heads touching honours, else its lowest."""
    length = _lengths(hand)
    best_slot = -1
    best_key: tuple[bool, int, int, int] = (False, -1, 0, 0)
    for slot in range(5):
        group = side & SUIT_MASK[slot]
        if not group:
            continue
        low = ((group & -group).bit_length() - 1) & 15
        key = (not ruffable >> slot & 1, length[slot], -low, -slot)
        if best_slot < 0 or key > best_key:
            best_slot, best_key = slot, key
    group = side & SUIT_MASK[best_slot]
    top = group.bit_length() - 1
    rest = group & ~(1 << top)
    if rest:
        second = rest.bit_length() - 1
        touching = not unseen & ((1 << top) - 1) & ~((2 << second) - 1)
        if touching and (second & 15) >= 9:  # a jack or better
            return top
    return (group & -group).bit_length() - 1


def _opponents_after(n: int, leader: int, k: int, partnered: bool) -> tuple[int, ...]:
    """Seats still to play after the ``k``-th card of a trick led by
    ``leader``, the player's partner (seat + 2) left out in Batak."""
    seat = (leader + k) % n
    after = ((leader + j) % n for j in range(k + 1, n))
    return tuple(s for s in after if not (partnered and s == (seat + 2) % n))


#: [partnered][seats][leader][cards in the trick] -> opponents still to play
_AFTER = tuple(
    tuple(
        tuple(tuple(_opponents_after(n, leader, k, p) for k in range(n)) for leader in range(n))
        if n >= 2
        else ()
        for n in range(9)
    )
    for p in (False, True)
)


def _sure(
    mask: int, unseen: int, led: int, trump: int, ruff_after: bool, opp_after: tuple[int, ...]
) -> int:
    """The cards of ``mask`` (winning now) that nobody still to play can beat
    (``trickplay._holds``)."""
    if not opp_after or not mask:
        return mask
    masters = _masters(mask, unseen)
    if led == trump:
        return masters
    tmask = SUIT_MASK[trump]
    if ruff_after:
        return masters & tmask
    return mask & tmask | masters & ~tmask


def _cheapest(mask: int, lmask: int, tmask: int) -> int:
    """The weakest winner by power: the led suit ranks below trumps."""
    part = mask & lmask or mask & tmask
    return (part & -part).bit_length() - 1


def _follow(
    deal: PlayMask,
    rules: TrickRules,
    cards: int,
    unseen: int,
    voids: list[int],
    partner: int | None,
    out: int,
) -> int:
    trump = rules.trump
    tmask = SUIT_MASK[trump]
    led = deal.led
    lmask = SUIT_MASK[led]
    win_bit = deal.trump_top if deal.trump_top >= 0 else deal.led_top
    winners = deal.beating(cards)
    losers = cards & ~winners
    k = len(deal.plays)
    opp_after = _AFTER[partner is not None][rules.num_seats][deal.leader][k]
    partner_winning = partner is not None and deal.win_seat == partner
    following = cards & lmask
    # an opponent still to play may ruff the led suit
    ruff_after = False
    if led != trump and out:
        tbit = 1 << trump
        for o in opp_after:
            if voids[o] >> led & 1 and not voids[o] & tbit:
                ruff_after = True
                break
    hand = deal.hands[deal.to_act]
    if partner_winning and (
        not opp_after or _sure(1 << win_bit, unseen, led, trump, ruff_after, opp_after)
    ):
        if losers:
            return _low(losers, lmask, unseen, hand, trump)  # partner_holds
        return _cheapest(winners, lmask, tmask)
    if not winners:
        if following:
            return _low(losers, lmask, unseen, hand, trump)  # cannot_win_play_low
        return _discard(losers, trump, unseen, hand)
    if not following:
        if partner_winning and losers:
            return _discard(losers, trump, unseen, hand)  # no_overtake
        holding = _sure(winners, unseen, led, trump, ruff_after, opp_after)
        return _cheapest(holding or winners, lmask, tmask)  # ruff
    if not opp_after:
        return _cheapest(winners, lmask, tmask)  # last_hand_cheapest
    holding = _sure(winners, unseen, led, trump, ruff_after, opp_after)
    if holding:
        return _cheapest(holding, lmask, tmask)  # win_for_sure
    if partner_winning and losers:
        return _low(losers, lmask, unseen, hand, trump)  # no_overtake
    if k == 1:  # second_hand_low: not a master, the least power, then the bit
        pool = cards & ~_masters(cards, unseen) or cards
        off = pool & ~lmask & ~tmask or pool & lmask or pool & tmask
        return (off & -off).bit_length() - 1
    # third_hand_high: the cheapest card equal to the strongest winner
    group = winners & tmask or winners
    pick = group.bit_length() - 1
    rest = group & ~(1 << pick)
    while rest:
        below = rest.bit_length() - 1
        if unseen & ((1 << pick) - 1) & ~((2 << below) - 1):
            break
        pick = below
        rest &= ~(1 << below)
    return pick


def _low(cards: int, lmask: int, unseen: int, hand: int, trump: int) -> int:
    """Of the led suit: the lowest card that is not a master, else the lowest."""
    same = cards & lmask
    if not same:
        return _discard(cards, trump, unseen, hand)
    plain = same & ~_masters(same, unseen)
    pool = plain or same
    return (pool & -pool).bit_length() - 1


def _discard(cards: int, trump: int, unseen: int, hand: int) -> int:
    """The lowest card that keeps the hand's winners: no trump while a plain
    card is left, no master, no card guarding an honour; shortest suit."""
    hand = hand or cards
    length = _lengths(hand)
    best = -1
    best_key: tuple[bool, bool, bool, int, int, int] | None = None
    for b in bits_of(cards):
        slot = b >> 4
        master = not unseen & ABOVE[b]
        guards = False
        if not master:
            suit = hand & SUIT_MASK[slot]
            if suit.bit_count() == 2:
                other = suit & ~(1 << b)
                if other > (1 << b):
                    guards = bool(unseen & ABOVE[other.bit_length() - 1])
        key = (slot == trump, master, guards, b & 15, length[slot], b)
        if best_key is None or key < best_key:
            best, best_key = b, key
    return best


def rollout(
    deal: PlayMask,
    know: Knowledge,
    deck: int,
    partners: list[int | None],
    deadline: float = float("inf"),
) -> int:
    """Play ``deal`` to its end with the heuristic for every seat; the
    number of cards played, or -1 if ``deadline`` came first (the deal is
    then left part-played).

    The hot loop of every search: the legal cards are the game's
    ``TrickRules.legal`` and the card is played by ``PlayMask.play`` (the
    engine's rules); what the card shows (``note``) is written out inline
    (``tests/ai/test_bitplay.py`` checks that this loop and ``note`` agree)."""
    clock = time.perf_counter
    rules = deal.rules
    legal = rules.legal
    play = rules.play
    n = rules.num_seats
    trump = rules.trump
    tmask = SUIT_MASK[trump]
    tbit = 1 << trump
    duty = rules.trump_duty
    hands = deal.hands
    voids = know.voids
    ledby = know.led
    played = 0
    left = sum(h.bit_count() for h in hands)
    while left:
        if not played & 7 and clock() > deadline:
            return -1
        seat = deal.to_act
        hand = hands[seat]
        plays = deal.plays
        led = deal.led
        cards = legal(hand, led, deal.led_top, deal.trump_top, deal.broken)[0]
        # -- the heuristic's card
        if cards & (cards - 1):
            partner = partners[seat]
            unseen = deck & ~know.public & ~hand
            out = (unseen & tmask).bit_count()
            if plays:
                bit = _follow(deal, rules, cards, unseen, voids, partner, out)
            else:
                ruffable = 0
                if out:
                    for o in range(n):
                        if o != seat and o != partner and not voids[o] & tbit:
                            ruffable |= voids[o]
                    ruffable &= ~tbit
                partner_led = ledby[partner] if partner is not None else 0
                bit = _lead(deal, rules, cards, unseen, voids, partner, partner_led, out, ruffable)
        else:
            bit = cards.bit_length() - 1
        slot = bit >> 4
        # -- what the card shows (``note``)
        if plays:
            if slot != led:
                voids[seat] |= 1 << led
                if (
                    duty != "never"
                    and led != trump
                    and slot != trump
                    and (duty == "always" or deal.trump_top < 0)
                ):
                    voids[seat] |= tbit
        elif slot != trump:
            ledby[seat] |= 1 << slot
        know.public |= 1 << bit
        play(deal, bit)
        played += 1
        left -= 1
    return played
