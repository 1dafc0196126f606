"""``python -m bot health``: the container's health check.  It asks the running
bot's ``/healthz`` (``bot.discord.health``) when ``HEALTH_PORT`` is set, and
otherwise runs ``doctor --quick``.  A command, kept apart from the server."""

from __future__ import annotations

import argparse
from typing import Any


# -- python -m bot health (the container's HEALTHCHECK) -----------------------------------------
def add_parser(sub: Any) -> None:
    sub.add_parser(
        "health", help="ask the running bot's /healthz (HEALTH_PORT), else run doctor --quick"
    )


def local_host(host: str) -> str:
    """Where to reach a server bound to ``host`` from the same machine."""
    if host in ("", "0.0.0.0"):
        return "127.0.0.1"
    if host == "::":
        return "::1"
    return host


def cli_health(args: argparse.Namespace, *, timeout: float = 10.0) -> int:
    """0 when the bot says it is healthy; 1 with its one-line reason when
    not (or when it does not answer).  Without ``HEALTH_PORT``: ``doctor
    --quick``'s answer."""
    import urllib.error
    import urllib.request

    from bot.settings import Settings

    settings = Settings()
    if settings.health_port is None:
        from bot.cli.ops_commands import main

        return main(argparse.Namespace(command="doctor", db_url=None, quick=True))
    host = local_host(settings.health_host)
    if ":" in host:
        host = f"[{host}]"
    url = f"http://{host}:{settings.health_port}/healthz"
    try:
        with urllib.request.urlopen(url, timeout=timeout) as answer:
            print(answer.read().decode("utf-8", "replace").strip())
            return 0
    except urllib.error.HTTPError as exc:
        print(exc.read().decode("utf-8", "replace").strip() or f"HTTP {exc.code}")
    except OSError as exc:
        print(f"no answer from {url}: {getattr(exc, 'reason', exc)}")
    return 1
