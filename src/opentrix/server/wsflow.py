"""WebSocket connections that stop reading from a client that does not read what it is sent.

Uvicorn answers a client's PING frames itself, below the app, writing each PONG into the socket's
buffer whether or not the client ever reads it: a client sending pings as fast as it can, and reading
nothing, grew the server by hundreds of megabytes a minute, without a table code (the app never sees
those frames, so its own limits on messages cannot). The standard answer is back-pressure: once the
buffer of what a connection has still to send passes its high-water mark, read nothing more from it
until the buffer drains. The client's pings then wait in its own socket, as its messages already do.
"""

from __future__ import annotations

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol


class BackPressuredWebSockets(WebSocketsSansIOProtocol):
    """Uvicorn's WebSocket protocol, reading nothing more while its write buffer is full."""

    def pause_writing(self) -> None:
        super().pause_writing()
        self.transport.pause_reading()

    def resume_writing(self) -> None:
        super().resume_writing()
        if not self.read_paused:  # uvicorn's own pause (a message the app has not taken yet) stays
            self.transport.resume_reading()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        # Uvicorn resumes reading when the app takes a message; while the buffer is still full, each
        # chunk read then is the last until it drains.
        if not self.writable.is_set() and not self.transport.is_closing():
            self.transport.pause_reading()
