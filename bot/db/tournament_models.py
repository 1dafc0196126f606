"""Database models of duplicate tournaments (issue 16), on the store's own
``Base`` so that Alembic (``migrations/versions/0004_tournaments.py``) and
the models-agree test see them.  Imported by ``bot.db`` itself, so any code
that loads the store's metadata has them.

A tournament is one row: its whole duplicate state (``state``: the
``bot.services.duplicate.Tournament.to_dict()`` of its finished boards, the
entrants' people and the standings message) as JSON, like a table's action
log it is all that is needed to carry on after a restart.  Each board played
at a table is an ordinary table (``tables``) linked here by
``tournament_tables``; the tables themselves are not altered.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import BigInteger, DateTime, ForeignKey, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from bot.db.models import Base, utcnow


class TournamentRow(Base):
    __tablename__ = "tournaments"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    guild_id: Mapped[int | None] = mapped_column(BigInteger, nullable=True, index=True)
    channel_id: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    host_id: Mapped[int] = mapped_column(BigInteger)
    game: Mapped[str] = mapped_column(String(32))
    #: lobby, playing, finished or abandoned
    status: Mapped[str] = mapped_column(String(16), index=True)
    state: Mapped[str] = mapped_column(Text)  # JSON
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class TournamentTableRow(Base):
    """Table ``table_id`` plays board ``board`` as the tournament's table
    number ``table_no`` (0-based)."""

    __tablename__ = "tournament_tables"
    __table_args__ = (
        UniqueConstraint("tournament_id", "table_no", "board", name="uq_tournament_board"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    tournament_id: Mapped[int] = mapped_column(
        ForeignKey("tournaments.id", ondelete="CASCADE"), index=True
    )
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"), unique=True)
    table_no: Mapped[int] = mapped_column(Integer)
    board: Mapped[int] = mapped_column(Integer)
