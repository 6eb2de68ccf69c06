"""``opentrix serve --ssl-certfile/--ssl-keyfile``: the tables over HTTPS and secure WebSockets.

The certificates are made by trustme (a throwaway certificate authority), so nothing here needs the
network or a real domain. The server is the real command in a process of its own.
"""

from __future__ import annotations

import asyncio
import os
import socket
import ssl
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import trustme
import websockets
from cryptography.hazmat.primitives import serialization

from test_server_kit import Player, ServeProcess, free_port


@pytest.fixture(scope="module")
def ca() -> trustme.CA:
    return trustme.CA()


@pytest.fixture(scope="module")
def pems(ca: trustme.CA, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A certificate for this machine and its key, another certificate's key, the key encrypted, and
    the certificate and key in one file, as a host might be given them."""
    d = tmp_path_factory.mktemp("pems")
    cert = ca.issue_cert("127.0.0.1", "localhost")
    other = ca.issue_cert("trix.example.org")
    paths = {name: d / f"{name}.pem" for name in ("cert", "key", "other_key", "encrypted_key", "both", "junk")}
    cert.cert_chain_pems[0].write_to_path(str(paths["cert"]))
    cert.private_key_pem.write_to_path(str(paths["key"]))
    other.private_key_pem.write_to_path(str(paths["other_key"]))
    key = serialization.load_pem_private_key(cert.private_key_pem.bytes(), None)
    paths["encrypted_key"].write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.BestAvailableEncryption(b"secret"),
        )
    )
    paths["both"].write_bytes(cert.private_key_and_cert_chain_pem.bytes())
    paths["junk"].write_text("not a certificate\n")
    # another kind of key: an EC certificate's, against this RSA certificate
    ec = trustme.CA(key_type=trustme.KeyType.ECDSA).issue_cert("127.0.0.1")
    paths["ec_key"] = d / "ec_key.pem"
    ec.private_key_pem.write_to_path(str(paths["ec_key"]))
    # a certificate issued by an intermediate authority: the chain file holds both, the server's first
    chained = ca.create_child_ca().issue_cert("127.0.0.1")
    paths["chain"], paths["chain_key"], paths["chain_backwards"] = (d / f"{n}.pem" for n in ("chain", "ck", "cb"))
    paths["chain"].write_bytes(b"".join(pem.bytes() for pem in chained.cert_chain_pems))
    paths["chain_backwards"].write_bytes(b"".join(pem.bytes() for pem in reversed(chained.cert_chain_pems)))
    chained.private_key_pem.write_to_path(str(paths["chain_key"]))
    return paths


@pytest.fixture
def client_context(ca: trustme.CA) -> ssl.SSLContext:
    ctx = ssl.create_default_context()
    ca.configure_trust(ctx)
    return ctx


@pytest.fixture
def served(pems: dict[str, Path], tmp_path: Path, client_context: ssl.SSLContext) -> Iterator[ServeProcess]:
    proc = ServeProcess(
        str(tmp_path / "t.db"),
        free_port(),
        "--ssl-certfile",
        str(pems["cert"]),
        "--ssl-keyfile",
        str(pems["key"]),
        verify=client_context,
    )
    try:
        yield proc
    finally:
        proc.stop()


def test_the_tables_are_served_over_https_and_played_over_secure_websockets(
    served: ServeProcess, client_context: ssl.SSLContext
) -> None:
    assert served.base.startswith("https://") and served.ws_base.startswith("wss://")
    with httpx.Client(verify=client_context) as http:
        page = http.get(f"{served.base}/")
        assert page.status_code == 200 and "opentrix" in page.text.lower()
        t = http.post(f"{served.base}/api/tables", json={"name": "Lina", "bots": ["random"] * 3, "start": True})
        assert t.status_code == 200, t.text
        table = t.json()

    async def sit_and_play() -> None:
        me = await Player.join(served.ws_base, table["id"], table["token"], tls=client_context)
        await me.until(lambda m: m["type"] == "update")
        assert me.seat == 0 and len(me.view["hand"]) == 13  # type: ignore[index]
        await me.close()

    asyncio.run(sit_and_play())


def test_plain_http_is_not_answered_on_the_secure_port(served: ServeProcess) -> None:
    with pytest.raises(httpx.HTTPError):
        httpx.get(f"http://127.0.0.1:{served.port}/api/health", timeout=3)


def test_a_client_that_does_not_trust_the_certificate_is_refused(served: ServeProcess) -> None:
    """The server's certificate is checked as any browser would check it: an unknown authority fails."""
    with pytest.raises(httpx.ConnectError):
        httpx.get(f"{served.base}/api/health", timeout=3)

    async def connect() -> None:
        await websockets.connect(f"{served.ws_base}/ws/ABCDEF", ssl=ssl.create_default_context())

    with pytest.raises(ssl.SSLCertVerificationError):
        asyncio.run(connect())


def test_the_certificate_and_key_in_one_file_need_no_keyfile(
    pems: dict[str, Path], tmp_path: Path, client_context: ssl.SSLContext
) -> None:
    proc = ServeProcess(str(tmp_path / "t.db"), free_port(), "--ssl-certfile", str(pems["both"]), verify=client_context)
    try:
        assert httpx.get(f"{proc.base}/api/health", verify=client_context).status_code == 200
    finally:
        out = proc.stop()
    assert f"open https://127.0.0.1:{proc.port}/" in out


def test_a_chain_file_is_served_whole(pems: dict[str, Path], tmp_path: Path, ca: trustme.CA) -> None:
    """A certificate from an intermediate authority comes with it in one file (as Let's Encrypt's
    fullchain.pem does): a client that trusts only the root still trusts the server."""
    trusting = ssl.create_default_context()
    ca.configure_trust(trusting)
    proc = ServeProcess(
        str(tmp_path / "t.db"),
        free_port(),
        "--ssl-certfile",
        str(pems["chain"]),
        "--ssl-keyfile",
        str(pems["chain_key"]),
        verify=trusting,
    )
    try:
        assert httpx.get(f"{proc.base}/api/health", verify=trusting).json()["ok"]
    finally:
        out = proc.stop()
    assert "--public-url https://NAME:PORT" in out  # the address it prints names no certificate's name


def served_certificate(port: int, trusting: ssl.SSLContext) -> bytes:
    """The certificate a new connection is shown (DER), checked against the authority as a browser would."""
    with (
        socket.create_connection(("127.0.0.1", port), timeout=10) as raw,
        trusting.wrap_socket(raw, server_hostname="127.0.0.1") as tls,
    ):
        der = tls.getpeercert(binary_form=True)
    assert der is not None
    return der


def test_a_renewed_certificate_is_served_without_a_restart(
    ca: trustme.CA, tmp_path: Path, client_context: ssl.SSLContext
) -> None:
    """certbot renews a certificate in place: the server takes the new one up within --ssl-check-every
    seconds, for every new connection, with its tables still open, even when the new one has another
    kind of key (an EC certificate renewed as RSA: loaded into the same context, a client preferring
    EC would still be shown the old one). A renewal caught halfway (certbot writes the key first, so
    the new key beside the old certificate) is refused aloud and the old certificate kept; the
    certificate that follows completes it."""
    old, new = ca.issue_cert("127.0.0.1"), ca.issue_cert("127.0.0.1", key_type=trustme.KeyType.RSA)
    assert b"EC PRIVATE KEY" in old.private_key_pem.bytes() and b"RSA PRIVATE KEY" in new.private_key_pem.bytes()
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"

    def put(path: Path, pem: trustme.Blob) -> None:  # as certbot does: a new file moved into place
        pem.write_to_path(str(path.with_suffix(".new")))
        os.replace(path.with_suffix(".new"), path)

    put(cert, old.cert_chain_pems[0])
    put(key, old.private_key_pem)
    der = {n: ssl.PEM_cert_to_DER_cert(c.cert_chain_pems[0].bytes().decode()) for n, c in (("old", old), ("new", new))}
    cmd = ("--ssl-certfile", str(cert), "--ssl-keyfile", str(key), "--ssl-check-every", "0.2")
    proc = ServeProcess(str(tmp_path / "t.db"), free_port(), *cmd, verify=client_context)
    try:
        table = httpx.post(
            f"{proc.base}/api/tables", json={"name": "Lina", "bots": ["random"] * 3}, verify=client_context
        ).json()
        assert served_certificate(proc.port, client_context) == der["old"]
        put(key, new.private_key_pem)  # halfway: the certificate is still the old one
        at = proc.said("cannot be used")
        assert "is not the key of the certificate" in proc.lines[at] and "the previous one is kept" in proc.lines[at]
        assert served_certificate(proc.port, client_context) == der["old"]
        put(cert, new.cert_chain_pems[0])
        proc.said("serving the renewed certificate", after=at)
        assert served_certificate(proc.port, client_context) == der["new"]
        prefers_ec = ssl.create_default_context()
        ca.configure_trust(prefers_ec)
        prefers_ec.set_ciphers("ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-RSA-AES128-GCM-SHA256")
        prefers_ec.maximum_version = ssl.TLSVersion.TLSv1_2  # so that the cipher list names the key kind
        assert served_certificate(proc.port, prefers_ec) == der["new"]
        health = httpx.get(f"{proc.base}/api/tables/{table['id']}", verify=client_context)
        assert health.status_code == 200  # the table made before the renewal is still there
    finally:
        proc.stop()


def test_the_check_interval_is_checked(tmp_path: Path) -> None:
    code, out = refused(["--ssl-check-every", "0"], tmp_path)
    flat = " ".join(out.replace("│", " ").split())  # as Rich wrapped it in its box
    assert code == 2 and "Invalid value for --ssl-check-every: give a number of seconds from 0.1 to 86400" in flat


def refused(args: list[str], tmp_path: Path) -> tuple[int, str]:
    """Run ``opentrix serve`` with a bad certificate option; it must stop before touching the store."""
    db = tmp_path / "never.db"
    cmd = [sys.executable, "-m", "opentrix.cli", "serve", "--port", str(free_port()), "--database", str(db), *args]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    assert not db.exists(), "a refused start created the database"
    assert not done.stdout, done.stdout
    return done.returncode, done.stderr


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--ssl-keyfile", "{key}"], "--ssl-keyfile needs --ssl-certfile"),
        (["--ssl-certfile", "{dir}/missing.pem", "--ssl-keyfile", "{key}"], "cannot read the certificate"),
        (["--ssl-certfile", "{cert}", "--ssl-keyfile", "{dir}/missing.pem"], "cannot read the key"),
        (["--ssl-certfile", "{junk}", "--ssl-keyfile", "{key}"], "holds no PEM certificate"),
        (["--ssl-certfile", "{key}", "--ssl-keyfile", "{cert}"], "holds no PEM certificate"),
        (["--ssl-certfile", "{cert}", "--ssl-keyfile", "{junk}"], "holds no PEM private key"),
        (["--ssl-certfile", "{cert}"], "holds no PEM private key"),
        (["--ssl-certfile", "{cert}", "--ssl-keyfile", "{other_key}"], "is not the key of the certificate"),
        (["--ssl-certfile", "{cert}", "--ssl-keyfile", "{encrypted_key}"], "is encrypted"),
        (["--ssl-certfile", "{dir}", "--ssl-keyfile", "{key}"], "cannot read the certificate"),
        (["--ssl-certfile", "{cert}", "--ssl-keyfile", "{ec_key}"], "is not the key of the certificate"),
        (
            ["--ssl-certfile", "{chain_backwards}", "--ssl-keyfile", "{chain_key}"],
            "the server's own certificate comes first",
        ),
    ],
)
def test_a_bad_certificate_or_key_is_one_clear_line(
    pems: dict[str, Path], tmp_path: Path, args: list[str], says: str
) -> None:
    names = {name: str(path) for name, path in pems.items()} | {"dir": str(tmp_path)}
    code, out = refused([a.format(**names) for a in args], tmp_path)
    assert code == 1
    assert out.startswith("opentrix: ") and out.count("\n") == 1 and says in out, out


