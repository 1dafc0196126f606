"""tournaments: duplicate tournaments and the tables that play their boards

Revision ID: 0004_tournaments
Revises: 0003_shards
Create Date: 2026-11-23 17:00:00

``tournaments`` holds a tournament's whole state as JSON
(``bot.db.tournament_models``); ``tournament_tables`` links each ordinary
table to the tournament, table number and board it plays.  ``tables`` is
not altered.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004_tournaments"
down_revision = "0003_shards"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tournaments",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("guild_id", sa.BigInteger(), nullable=True),
        sa.Column("channel_id", sa.BigInteger(), nullable=True),
        sa.Column("host_id", sa.BigInteger(), nullable=False),
        sa.Column("game", sa.String(length=32), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("state", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("tournaments", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_tournaments_guild_id"), ["guild_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_tournaments_status"), ["status"], unique=False)
    op.create_table(
        "tournament_tables",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("table_no", sa.Integer(), nullable=False),
        sa.Column("board", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["tournament_id"], ["tournaments.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["table_id"], ["tables.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("table_id"),
        sa.UniqueConstraint("tournament_id", "table_no", "board", name="uq_tournament_board"),
    )
    with op.batch_alter_table("tournament_tables", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_tournament_tables_tournament_id"), ["tournament_id"], unique=False
        )


def downgrade() -> None:
    with op.batch_alter_table("tournament_tables", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_tournament_tables_tournament_id"))
    op.drop_table("tournament_tables")
    with op.batch_alter_table("tournaments", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_tournaments_status"))
        batch_op.drop_index(batch_op.f("ix_tournaments_guild_id"))
    op.drop_table("tournaments")
