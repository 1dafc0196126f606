"""shards: every table and every move carry their Discord shard

Revision ID: 0003_shards
Revises: 0002
Create Date: 2026-11-23 16:30:00

``tables.shard`` (the shard of the table's server, ``bot.db.shards``) with
``(id, shard)`` unique, and ``actions.shard`` (the shard of the process that
wrote the move) under the foreign key ``(table_id, shard) -> tables(id,
shard)``, which replaces the plain ``table_id -> tables(id)``: a process
that writes a move for a table of another shard is refused by the database.
The index on ``actions.table_id`` goes: the unique ``(table_id, seq)``
serves every lookup by table (and the foreign key's cascades) already, and
the log is the store's largest table.

Existing rows get shard 0, which is right for the one process (one shard)
that ran before this migration.  A process started later with
``SHARD_COUNT`` > 1 moves the unfinished tables of its own shards to them at
start (``Store.claim``; ON UPDATE CASCADE carries the action rows along).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003_shards"
down_revision = "0002"
branch_labels = None
depends_on = None

#: how SQLite's batch mode names the old, unnamed foreign key when it reflects it
SQLITE_NAMES = {"fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s"}


def _old_foreign_key() -> str:
    """The name of actions.table_id -> tables.id: PostgreSQL named it itself;
    on SQLite it has none, and batch mode reflects it under ``SQLITE_NAMES``."""
    if op.get_bind().dialect.name == "sqlite":
        return "fk_actions_table_id_tables"
    return "actions_table_id_fkey"


def upgrade() -> None:
    with op.batch_alter_table("tables", schema=None) as batch_op:
        batch_op.add_column(sa.Column("shard", sa.Integer(), server_default="0", nullable=False))
        batch_op.create_unique_constraint("uq_table_shard", ["id", "shard"])

    with op.batch_alter_table("actions", schema=None, naming_convention=SQLITE_NAMES) as batch_op:
        batch_op.add_column(sa.Column("shard", sa.Integer(), server_default="0", nullable=False))
        batch_op.drop_index("ix_actions_table_id")
        batch_op.drop_constraint(_old_foreign_key(), type_="foreignkey")
        batch_op.create_foreign_key(
            "fk_actions_table_shard",
            "tables",
            ["table_id", "shard"],
            ["id", "shard"],
            ondelete="CASCADE",
            onupdate="CASCADE",
        )


def downgrade() -> None:
    with op.batch_alter_table("actions", schema=None) as batch_op:
        batch_op.drop_constraint("fk_actions_table_shard", type_="foreignkey")
        batch_op.create_foreign_key(
            _old_foreign_key(),
            "tables",
            ["table_id"],
            ["id"],
            ondelete="CASCADE",
        )
        batch_op.drop_column("shard")
        batch_op.create_index("ix_actions_table_id", ["table_id"], unique=False)

    with op.batch_alter_table("tables", schema=None) as batch_op:
        batch_op.drop_constraint("uq_table_shard", type_="unique")
        batch_op.drop_column("shard")
