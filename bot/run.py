"""``python -m bot run``: start the Discord bot (a thin launcher)."""

from __future__ import annotations

import logging

from bot.settings import Settings


def run_bot() -> int:
    settings = Settings()
    logging.basicConfig(
        level=getattr(logging, settings.log_level.upper(), logging.INFO),
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    if not settings.has_token:
        print(
            "No DISCORD_TOKEN is set. Copy .env.example to .env and put your bot token in it,\n"
            "or play offline in the terminal: python -m bot play callbreak"
        )
        return 2
    from bot.client import CardBot

    bot = CardBot(settings)
    assert settings.discord_token is not None
    bot.run(settings.discord_token.get_secret_value(), log_handler=None)
    return 0
