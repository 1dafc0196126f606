"""${message}

Revision ID: ${up_revision}
Revises: ${down_revision | comma,n}
Create Date: ${create_date}
"""

# This migration runs in one transaction, DDL included, on SQLite as on
# PostgreSQL (migrations/env.py): if it fails or the process is killed, the
# database stays as it was before it and the next start runs it again.  So:
# - keep schema and data changes of one step in this one file;
# - on SQLite, foreign keys are OFF while migrating (batch mode rebuilds
#   tables) and PRAGMA foreign_key_check runs before the commit; do not
#   change PRAGMAs here;
# - a PostgreSQL statement that cannot run in a transaction (CREATE INDEX
#   CONCURRENTLY) needs ``with op.get_context().autocommit_block():`` and is
#   then not undone by a failure.

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
% if imports:
${imports}
% endif

revision = ${repr(up_revision).replace("'", '"')}
down_revision = ${repr(down_revision).replace("'", '"')}
branch_labels = ${repr(branch_labels).replace("'", '"')}
depends_on = ${repr(depends_on).replace("'", '"')}


def upgrade() -> None:
    ${upgrades if upgrades else "pass"}


def downgrade() -> None:
    ${downgrades if downgrades else "pass"}