@pytest.mark.browser
def test_the_web_table_plays_over_https_in_chromium(served: ServeProcess, client_context: ssl.SSLContext) -> None:
    """The page opens its WebSocket as wss:// when it was served over HTTPS (ws:// would be blocked as
    mixed content), so a card can be played there."""
    from playwright.sync_api import sync_playwright

    from test_web_table import CHROMIUM, CHROMIUM_ARGS, DESKTOP, hand_cards, king_seed, play_until

    r = httpx.post(
        f"{served.base}/api/tables",
        json={"name": "Lina", "bots": "random", "start": True, "seed": king_seed(0)},
        verify=client_context,
    )
    assert r.status_code == 200, r.text
    t = r.json()
    errors: list[str] = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            # The throwaway authority is not in Chromium's store; the test trusts it as a host's friends
            # trust a real one.
            page = browser.new_context(**DESKTOP, ignore_https_errors=True, bypass_csp=True).new_page()
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.set_default_timeout(15000)
            page.goto(f"{served.base}/t/{t['id']}#seat=0&token={t['token']}")
            assert page.evaluate("location.protocol") == "https:"
            page.wait_for_selector("#contract-dialog")  # the king chooses Queens, then plays a card
            play_until(page, lambda: len(hand_cards(page)) < 13)
        finally:
            browser.close()
    assert not errors, errors
