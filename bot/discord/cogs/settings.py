"""/settings show|set|reset|role: per-server game defaults, the server's
switches (``language`` among them) and its moderator role; /pings: how a
player is told it is their turn; /language: the language the bot speaks to
a player (Discord has no Armenian or Nepali client language).

Who may change settings is decided by the service (moderators: Manage
Server, or the server's moderator role); its ``NotModerator`` refusal
reaches the user as an ephemeral "⚠️ ..." through the app-command error
handler.  ``default_permissions(manage_guild=True)`` only asks Discord to
show /settings to managers by default (a server can widen that in its
Integrations settings).  That is also why the ping preference is a command
of its own: every player needs it, and a subcommand of /settings would be
hidden from them (and /language likewise).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot.discord.actors import actor_of
from bot.discord.cogs.common import (
    SERVER,
    help_text,
    key_choices,
    setting_specs,
    settings_game_autocomplete,
    value_choices,
)
from bot.i18n import LOCALES, N_, NATIVE_NAMES, set_current, t
from bot.i18n.locales import AUTO
from bot.i18n.settings_words import typed_range
from bot.render import messages

if TYPE_CHECKING:
    from bot.discord.client import CardBot
    from engine.core.spec import SettingSpec

PING_MODES = [
    app_commands.Choice(name=_("in the table's channel (or its thread)"), value="channel"),
    app_commands.Choice(name=_("by direct message"), value="dm"),
    app_commands.Choice(name=_("off"), value="off"),
]
#: /language: "as Discord" and every language in its own name (not translated)
LANGUAGE_CHOICES = [
    app_commands.Choice(name=_("as my Discord app (or the server)"), value=AUTO),
    *(app_commands.Choice(name=f"{NATIVE_NAMES[code]} ({code})", value=code) for code in LOCALES),
]
PING_ANSWERS = {
    "channel": N_("I'll mention you in the table's channel (or thread) when it is your turn."),
    "dm": N_("I'll send you a direct message when it is your turn."),
    "off": N_("No more turn pings: open your hand with **Show my hand** when you like."),
}
NO_MENTIONS = discord.AllowedMentions.none()


def server_text(values: dict[str, Any]) -> str:
    """/settings show game:server: each setting's name, key, value and help."""
    role = values.get("moderator_role_id")
    lines = ["**" + t("Server settings") + "**"]
    for spec in setting_specs(SERVER):
        lines.append(
            messages.setting_show_line(
                spec.name, values.get(spec.name), server_accepts(spec), help_text(spec)
            )
        )
    who = f"<@&{int(role)}>" if role else t("none (Manage Server only)")
    lines.append(t("Moderator role: {role} — change it with `/settings role`", role=who))
    return messages.clip("\n".join(lines))


def server_accepts(spec: SettingSpec) -> str:
    """What a server setting accepts, with the tokens to type."""
    if spec.name == "language":
        return typed_range(spec.name, (AUTO, *LOCALES))
    if isinstance(spec.default, bool):
        return typed_range(spec.name, ("true", "false"))
    return typed_range(spec.name, spec.range_parts())


