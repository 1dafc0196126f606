"""The command line of the operating commands: ``backup``, ``restore``,
``migrate-data``, ``doctor`` (what each does: ``bot.cli.ops``).

Kept out of ``bot.cli.ops``: the commands' shared helpers live there and
``bot.cli.ops_doctor`` and ``bot.cli.ops_migrate`` import them, so the dispatch to
those modules sits here, above all three (no import circle).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from bot.cli.ops import COMMANDS, Refusal, backup, database_url, one_line, restore

__all__ = ["COMMANDS", "main", "register"]


def register(sub: Any) -> None:
    """Add the subcommands to ``python -m bot``'s subparsers."""
    url_help = "database URL (default: DATABASE_URL from the environment or .env)"
    backup = sub.add_parser("backup", help="back up the database (SQLite) or show how (PostgreSQL)")
    backup.add_argument("file", help="the backup file to write")
    backup.add_argument("--force", action="store_true", help="replace FILE if it exists")
    backup.add_argument("--db-url", default=None, help=url_help)

    restore = sub.add_parser("restore", help="restore a SQLite backup (stop the bot first)")
    restore.add_argument("file", help="a backup made by `python -m bot backup`")
    restore.add_argument("--force", action="store_true", help="replace an existing database")
    restore.add_argument("--db-url", default=None, help=url_help)

    migrate = sub.add_parser(
        "migrate-data", help="copy every row from one database to another (same schema)"
    )
    migrate.add_argument("--from", dest="source", required=True, metavar="URL")
    migrate.add_argument("--to", dest="target", required=True, metavar="URL")
    migrate.add_argument(
        "--force", action="store_true", help="empty a target that already holds rows first"
    )
    migrate.add_argument("--batch", type=int, default=1000, help="rows per insert (default 1000)")

    doctor = sub.add_parser("doctor", help="check the token, database, fonts and AI settings")
    doctor.add_argument(
        "--quick", action="store_true", help="token and database only (container health checks)"
    )
    doctor.add_argument("--db-url", default=None, help=url_help)


def main(args: argparse.Namespace) -> int:
    """Run one of ``COMMANDS``; a ``Refusal`` is one line and exit code 2."""
    try:
        if args.command == "backup":
            return backup(database_url(args.db_url), Path(args.file), force=args.force)
        if args.command == "restore":
            return restore(database_url(args.db_url), Path(args.file), force=args.force)
        if args.command == "migrate-data":
            from bot.cli.ops_migrate import migrate_data

            return migrate_data(args.source, args.target, force=args.force, batch=args.batch)
        from bot.cli.ops_doctor import doctor

        return doctor(args.db_url, quick=args.quick)
    except Refusal as exc:
        print(one_line(f"python -m bot {args.command}: {exc}"), file=sys.stderr)
        return 2
