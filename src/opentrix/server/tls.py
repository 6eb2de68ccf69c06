"""The server's certificate: checked before it starts, and taken up again when it is renewed.

A certificate from Let's Encrypt lives 90 days and is renewed in place (certbot rewrites the files
behind ``/etc/letsencrypt/live/NAME/``). A server that runs for months must not go on showing the old
one until it expires, nor stop its tables to take the new one: it looks at the files now and then and,
when they changed and hold a usable certificate and key, serves them to every connection from then on
(those open keep theirs).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import ssl
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

CHECK_EVERY = 60.0  # seconds between looks at the files: a stat or two, nothing read unless they changed


class TlsError(ValueError):
    """A certificate or key the server cannot use, said in one line naming the file and why."""


class Tls(NamedTuple):
    """The certificate (with its chain) and private key the server answers HTTPS and wss:// with."""

    certfile: str
    keyfile: str | None  # None: the key is in the certificate's file


def _pem(path: Path, what: str, option: str) -> str:
    try:
        return path.read_text(encoding="ascii", errors="replace")
    except OSError as e:
        raise TlsError(f"cannot read the {what} {str(path)!r} ({option}): {e.strerror or e}") from None


def check(certfile: Path | None, keyfile: Path | None) -> Tls | None:
    """Read the certificate and key as the server will, so that a wrong file is one line saying which
    and why, not OpenSSL's "PEM lib" from inside uvicorn. An encrypted key is refused: OpenSSL would stop
    the server to ask for its passphrase on the terminal. None: no certificate, plain HTTP."""
    if certfile is None:
        if keyfile is not None:
            raise TlsError("--ssl-keyfile needs --ssl-certfile, the certificate the key belongs to")
        return None
    load_into(ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER), certfile, keyfile)
    return Tls(str(certfile), None if keyfile is None else str(keyfile))


def load_into(context: ssl.SSLContext, certfile: Path, keyfile: Path | None) -> None:
    """Check the files and load them into ``context``, a new one (a failed load can leave a context
    half changed, so a context in use is never given to this)."""
    cert_text = _pem(certfile, "certificate", "--ssl-certfile")
    key_path, key_option = (keyfile, "--ssl-keyfile") if keyfile is not None else (certfile, "--ssl-certfile")
    key_text = cert_text if keyfile is None else _pem(keyfile, "key", "--ssl-keyfile")
    if "-----BEGIN CERTIFICATE-----" not in cert_text:
        raise TlsError(f"{str(certfile)!r} (--ssl-certfile) holds no PEM certificate (-----BEGIN CERTIFICATE-----)")
    if "ENCRYPTED" in key_text and "PRIVATE KEY" in key_text:
        raise TlsError(
            f"the key {str(key_path)!r} ({key_option}) is encrypted; give it unencrypted"
            " (openssl pkey -in KEY -out PLAIN-KEY asks for the passphrase once) and keep that file private"
        )
    if not re.search(r"-----BEGIN [A-Z ]*PRIVATE KEY-----", key_text):
        hint = "" if keyfile is not None else "; give the key with --ssl-keyfile"
        raise TlsError(f"{str(key_path)!r} ({key_option}) holds no PEM private key{hint}")
    try:
        context.load_cert_chain(certfile, keyfile)
    except ssl.SSLError as e:
        if e.reason in ("KEY_VALUES_MISMATCH", "NO_CERTIFICATE_ASSIGNED"):  # another key; another kind of key
            raise TlsError(
                f"{str(key_path)!r} is not the key of the certificate {str(certfile)!r}"
                " (in a chain file the server's own certificate comes first)"
            ) from None
        raise TlsError(
            f"cannot use the certificate {str(certfile)!r} with the key {str(key_path)!r}: {e.reason or e}"
        ) from None
    except OSError as e:
        raise TlsError(f"cannot use the certificate {str(certfile)!r}: {e.strerror or e}") from None


Signature = tuple[tuple[int, int, int, int] | None, ...]


def signature(tls: Tls) -> Signature:
    """What tells that the files changed: device, inode, modification time and size of each, through
    symlinks (certbot points ``live/`` at new files; ``cp -p`` keeps the time but not the inode)."""

    def stat(path: str | None) -> tuple[int, int, int, int] | None:
        if path is None:
            return None
        try:
            st = os.stat(path)
        except OSError:
            return None  # gone for a moment (being replaced): a later look sees it again
        return (st.st_dev, st.st_ino, st.st_mtime_ns, st.st_size)

    return (stat(tls.certfile), stat(tls.keyfile))


class Renewal:
    """Watches the certificate's files and serves a renewed certificate from then on.

    The live context is never changed (OpenSSL keeps a certificate per kind of key, so loading an RSA
    certificate into a context that held an EC one would leave both, and a load that fails halfway
    leaves it unusable): each renewal builds a context of its own with ``make``, and the live one's SNI
    callback, which OpenSSL calls in every handshake (with or without a name), hands the connection to
    the newest. A change is tried once: a key written before its certificate (certbot renews
    ``privkey`` first) fails the check, the old certificate stays, and the certificate's own change a
    moment later brings another try."""

    def __init__(
        self,
        tls: Tls,
        live: ssl.SSLContext,
        make: Callable[[], ssl.SSLContext],
        say: Callable[[str], None],
        every: float = CHECK_EVERY,
        seen: Signature | None = None,
    ) -> None:
        self.tls = tls
        self.live = live
        self.current = live
        self.make = make
        self.say = say
        self.every = every
        self._seen = signature(tls) if seen is None else seen
        live.sni_callback = self._choose

    def _choose(self, conn: ssl.SSLObject, name: str | None, context: ssl.SSLContext) -> None:
        if self.current is not self.live:
            conn.context = self.current

    def check(self) -> bool:
        """One look: True when a renewed certificate is served from now on."""
        now = signature(self.tls)
        if now == self._seen or None in now[: 1 if self.tls.keyfile is None else 2]:
            return False
        self._seen = now
        keyfile = None if self.tls.keyfile is None else Path(self.tls.keyfile)
        try:
            check(Path(self.tls.certfile), keyfile)
            fresh = self.make()  # reads the files again: a change in between fails here, not later
        except TlsError as e:
            reason = str(e)
        except (ssl.SSLError, OSError) as e:
            reason = f"cannot use them: {getattr(e, 'reason', None) or e}"
        else:
            self.current = fresh
            self.say(f"opentrix: serving the renewed certificate from {self.tls.certfile!r}")
            return True
        self.say(f"opentrix: the certificate's files changed but cannot be used ({reason}); the previous one is kept")
        return False

    async def run(self) -> None:
        """Look every ``every`` seconds until cancelled; whatever goes wrong in one look is said, and
        the looking goes on (a certificate left to expire would close the tables to everybody)."""
        while True:
            await asyncio.sleep(self.every)
            try:
                self.check()
            except Exception as e:  # said, and the next look may succeed
                with contextlib.suppress(Exception):
                    self.say(f"opentrix: looking for a renewed certificate failed: {e!r}")
