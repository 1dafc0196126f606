"""The shape of a Discord bot token, checked before any network: what
``python -m bot run`` refuses at once and what ``doctor`` says (Discord
alone can tell whether a well-shaped token is valid).

Its own module so that the runner of the Discord bot and the ``doctor``
command share it without the Discord side importing the command line.
"""

from __future__ import annotations

import base64
import binascii
import re

#: a bot token: base64url(the bot's user id) . base64url(timestamp) . HMAC
TOKEN_SHAPE = re.compile(r"[A-Za-z0-9_-]{17,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{20,}")


def token_shape(token: str) -> tuple[bool, str]:
    """``(ok, what to say)`` about the token's shape, never the token itself."""
    if not token:
        return (
            False,
            "DISCORD_TOKEN is not set: copy the bot's token (Developer Portal → your "
            "application → Bot → Reset Token) into .env",
        )
    if token != token.strip() or token[:1] in "\"'":
        return (False, "DISCORD_TOKEN has spaces or quotes around it: remove them")
    if token.lower().startswith("bot "):
        return (False, "DISCORD_TOKEN starts with 'Bot ': give the token alone")
    if not TOKEN_SHAPE.fullmatch(token):
        return (
            False,
            f"DISCORD_TOKEN ({len(token)} characters) does not look like a bot token (three "
            "base64url parts joined by dots): copy it again from the Developer Portal "
            "(an application id or client secret is not the token)",
        )
    first = token.split(".", 1)[0]
    try:
        user_id = base64.urlsafe_b64decode(first + "=" * (-len(first) % 4)).decode("ascii")
    except (binascii.Error, UnicodeDecodeError):
        user_id = ""
    if not user_id.isdecimal():
        return (
            False,
            "DISCORD_TOKEN's first part does not name a bot user: copy the token again "
            "from the Developer Portal",
        )
    return (True, f"looks like a bot token (bot user {user_id}; Discord checks it)")
