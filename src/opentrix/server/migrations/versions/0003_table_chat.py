"""The chat of a table whose match is on, so that a restart or a table put away does not lose it.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "trix_chat",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("table_id", sa.String(16), sa.ForeignKey("trix_tables.id", ondelete="CASCADE"), nullable=False),
        sa.Column("seat", sa.SmallInteger, nullable=False),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("at", sa.BigInteger, nullable=False),
    )
    op.create_index("trix_chat_table", "trix_chat", ["table_id", "id"])


def downgrade() -> None:
    op.drop_index("trix_chat_table", "trix_chat")
    op.drop_table("trix_chat")
