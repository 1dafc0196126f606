"""Database models.  Alembic owns the schema (``migrations/``); a test proves
these models and the migrations agree.

A match is fully defined by (game, variant, seats, seed, actions): the
action log is append-only with a unique (table, seq), and live state is
rebuilt by replay, so nothing here has to be kept in sync by hand.
"""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import (
    BigInteger,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    ForeignKeyConstraint,
    Integer,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


def utcnow() -> datetime:
    return datetime.now(UTC)


class Base(DeclarativeBase):
    pass


class GuildSetting(Base):
    """A per-server value: a game's variant option (``game`` set) or a
    guild-wide option (``game`` empty)."""

    __tablename__ = "guild_settings"
    __table_args__ = (UniqueConstraint("guild_id", "game", "key", name="uq_guild_setting"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    guild_id: Mapped[int] = mapped_column(BigInteger, index=True)
    game: Mapped[str] = mapped_column(String(32), default="")
    key: Mapped[str] = mapped_column(String(64))
    value: Mapped[str] = mapped_column(Text)  # JSON


class TableRow(Base):
    """A table.  ``shard`` is the Discord shard of its server (0 without a
    server, ``bot.db.shards``); ``(id, shard)`` is unique so that action
    rows can point at both."""

    __tablename__ = "tables"
    __table_args__ = (UniqueConstraint("id", "shard", name="uq_table_shard"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    shard: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    guild_id: Mapped[int | None] = mapped_column(BigInteger, nullable=True, index=True)
    channel_id: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    message_id: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    thread_id: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    host_id: Mapped[int] = mapped_column(BigInteger)
    game: Mapped[str] = mapped_column(String(32))
    variant: Mapped[str] = mapped_column(Text)  # JSON
    seed: Mapped[int] = mapped_column(BigInteger)
    status: Mapped[str] = mapped_column(String(16), index=True)
    turn_seconds: Mapped[int] = mapped_column(Integer, default=90)
    deadline: Mapped[float | None] = mapped_column(Float, nullable=True)
    error: Mapped[str | None] = mapped_column(Text, nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class SeatRow(Base):
    __tablename__ = "seats"
    __table_args__ = (UniqueConstraint("table_id", "seat", name="uq_seat"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    user_id: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    name: Mapped[str] = mapped_column(String(100))
    ai: Mapped[str | None] = mapped_column(String(16), nullable=True)
    away: Mapped[bool] = mapped_column(Boolean, default=False)
    expiries: Mapped[int] = mapped_column(Integer, default=0)


class ActionRow(Base):
    """The append-only action log.  ``shard`` is the shard of the process
    that wrote the move; the foreign key (table_id, shard) -> tables(id,
    shard) refuses a move written by a process that does not own the
    table (``bot.db.shards``).  ON UPDATE CASCADE lets a table change
    shard (``Store.claim``) with its log."""

    __tablename__ = "actions"
    __table_args__ = (
        UniqueConstraint("table_id", "seq", name="uq_action_seq"),
        ForeignKeyConstraint(
            ["table_id", "shard"],
            ["tables.id", "tables.shard"],
            name="fk_actions_table_shard",
            ondelete="CASCADE",
            onupdate="CASCADE",
        ),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    #: no index of its own: uq_action_seq (table_id, seq) serves lookups by table
    table_id: Mapped[int] = mapped_column(Integer)
    shard: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    seq: Mapped[int] = mapped_column(Integer)
    notation: Mapped[str] = mapped_column(String(64))
    seat: Mapped[int] = mapped_column(Integer)
    actor_id: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    by_ai: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class ResultRow(Base):
    __tablename__ = "results"
    __table_args__ = (UniqueConstraint("table_id", "seat", name="uq_result_seat"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    user_id: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    rank: Mapped[int] = mapped_column(Integer)
    points: Mapped[int] = mapped_column(Integer)
    won: Mapped[bool] = mapped_column(Boolean)
    rating_before: Mapped[float | None] = mapped_column(Float, nullable=True)
    rating_after: Mapped[float | None] = mapped_column(Float, nullable=True)
    #: why the match was not rated (``bot.services.results.UNRATED``); None:
    #: rated, or recorded before the reason was kept (migration 0005)
    unrated: Mapped[str | None] = mapped_column(String(16), nullable=True)


class RatingRow(Base):
    __tablename__ = "ratings"
    __table_args__ = (UniqueConstraint("guild_id", "game", "user_id", name="uq_rating"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    guild_id: Mapped[int] = mapped_column(BigInteger, index=True)
    game: Mapped[str] = mapped_column(String(32))
    user_id: Mapped[int] = mapped_column(BigInteger)
    name: Mapped[str] = mapped_column(String(100))
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    played: Mapped[int] = mapped_column(Integer, default=0)
    won: Mapped[int] = mapped_column(Integer, default=0)
    points: Mapped[int] = mapped_column(Integer, default=0)


class UserSetting(Base):
    """A person's own preference, the same in every server (e.g. how they
    want to be told it is their turn)."""

    __tablename__ = "user_settings"
    __table_args__ = (UniqueConstraint("user_id", "key", name="uq_user_setting"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(BigInteger, index=True)
    key: Mapped[str] = mapped_column(String(64))
    value: Mapped[str] = mapped_column(Text)  # JSON
