"""What the Discord parts use of the bot that holds them, as small typed
interfaces (``Protocol``), so that no part imports ``CardBot`` back.

``bot.discord.client.CardBot`` builds the presenter, the turn pings and the
component handler and hands itself to them; they see it only through
these interfaces, which name exactly the attributes each one reads.  The
client imports the parts, the parts import these interfaces: every import
goes one way (no import circle).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    import discord
    from discord.http import HTTPClient

    from bot.db.repositories import Store
    from bot.discord.languages import Languages
    from bot.discord.live_hands import LiveHands
    from bot.services.models import TableInfo
    from bot.services.tables import TableService


class ChannelHost(Protocol):
    """What the presenter and the turn pings use: the service, each
    person's and server's language, and discord.py's REST side."""

    @property
    def service(self) -> TableService: ...

    @property
    def languages(self) -> Languages: ...

    @property
    def http(self) -> HTTPClient: ...

    def get_partial_messageable(
        self,
        id: int,
        *,
        guild_id: int | None = None,
        type: discord.ChannelType | None = None,
    ) -> discord.PartialMessageable: ...


class TableMessages(Protocol):
    """What a click asks of the presenter (``bot.discord.presenter.Presenter``)."""

    def take_problem(self, table_id: int) -> str | None: ...

    def post_lobby(self, info: TableInfo) -> None: ...


class ClickHost(Protocol):
    """What the component handler uses: the service, the live hands, the
    clicker's language and the presenter."""

    @property
    def service(self) -> TableService: ...

    @property
    def hands(self) -> LiveHands: ...

    @property
    def languages(self) -> Languages: ...

    @property
    def presenter(self) -> TableMessages: ...


class EditCounts(Protocol):
    """The presenter's count of table-message edits per channel."""

    def channel_edits(self) -> dict[int, int]: ...


class ProcessHost(Protocol):
    """What the health checks and the metrics read: the service, the store,
    the presenter's edit counts and discord.py's REST side."""

    @property
    def presenter(self) -> EditCounts: ...

    @property
    def service(self) -> TableService: ...

    @property
    def store(self) -> Store: ...

    @property
    def http(self) -> HTTPClient: ...
