"""The store seen from the event loop: one worker thread, and actions written in group commits.

Every accepted action must be stored before anyone hears of it. Owner tasks of many tables append
at once, so appends that arrive while a write is in flight are gathered and committed together in
the next transaction: one commit per batch instead of one per action, and no table waits on another
for longer than a single commit.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from .storage import Storage, StorageError

T = TypeVar("T")


def _failure(e: BaseException) -> StorageError:
    """The store's failure as each waiting table's own error (one shared object would tangle their
    tracebacks), its cause kept."""
    error = StorageError(str(e))
    error.__cause__ = e
    return error


def _settle(batch: list[tuple[tuple[str, int, int, int], asyncio.Future[None]]]) -> None:
    for _, fut in batch:
        if not fut.done():
            fut.set_result(None)


class AsyncStore:
    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="opentrix-store")
        self._pending: list[tuple[tuple[str, int, int, int], asyncio.Future[None]]] = []
        self._flusher: asyncio.Task[None] | None = None

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """Run a storage call on the store's thread."""
        return await asyncio.get_running_loop().run_in_executor(self._executor, fn, *args)

    async def append(self, table_id: str, idx: int, seat: int, action: int) -> None:
        """Store one applied action; returns once it is committed."""
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._pending.append(((table_id, idx, seat, action), fut))
        if self._flusher is None or self._flusher.done():
            self._flusher = asyncio.create_task(self._flush())
        await fut

    async def _flush(self) -> None:
        while self._pending:
            batch, self._pending = self._pending, []
            rows = [row for row, _ in batch]
            try:
                await self.run(self.storage.append_actions, rows)
            except Exception as e:
                refused = e
                if not isinstance(e, StorageError):
                    # The store itself failed (locked past its timeout, a dropped connection): the whole
                    # batch is tried once more, then every row told at once; row by row, each would
                    # have waited the same timeout again.
                    try:
                        await self.run(self.storage.append_actions, rows)
                    except Exception as again:
                        refused = again
                    else:
                        _settle(batch)
                        continue
                    if not isinstance(refused, StorageError):
                        for _, fut in batch:
                            if not fut.done():
                                fut.set_exception(_failure(refused))
                        continue
                if len(batch) == 1:
                    if not batch[0][1].done():
                        batch[0][1].set_exception(refused)
                    continue
                # The store refused a row (an index taken, a table another server took over): one bad
                # row must not sink the others, so they are tried one by one.
                for row, fut in batch:
                    try:
                        await self.run(self.storage.append_actions, [row])
                    except Exception as one:
                        if not fut.done():
                            fut.set_exception(one if isinstance(one, StorageError) else _failure(one))
                    else:
                        if not fut.done():
                            fut.set_result(None)
                continue
            _settle(batch)

    async def drain(self) -> None:
        """Wait until every action handed to ``append`` so far is committed (or refused)."""
        while self._flusher is not None and not self._flusher.done():
            await asyncio.gather(self._flusher, return_exceptions=True)

    async def close(self) -> None:
        if self._flusher is not None:
            await asyncio.gather(self._flusher, return_exceptions=True)
        await self.run(self.storage.close)
        self._executor.shutdown(wait=True)
