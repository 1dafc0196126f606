"""``python -m bot``: the bot with a token, or an offline game without one.

python -m bot                      # DISCORD_TOKEN set: run the bot; else play Callbreak offline
python -m bot run                  # the Discord bot (needs DISCORD_TOKEN)
python -m bot play <game> [--seed N] [--seat K] [--watch] [--players N] [--set key=value]
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from engine import GAMES


def _play_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    play = sub.add_parser("play", help="play offline in the terminal against AI players")
    play.add_argument("game", nargs="?", default=None, help=f"one of: {', '.join(GAMES)}")
    play.add_argument("--seed", type=int, default=None, help="deal seed (reproducible games)")
    play.add_argument("--seat", type=int, default=0, help="your seat (0 = first)")
    play.add_argument("--watch", action="store_true", help="watch AI players only")
    play.add_argument("--players", type=int, default=None, help="number of players (Backalley)")
    play.add_argument(
        "--set", action="append", default=[], metavar="KEY=VALUE", help="a game setting"
    )
    play.add_argument("--ai", default="heuristic", help="AI agent: random, heuristic or search")
    play.add_argument(
        "--resume",
        nargs="?",
        const=True,
        default=None,
        type=int,
        metavar="TABLE",
        help="resume the last unfinished terminal game (or table TABLE)",
    )
    play.add_argument("--db", default=None, help="SQLite file for the game (default: cardtable.db)")


def _options(args: argparse.Namespace) -> dict[str, str]:
    options: dict[str, str] = {}
    for item in args.set:
        key, sep, value = item.partition("=")
        if not sep:
            raise SystemExit(f"--set expects KEY=VALUE (got {item!r})")
        options[key.strip()] = value.strip()
    if args.players is not None:
        options["players"] = str(args.players)
    return options


def _has_token() -> bool:
    if os.environ.get("DISCORD_TOKEN"):
        return True
    try:
        with open(".env", encoding="utf-8") as env:
            return any(
                line.strip().startswith("DISCORD_TOKEN=") and line.split("=", 1)[1].strip()
                for line in env
            )
    except OSError:
        return False


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot", description="Card Table")
    sub = parser.add_subparsers(dest="command")
    _play_parser(sub)
    sub.add_parser("run", help="run the Discord bot (needs DISCORD_TOKEN)")
    args = parser.parse_args(argv)
    command = args.command
    if command is None:
        if _has_token():
            command = "run"
        else:
            print("No DISCORD_TOKEN set: starting an offline game of Callbreak against AI players.")
            print("(See .env.example to run the Discord bot.)\n")
            args = parser.parse_args(["play", "callbreak"])
            command = "play"
    if command == "run":
        from bot.run import run_bot

        return run_bot()
    from bot.terminal import play_terminal

    db_url = f"sqlite+aiosqlite:///{args.db}" if args.db else None
    return play_terminal(
        args.game,
        seed=args.seed,
        seat=args.seat,
        watch=args.watch,
        options=_options(args),
        agent=args.ai,
        db_url=db_url,
        resume=args.resume,
    )


def cli() -> int:
    """Entry point: Ctrl-C or a closed pipe ends the program without a traceback."""
    try:
        return main()
    except KeyboardInterrupt:
        print("\nInterrupted. Bye!")
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(cli())
