"""Who is calling: the identity every mutating or revealing service call takes.

A front end builds an ``Actor`` from what *it* knows for certain about the
caller -- Discord from the interaction (user, server, channel, the member's
Manage Server permission and role ids), the terminal from the local user --
and never from anything the caller typed.  The service then decides
authority from it (DESIGN.md, "The service also decides authority"):

* a table belongs to its server (a DM table to its DM channel, a terminal
  table to the terminal), and a caller from anywhere else is refused as if
  the table did not exist;
* only the host (or a moderator) may manage a lobby or end a table;
* only moderators change a server's settings.  Whether a caller is a
  moderator is decided by the service (``TableService.is_moderator``) from
  ``can_manage_server`` and ``role_ids`` against the server's stored
  moderator role, so no front end can forget the role check.
"""

from __future__ import annotations

from dataclasses import dataclass, field

#: the terminal's player (Discord ids are far larger)
LOCAL_USER_ID = 1


@dataclass(frozen=True, slots=True)
class Actor:
    user_id: int
    #: the server the call comes from; None for a DM or the terminal
    guild_id: int | None
    #: the channel the call comes from (scopes DM tables); None for the terminal
    channel_id: int | None = None
    #: a display name, used when the actor takes a seat
    name: str = ""
    #: the member has Manage Server (or Administrator) in this server
    can_manage_server: bool = False
    #: the member's role ids in this server
    role_ids: frozenset[int] = field(default_factory=frozenset)

    @classmethod
    def local(cls, name: str = "You") -> Actor:
        """The terminal's player: owner of every terminal table."""
        return cls(LOCAL_USER_ID, None, None, name, can_manage_server=True)

    def in_scope(self, guild_id: int | None, channel_id: int | None) -> bool:
        """True when a table of (guild_id, channel_id) belongs to where this
        actor is calling from: the same server, or the same DM channel."""
        if guild_id is not None:
            return self.guild_id == guild_id
        return self.guild_id is None and self.channel_id == channel_id
