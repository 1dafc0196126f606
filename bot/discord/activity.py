"""The Discord Activity: the web table inside the bot's process, and the
"Open the table" button that launches it (issue 28; docs/web.md).

With ``WEB_PORT`` set, the bot serves the web table (``bot.web``) from its
own process, on its own ``TableService``: the browser and the channel
message show one table.  The Activity's login needs the application's
OAuth2 secret (``DISCORD_CLIENT_SECRET``); only when both are set is the
Activity *configured*, and only then do table messages carry "Open the
table" (custom_id ``ct:activity:<table>``).  A click answers with the
launch-activity response (type 12) after the service agreed the clicker
may see that table, and notes the table so the Activity opens at it
(``bot.web.launches``).
"""

from __future__ import annotations

import logging
import re
from typing import Any, Protocol

import discord

from bot.discord.actors import actor_of
from bot.discord.languages import Languages
from bot.i18n import t, using
from bot.i18n.errors import error_text
from bot.services.tables import TableService
from bot.settings import Settings
from bot.web.app import WebConfig, WebServer, make_app
from bot.web.auth import DiscordAuth, Sessions
from bot.web.launches import Launches
from bot.web.words import LABELS
from engine import EngineError

log = logging.getLogger(__name__)

TEMPLATE = r"ct:activity:(?P<table>[0-9]{1,12})"
OPEN_TABLE = LABELS["open_table"]


class ActivityHost(Protocol):
    """What the button needs of the bot."""

    @property
    def service(self) -> TableService: ...

    @property
    def launches(self) -> Launches: ...

    @property
    def activity_enabled(self) -> bool: ...

    @property
    def languages(self) -> Languages: ...


def activity_custom_id(table_id: int) -> str:
    return f"ct:activity:{table_id}"


def is_activity_id(custom_id: str) -> bool:
    return re.fullmatch(TEMPLATE, custom_id or "") is not None


def web_server(
    settings: Settings, service: TableService, launches: Launches, app_id: Any
) -> WebServer | None:
    """The web table for the bot, or None when ``WEB_PORT`` is not set.
    ``app_id()``: the application id (known after login)."""
    if settings.web_port is None:
        return None
    auth, sessions = None, None
    secret = settings.discord_client_secret
    if secret is not None and secret.get_secret_value():
        token = settings.discord_token.get_secret_value() if settings.discord_token else None
        auth = DiscordAuth(settings.discord_api_base, app_id, secret.get_secret_value(), token)
        sessions = Sessions(secret.get_secret_value())  # sessions outlive a restart
    config = WebConfig("discord", client_id=app_id)
    app = make_app(service, config, auth=auth, sessions=sessions, launches=launches)
    return WebServer(app, settings.web_host, settings.web_port)


class ActivityButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=TEMPLATE):
    """ "Open the table": launches the Activity at this table."""

    def __init__(self, table_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                custom_id=activity_custom_id(table_id),
                label=t(OPEN_TABLE),
                style=discord.ButtonStyle.success,
            )
        )
        self.table_id = table_id

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Button[Any],
        match: re.Match[str],
        /,
    ) -> ActivityButton:
        return cls(int(match["table"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        host: ActivityHost = interaction.client  # type: ignore[assignment]
        await launch(host, interaction, self.table_id)


async def launch(host: ActivityHost, interaction: discord.Interaction[Any], table_id: int) -> None:
    """Answer the click with the launch-activity response, after the service
    agreed this person may see the table (its server, its view checks)."""
    with using(await host.languages.for_person(interaction)):
        await _launch(host, interaction, table_id)


async def _launch(host: ActivityHost, interaction: discord.Interaction[Any], table_id: int) -> None:
    if not host.activity_enabled:
        await interaction.response.send_message(
            t("The table cannot be opened as an Activity on this bot."), ephemeral=True
        )
        return
    actor = actor_of(interaction)
    try:
        await host.service.public_view(table_id, actor)
    except EngineError as exc:
        await interaction.response.send_message(error_text(exc), ephemeral=True)
        return
    host.launches.note(actor.user_id, actor.guild_id, table_id)
    await interaction.response.launch_activity()
