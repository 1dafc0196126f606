"""``python -m bot``: the bot with a token, or an offline game without one.

python -m bot                      # DISCORD_TOKEN set: run the bot; else play Callbreak offline
python -m bot run                  # the Discord bot (needs DISCORD_TOKEN)
python -m bot play <game> [--seed N] [--seat K] [--watch] [--players N] [--set key=value]
python -m bot play --resume [N]    # go on with an interrupted terminal game (same --db)
python -m bot rules <game>         # print a game's rule book
python -m bot replay TABLE [--db FILE]  # a finished match, trick by trick
python -m bot health               # the running bot's /healthz (HEALTH_PORT), else doctor --quick
python -m bot web [--port N] [--db FILE] [--lang L]  # play in the browser (local mode)

Every refusal of the command line is one line on stderr with exit code 2
(argparse's usage block is left to ``--help``).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from bot.cli import ops_commands as ops_cli
from bot.cli.args import (
    SEED_MAX,
    CliParser,
    agent_arg,
    clip,
    lang_arg,
    players_arg,
    seat_arg,
    seed_arg,
    table_arg,
)
from engine import GAMES

PROG = "python -m bot"


def _play_parser(sub: argparse._SubParsersAction[CliParser]) -> CliParser:
    play = sub.add_parser("play", help="play offline in the terminal against AI players")
    play.add_argument("game", nargs="?", default=None, help=f"one of: {', '.join(GAMES)}")
    play.add_argument(
        "--seed", type=seed_arg, default=None, help=f"deal seed 0..{SEED_MAX} (reproducible)"
    )
    play.add_argument("--seat", type=seat_arg, default=0, help="your seat (0 = first)")
    play.add_argument("--watch", action="store_true", help="watch AI players only")
    play.add_argument(
        "--players", type=players_arg, default=None, help="number of players (Back Alley: 2..8)"
    )
    play.add_argument(
        "--set", action="append", default=[], metavar="KEY=VALUE", help="a game setting"
    )
    play.add_argument(
        "--ai", default="heuristic", type=agent_arg, help="AI agent: random, heuristic or search"
    )
    play.add_argument(
        "--resume",
        nargs="?",
        const=True,
        default=None,
        type=table_arg,
        metavar="TABLE",
        help="resume an unfinished terminal game (lists them when there are several)",
    )
    play.add_argument(
        "--db",
        default=None,
        help="SQLite file for the game (default: cardtable-terminal.db; never DATABASE_URL)",
    )
    play.add_argument(
        "--lang",
        default=None,
        type=lang_arg,
        help="language: en, tr, hy, ne, hi (default: from LC_ALL / LANG)",
    )
    return play


def _options(parser: argparse.ArgumentParser, args: argparse.Namespace) -> dict[str, str]:
    if args.resume is not None:
        given = [
            name
            for name, value in (
                ("a game", args.game),
                ("--seed", args.seed),
                ("--players", args.players),
                ("--set", args.set),
            )
            if value is not None and value != []
        ]
        if given:
            parser.error(f"--resume goes on with a stored game: drop {', '.join(given)}")
    from bot.services.errors import InvalidSetting
    from bot.services.settings import add_option

    options: dict[str, str] = {}
    for item in args.set:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            parser.error(f"--set expects KEY=VALUE (got {clip(item, 40)!r})")
        try:
            add_option(options, key.strip(), value.strip())  # a key given twice is refused
        except InvalidSetting as exc:
            parser.error(f"--set: {exc}")
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
    except (OSError, UnicodeDecodeError):
        return False


def build_parser() -> tuple[CliParser, CliParser]:
    """The program's parser and its ``play`` subcommand's."""
    parser = CliParser(prog=PROG, description="Card Table")
    sub = parser.add_subparsers(dest="command", parser_class=CliParser)
    play = _play_parser(sub)
    sub.add_parser("run", help="run the Discord bot (needs DISCORD_TOKEN)")
    from bot.rulebook import add_parser as add_rules_parser

    add_rules_parser(sub)  # python -m bot rules <game> (bot/rulebook)
    from bot.cli.replay import add_parser as add_replay_parser

    add_replay_parser(sub)  # python -m bot replay TABLE (bot/cli/replay.py)
    ops_cli.register(sub)  # backup, restore, migrate-data, doctor (bot/cli/ops_commands.py)
    from bot.cli.health import add_parser as add_health_parser

    add_health_parser(sub)  # python -m bot health (bot/discord/health.py)
    from bot.cli.web import add_parser as add_web_parser

    add_web_parser(sub)  # python -m bot web (bot/cli/web.py)
    return parser, play


def main(argv: Sequence[str] | None = None) -> int:
    parser, play = build_parser()
    args = parser.parse_args(argv)
    command = args.command
    if command == "rules":
        from bot.rulebook import cli_rules

        return cli_rules(args)
    if command == "replay":
        from bot.cli.replay import cli_replay

        return cli_replay(args)
    if command == "web":
        from bot.cli.web import cli_web

        return cli_web(args)
    if command == "health":
        from bot.cli.health import cli_health

        return cli_health(args)
    if command is None:
        if _has_token():
            command = "run"
        else:
            from bot.i18n import t, using
            from bot.i18n.locales import from_environment

            with using(from_environment(os.environ)):
                print(
                    t(
                        "No DISCORD_TOKEN set: starting an offline game of Callbreak against AI "
                        "players."
                    )
                )
                print(t("(See .env.example to run the Discord bot.)") + "\n")
            args = parser.parse_args(["play", "callbreak"])
            command = "play"
    if command in ops_cli.COMMANDS:
        return ops_cli.main(args)
    if command == "run":
        from bot.discord.run import run_bot

        return run_bot()
    from bot.cli.terminal import play_terminal

    options = _options(play, args)
    db_url = f"sqlite+aiosqlite:///{args.db}" if args.db else None
    return play_terminal(
        args.game,
        seed=args.seed,
        seat=args.seat,
        watch=args.watch,
        options=options,
        agent=args.ai,
        db_url=db_url,
        resume=args.resume,
        players=args.players,
        lang=args.lang,
    )


def cli() -> int:
    """Entry point: Ctrl-C or a closed pipe ends the program without a traceback."""
    try:
        return main()
    except KeyboardInterrupt:
        print("\nInterrupted.", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(cli())
