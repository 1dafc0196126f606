"""Discards under a trick the seat cannot win (FINDINGS, "The heuristic's discards").

    python bench/ai_discards.py [--deals 40] [--games callbreak,batak,blot,backalley]
                                [--lineup heuristic,random,search,heuristic] [--budget-ms 40]

Plays ``--deals`` deals of each trick game (auction included, seeded), the
lineup rotated one seat per seed so every agent sits everywhere.  A
*situation* is a card play where the seat to play holds two or more legal
cards of the led suit and none of its legal cards beats the card winning
the trick so far: whatever it plays, it cannot win this trick.  The agent
"throws high" when it plays a card of the led suit stronger than its
weakest legal one.  Reported per game and agent, with the throws that have
a documented reason counted apart:

- ``feed``: Bazar Blot, the partner holds the trick and the card carries
  more points (rules/blot.md "Card order and points": feeding the partner);
- ``equal``: the card and the weakest one are equivalent for this seat (every
  card of the suit between them is in its own hand or already played).

The observer reads the full state; the agents see only their views.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine import get_game
from engine.ai import agent_names, get_agent
from engine.core.cards import Card
from engine.core.trick import Trick

TRICK_GAMES = ("callbreak", "batak", "blot", "backalley")


def card_points(game: str, card: Card, trump: str | None) -> int:
    if game != "blot":
        return 0
    from engine.games.blot.cards import card_points as blot_points

    return blot_points(card, trump)


def situation(state: Any, legal: list[Any]) -> tuple[list[Card], int, int] | None:
    """(legal cards of the led suit, winning seat, power to beat) when the
    seat cannot win the trick and holds two or more legal led-suit cards."""
    if state.phase.value != "play" or not state.trick.plays:
        return None
    cards = [a.card for a in legal if a.verb == "play"]
    ranking, trump = state.ranking, state.trump
    trick = Trick(state.trick.leader, list(state.trick.plays))
    led = trick.led_suit(ranking, trump)
    win_seat, win_card = trick.winning_play(ranking, trump)
    best = ranking.power(win_card, led, trump)
    if any(ranking.power(c, led, trump) > best for c in cards):
        return None
    same = [c for c in cards if ranking.suit_of(c, trump) == led]
    if len(same) < 2:
        return None
    return same, win_seat, best


def equivalent(state: Any, seat: int, low: Card, high: Card) -> bool:
    """No card of the suit strictly between ``low`` and ``high`` is unseen by ``seat``."""
    view = state.view(seat)
    seen = view.visible_cards() | set(view.dummy or ())
    ranking, trump = state.ranking, state.trump
    suit = ranking.suit_of(low, trump)
    led = suit
    lo, hi = ranking.power(low, led, trump), ranking.power(high, led, trump)
    for card in state.full_deck():
        if ranking.suit_of(card, trump) != suit or card in seen:
            continue
        if lo < ranking.power(card, led, trump) < hi:
            return False
    return True


def run_game(
    name: str, deals: int, lineup: list[str], budget_ms: int, examples: int
) -> dict[str, Counter[str]]:
    game = get_game(name)
    tally: dict[str, Counter[str]] = {}
    shown: Counter[str] = Counter()
    seed = 0
    played = 0
    while played < deals:
        state = game.new_match(seed=seed)
        n = state.num_seats
        names = [lineup[(s + seed) % len(lineup)] for s in range(n)]
        # a game without a search agent plays the heuristic there (labelled as such)
        names = [a if a in agent_names(name) else "heuristic" for a in names]
        agents = [
            get_agent(a, game=name, seed=seed * 31 + s, budget_ms=budget_ms)
            for s, a in enumerate(names)
        ]
        while not state.is_over and played < deals:
            before = len(state.history)
            while not state.is_over and len(state.history) == before:
                seat = state.decider
                legal = state.legal_actions()
                action = agents[seat].act(state.view(seat), legal)
                found = situation(state, legal)
                if found is not None:
                    same, win_seat, _ = found
                    count = tally.setdefault(names[seat], Counter())
                    count["situations"] += 1
                    ranking, trump = state.ranking, state.trump
                    led = ranking.suit_of(state.trick.plays[0][1], trump)
                    low = min(same, key=lambda c: ranking.power(c, led, trump))
                    card = action.card
                    if ranking.power(card, led, trump) > ranking.power(low, led, trump):
                        count["high"] += 1
                        partner = (
                            game.partnership
                            and win_seat % 2 == state.playing_seat % 2
                            and win_seat != state.playing_seat
                        )
                        if partner and card_points(name, card, trump) > card_points(
                            name, low, trump
                        ):
                            count["feed"] += 1
                        elif equivalent(state, seat, low, card):
                            count["equal"] += 1
                        else:
                            count["unexplained"] += 1
                            if shown[names[seat]] < examples:
                                shown[names[seat]] += 1
                                trick = " ".join(f"{s}:{c}" for s, c in state.trick.plays)
                                hand = " ".join(map(str, state.hands[state.playing_seat]))
                                print(
                                    f"    {name} {names[seat]}: played {card} (lowest {low});"
                                    f" trick {trick}; trump {trump}; hand {hand}"
                                )
                state.apply(action)
            played += 1
        seed += 1
    return tally


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=40)
    parser.add_argument("--games", default=",".join(TRICK_GAMES))
    parser.add_argument("--lineup", default="heuristic,random,search,heuristic")
    parser.add_argument("--budget-ms", type=int, default=40)
    parser.add_argument("--examples", type=int, default=2, help="unexplained throws to print")
    args = parser.parse_args()
    lineup = args.lineup.split(",")
    print(f"{args.deals} deals per game, lineup {lineup} rotated, search {args.budget_ms} ms")
    start = time.perf_counter()
    rows = []
    for name in args.games.split(","):
        tally = run_game(name, args.deals, lineup, args.budget_ms, args.examples)
        for agent in sorted(tally):
            c = tally[agent]
            rows.append(
                f"| {name} | {agent} | {c['situations']} | {c['high']} | {c['feed']} "
                f"| {c['equal']} | {c['unexplained']} |"
            )
    print(
        "| game | agent | situations | higher than needed | feed (Blot) | equal cards "
        "| unexplained |"
    )
    print("|---|---|---|---|---|---|---|")
    print("\n".join(rows))
    print(f"{time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
