"""How many actions a match of each game may take at most: the stated bound
of the property test ``test_match_ends.py`` (and ``bench/fuzz_engine.py``).

Each bound is (deals or games a match may have) x (actions one of them may
take), from the rule books:

* Callbreak: ``rounds`` deals of 4 bids and 52 plays.
* Backalley: its deal sizes (``deal_sizes``), each deal a bid and a card per
  player per card in hand.
* Eşli Batak: ``max_deals`` deals (the deal cap); an auction of at most 7
  rising bids (7..13) and 3 passes, the trump call, 52 plays.
* Bazar Blot: ``max_deals`` deals, a passed-out one included; an auction of
  rising bids up to level 80 (each after at most 3 passes, plus a capot bid
  at each level), contra, recontra, the closing passes, then 32 plays.
* Ladder: at most ``2 x target_wins + 1`` games of at most ``max_turns``
  turns, one action each.
"""

from __future__ import annotations

from engine import MatchState
from engine.games.backalley.scoring import deal_sizes

BLOT_AUCTION = 2 * (80 - 8 + 1) * 4 + 8


def action_bound(state: MatchState) -> int:
    """The most actions a match of ``state``'s game and variant may take."""
    v = state.variant
    name = state.game.name
    if name == "callbreak":
        return v.rounds * (4 + 52)  # type: ignore[attr-defined]
    if name == "backalley":
        players = v.players  # type: ignore[attr-defined]
        sizes = deal_sizes(players, v.max_cards)  # type: ignore[attr-defined]
        return sum(players * (1 + size) for size in sizes)
    if name == "batak":
        return v.max_deals * (7 + 3 + 1 + 52)  # type: ignore[attr-defined]
    if name == "blot":
        return v.max_deals * (BLOT_AUCTION + 32)  # type: ignore[attr-defined]
    if name == "ladder":
        return (2 * v.target_wins + 1) * v.max_turns  # type: ignore[attr-defined]
    raise AssertionError(f"no stated bound for {name}")
