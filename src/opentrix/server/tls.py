"""The server's certificate: checked before it starts, and taken up again when it is renewed.

A certificate from Let's Encrypt lives 90 days and is renewed in place (certbot rewrites the files
behind ``/etc/letsencrypt/live/NAME/``). A server that runs for months must not go on showing the old
one until it expires, nor stop its tables to take the new one: it looks at the files now and then and,
when they changed and hold a usable certificate and key, loads them into the TLS context it serves
with, so that every connection from then on gets the new certificate (those open keep theirs).
"""

from __future__ import annotations

import asyncio
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
    """Check the files and load them into ``context`` (a context in use serves them to every handshake
    from then on); on a TlsError the context keeps what it had."""
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
    # Tried on a context of its own first: a failed load_cert_chain can leave a context half changed.
    for target in (ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER), context):
        try:
            target.load_cert_chain(certfile, keyfile)
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


class Renewal:
    """Watches the certificate's files and loads a renewed certificate into the live context.

    The files are compared by size and modification time (through symlinks, as certbot keeps them);
    a change is tried once: a certificate written before its key (a renewal caught halfway) fails the
    check, the old certificate stays, and the key's own change a moment later brings another try."""

    def __init__(
        self, tls: Tls, context: ssl.SSLContext, say: Callable[[str], None], every: float = CHECK_EVERY
    ) -> None:
        self.tls = tls
        self.context = context
        self.say = say
        self.every = every
        self._seen = self._signature()

    def _signature(self) -> tuple[tuple[int, int] | None, ...]:
        def stat(path: str | None) -> tuple[int, int] | None:
            if path is None:
                return None
            try:
                st = os.stat(path)
            except OSError:
                return None  # gone for a moment (being replaced): the next look sees it again
            return (st.st_mtime_ns, st.st_size)

        return (stat(self.tls.certfile), stat(self.tls.keyfile))

    def check(self) -> bool:
        """One look: True when a renewed certificate was loaded."""
        now = self._signature()
        if now == self._seen or None in now[: 1 if self.tls.keyfile is None else 2]:
            return False
        self._seen = now
        keyfile = None if self.tls.keyfile is None else Path(self.tls.keyfile)
        try:
            load_into(self.context, Path(self.tls.certfile), keyfile)
        except TlsError as e:
            self.say(f"opentrix: the certificate's files changed but cannot be used ({e}); the previous one is kept")
            return False
        self.say(f"opentrix: serving the renewed certificate from {self.tls.certfile!r}")
        return True

    async def run(self) -> None:
        while True:
            await asyncio.sleep(self.every)
            self.check()
