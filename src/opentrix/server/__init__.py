"""The web table: an ASGI app (FastAPI + WebSockets) with stored tables, bots and the browser client.

``create_app(Settings(...))`` builds the app; ``opentrix serve`` runs it under uvicorn.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fastapi import FastAPI

    from .settings import Settings


def create_app(settings: Settings | None = None) -> FastAPI:
    from .app import create_app as _create

    return _create(settings)


__all__ = ["create_app"]
