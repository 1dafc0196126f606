"""results.unrated: why a finished match was not rated

Revision ID: 0005_unrated_reason
Revises: 0004_tournaments
Create Date: 2026-11-27 21:30:00

``results.unrated`` holds the reason a match was not rated, decided when
the match finished (``bot.services.results.UNRATED``: ``no_server``,
``ai_seats``, ``board``); NULL for a rated match.  Rows written before this
migration keep NULL: ``/history`` then tells a rated row from an unrated
one by its rating change, as it did before.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005_unrated_reason"
down_revision = "0004_tournaments"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("results", schema=None) as batch_op:
        batch_op.add_column(sa.Column("unrated", sa.String(length=16), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("results", schema=None) as batch_op:
        batch_op.drop_column("unrated")
