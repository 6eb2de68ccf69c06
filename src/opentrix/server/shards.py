"""Several servers behind one proxy, each playing its own share of the tables.

A table is played by one server process (its owner task applies the moves in order), so a proxy in
front of several must send every request about a table to the server that plays it. Here the table
code says which: server ``k`` of ``n`` (``opentrix serve --shard k/n``) makes, takes up and wakes only
the tables whose code starts with one of its characters, every ``n``-th of the code alphabet from the
``k``-th. A proxy routes by the code's first character, which needs no lookup and no shared state
(docs/server.md has an nginx configuration); the servers share the store, as any do.
"""

from __future__ import annotations

import re

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O or 1/I: codes are read aloud and typed
MAX_SHARDS = len(CODE_ALPHABET)  # each server keeps at least one first character

Shard = tuple[int, int]  # (k, n): server k of n, 0 <= k < n


def parse_shard(text: str) -> Shard:
    """``"0/2"`` -> ``(0, 2)``; a ValueError that says what is allowed otherwise."""
    m = re.fullmatch(r"\s*(\d+)\s*/\s*(\d+)\s*", text)
    if m is None:
        raise ValueError(f"give K/N (this server's number K, from 0, among N servers), such as 0/2, not {text!r}")
    k, n = int(m[1]), int(m[2])
    if not 1 <= n <= MAX_SHARDS:
        raise ValueError(f"N, the number of servers, must be from 1 to {MAX_SHARDS}, not {n}")
    if not 0 <= k < n:
        raise ValueError(f"K, this server's number, must be from 0 to {n - 1} among {n} servers, not {k}")
    return k, n


def first_characters(shard: Shard | None) -> str:
    """The characters the codes of ``shard``'s tables start with (every one for no shard)."""
    if shard is None:
        return CODE_ALPHABET
    k, n = shard
    return CODE_ALPHABET[k::n]


def owns(shard: Shard | None, code: str) -> bool:
    """Whether the table ``code`` (in any letter case, as typed in an address) is ``shard``'s."""
    return shard is None or code[:1].upper() in first_characters(shard)
