"""Which server process holds each table, and until when (its lease).

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("trix_tables", sa.Column("owner", sa.String(64)))
    op.add_column("trix_tables", sa.Column("lease_until", sa.DateTime(timezone=True)))


def downgrade() -> None:
    with op.batch_alter_table("trix_tables") as batch:
        batch.drop_column("lease_until")
        batch.drop_column("owner")