@app_commands.guild_only()
@app_commands.default_permissions(manage_guild=True)
class SettingsCog(
    commands.GroupCog,
    group_name="settings",
    group_description=_("Server defaults for each game"),
):
    def __init__(self, bot: CardBot) -> None:
        self.bot = bot
        super().__init__()

    @property
    def service(self) -> Any:
        return self.bot.service

    async def _show(self, game: str, guild_id: int | None) -> str:
        if game == SERVER:
            return server_text(await self.service.get_guild_settings(guild_id))
        values = await self.service.get_settings(guild_id, game)
        return messages.settings_text(game, values)

    async def _reply(self, interaction: discord.Interaction[Any], text: str) -> None:
        await interaction.response.send_message(
            messages.clip(text), ephemeral=True, allowed_mentions=NO_MENTIONS
        )

    # -- autocomplete --------------------------------------------------------------------------
    async def _keys(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        return key_choices(getattr(interaction.namespace, "game", None), current)

    async def _values(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        namespace = interaction.namespace
        return value_choices(
            getattr(namespace, "game", None), getattr(namespace, "key", None), current
        )

    # -- commands --------------------------------------------------------------------------------
    @app_commands.command(name="show", description=_("Show the settings for a game (or 'server')"))
    @app_commands.describe(game=_("A game, or 'server' for the server's switches"))
    @app_commands.autocomplete(game=settings_game_autocomplete)
    async def show(self, interaction: discord.Interaction[Any], game: str) -> None:
        await self._reply(interaction, await self._show(game, interaction.guild_id))

    @app_commands.command(name="set", description=_("Change a setting (moderators)"))
    @app_commands.describe(
        game=_("A game, or 'server' for the server's switches"),
        key=_("The setting to change"),
        value=_("Its new value"),
    )
    @app_commands.autocomplete(game=settings_game_autocomplete, key=_keys, value=_values)
    async def set_(
        self, interaction: discord.Interaction[Any], game: str, key: str, value: str
    ) -> None:
        actor = actor_of(interaction)
        if game == SERVER and key == "moderator_role_id":
            await self._reply(interaction, t("Pick the moderator role with `/settings role`."))
            return
        if game == SERVER:
            await self.service.set_guild_setting(actor, key, value)
            self.bot.languages.server_changed(interaction.guild_id)
        else:
            await self.service.set_setting(actor, game, key, value)
        shown = await self._show(game, interaction.guild_id)
        await self._reply(interaction, t("Saved.") + "\n" + shown)

    @app_commands.command(name="reset", description=_("Back to the defaults (moderators)"))
    @app_commands.describe(
        game=_("A game, or 'server' for the server's switches"),
        key=_("One setting (leave empty to reset them all)"),
    )
    @app_commands.autocomplete(game=settings_game_autocomplete, key=_keys)
    async def reset(
        self, interaction: discord.Interaction[Any], game: str, key: str | None = None
    ) -> None:
        await self.service.reset_settings(actor_of(interaction), game, key)
        shown = await self._show(game, interaction.guild_id)
        await self._reply(interaction, t("Reset.") + "\n" + shown)

    @app_commands.command(
        name="role", description=_("The role whose members are moderators here (empty: none)")
    )
    @app_commands.describe(role=_("Members with this role may change settings and end tables"))
    async def role(
        self, interaction: discord.Interaction[Any], role: discord.Role | None = None
    ) -> None:
        await self.service.set_moderator_role(
            actor_of(interaction), role.id if role is not None else None
        )
        if role is None:
            text = t("No moderator role any more: only members with Manage Server are moderators.")
        else:
            text = t(
                "Moderators here: members with Manage Server, and members with {role}.",
                role=role.mention,
            )
        await self._reply(interaction, text)


class Pings(commands.Cog):
    def __init__(self, bot: CardBot) -> None:
        self.bot = bot

    @app_commands.command(name="pings", description=_("How Card Table tells you it is your turn"))
    @app_commands.describe(mode=_("channel (default), direct message, or off"))
    @app_commands.choices(mode=PING_MODES)
    async def pings(
        self, interaction: discord.Interaction[Any], mode: app_commands.Choice[str]
    ) -> None:
        await self.bot.service.set_ping_preference(actor_of(interaction), mode.value)
        msgid = PING_ANSWERS.get(mode.value)
        text = t(msgid) if msgid else t("Saved.")
        await interaction.response.send_message(text, ephemeral=True)


class Language(commands.Cog):
    """``/language``: the language the bot speaks to this person (replies,
    hands, DMs) on every server; ``auto`` follows their Discord app."""

    def __init__(self, bot: CardBot) -> None:
        self.bot = bot

    @app_commands.command(name="language", description=_("The language Card Table speaks to you"))
    @app_commands.describe(language=_("Your language, or as your Discord app"))
    @app_commands.choices(language=LANGUAGE_CHOICES)
    async def language(
        self, interaction: discord.Interaction[Any], language: app_commands.Choice[str]
    ) -> None:
        code = await self.bot.service.settings.set_user_language(
            actor_of(interaction), language.value
        )
        self.bot.languages.chose(interaction.user.id, code)
        set_current(await self.bot.languages.for_person(interaction))
        if code is None:
            text = t("I'll speak the language of your Discord app (or the server's).")
        else:
            text = t("I'll speak {language} to you.", language=NATIVE_NAMES[code])
        text += " " + t(
            "Public messages follow the server's language (moderators: "
            "`/settings set game:server key:language`)."
        )
        await interaction.response.send_message(text, ephemeral=True)


async def setup(bot: CardBot) -> None:
    await bot.add_cog(SettingsCog(bot))
    await bot.add_cog(Pings(bot))
    await bot.add_cog(Language(bot))
