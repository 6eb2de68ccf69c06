"""Tables, their seats and the actions applied to their matches.

Revision ID: 0001
Revises:
Create Date: 2026-11-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "trix_tables",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("rules", sa.Text, nullable=False),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("options", sa.Text, nullable=False),
        sa.Column("host_seat", sa.Integer, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True)),
        sa.Column("totals", sa.Text),
        sa.Column("winners", sa.Text),
        sa.Column("record", sa.Text),
    )
    op.create_index("ix_trix_tables_status", "trix_tables", ["status"])
    op.create_index("ix_trix_tables_finished_at", "trix_tables", ["finished_at"])
    op.create_table(
        "trix_seats",
        sa.Column("table_id", sa.String(16), sa.ForeignKey("trix_tables.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("bot_level", sa.String(16), nullable=False),
        sa.Column("token_hash", sa.String(64)),
    )
    op.create_table(
        "trix_actions",
        sa.Column("table_id", sa.String(16), sa.ForeignKey("trix_tables.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("idx", sa.Integer, primary_key=True),
        sa.Column("seat", sa.SmallInteger, nullable=False),
        sa.Column("action", sa.SmallInteger, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("trix_actions")
    op.drop_table("trix_seats")
    op.drop_index("ix_trix_tables_finished_at", "trix_tables")
    op.drop_index("ix_trix_tables_status", "trix_tables")
    op.drop_table("trix_tables")
