"""Alembic environment: the server passes its open connection in ``config.attributes["connection"]``."""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine

config = context.config
connection = config.attributes.get("connection")

if connection is None:  # `alembic -x url=...` from a shell, for developers
    url = context.get_x_argument(as_dictionary=True).get("url") or config.get_main_option("sqlalchemy.url")
    if not url:
        raise SystemExit("give the database: alembic -x url=sqlite:///path/to/opentrix.db upgrade head")
    with create_engine(url).begin() as conn:
        context.configure(connection=conn, target_metadata=None, render_as_batch=True)
        context.run_migrations()
else:
    context.configure(connection=connection, target_metadata=None, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()
