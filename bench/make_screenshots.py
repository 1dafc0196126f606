"""Sample table pictures for the docs, made by the real renderer.

python bench/make_screenshots.py [--out docs/images]

Writes table-batak.png (dummy face up, a trick in progress), table-ladder.png
(pile, requirement, tableaus) and table-callbreak.png (bids, tricks, last
trick), with names in Turkish, Armenian, Devanagari and emoji: the picture
must draw all of them with real glyphs.

Also writes the Callbreak picture as a truecolour PNG (what the channel got
before issue 22, ``picture-truecolour.png``) and as the palette PNG it gets
now (``picture-palette.png``): the pair to compare by eye, with their sizes.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.render.picture.png import encode_png
from bot.render.picture.table import render_table_image, render_table_png
from engine import MatchState, Observation, get_game

NAMES = ["Şükrü Ağaoğlu", "Արամ Խաչատրյան", "सुनिता", "🃏 Ada"]


def play_until(game: str, seed: int, wanted: Callable[[Observation], bool]) -> Observation:
    """Random legal moves from a seeded match until the spectator view is
    one worth showing (first match found over seeds ``seed``, ``seed + 1``...)."""
    for attempt in range(seed, seed + 200):
        state: MatchState = get_game(game).new_match(seed=attempt)
        rng = random.Random(attempt)
        while not state.is_over:
            view = state.view(None)
            if wanted(view):
                return view
            state.apply(rng.choice(state.legal_actions()))
    raise SystemExit(f"no {game} position found")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", default="docs/images")
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    pictures = {
        "batak": (
            play_until(
                "batak",
                3,
                lambda v: (
                    v.round_number >= 2
                    and bool(v.dummy)
                    and len(v.dummy) >= 8
                    and len(v.trick) == 3
                ),
            ),
            "Eşli Batak — table #7",
        ),
        "ladder": (
            play_until(
                "ladder", 1, lambda v: v.pile_size >= 4 and (v.extra.get("turns") or 0) > 30
            ),
            "Ladder — table #3",
        ),
        "callbreak": (
            play_until(
                "callbreak",
                1,
                lambda v: v.round_number == 3 and len(v.trick) == 2 and sum(v.tricks_won) >= 5,
            ),
            "Callbreak — table #12",
        ),
    }
    for name, (view, title) in pictures.items():
        away = [False, False, False, True] if name == "callbreak" else []
        path = out / f"table-{name}.png"
        path.write_bytes(render_table_png(view, NAMES, away=away, title=title))
        print(path)
    view, title = pictures["callbreak"]
    away = [False, False, False, True]
    before = encode_png(render_table_image(view, NAMES, away=away, title=title), level=1)
    after = render_table_png(view, NAMES, away=away, title=title)
    for name, data in (("picture-truecolour.png", before), ("picture-palette.png", after)):
        (out / name).write_bytes(data)
        print(out / name, f"{len(data) / 1024:.0f} KiB")


if __name__ == "__main__":
    main()
