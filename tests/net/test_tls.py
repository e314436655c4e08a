"""``wss://``: a server with a certificate (``--certfile``, ``--keyfile``), and clients that
check it against the certificates they trust."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from tests.net.conftest import racetrack, start_server


@pytest.mark.skipif(shutil.which("openssl") is None, reason="no openssl to make a certificate")
def test_games_are_made_and_played_over_tls(home, tmp_path, ring, monkeypatch):
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                    "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
                    "-keyout", str(key), "-out", str(cert)], check=True, capture_output=True)
    server = start_server(home, str(tmp_path / "games.sqlite3"), 0, "--certfile", str(cert),
                          "--keyfile", str(key))
    try:
        assert server.url.startswith("wss://")
        url = f"wss://127.0.0.1:{server.port}"
        monkeypatch.setenv("SSL_CERT_FILE", str(cert))  # the clients trust this certificate
        made = racetrack(home, "online", "new", url, "--track", ring, "--seats", "1",
                         "--ai", "easy", "--json")
        assert made.returncode == 0, made.stderr
        monkeypatch.delenv("SSL_CERT_FILE")
        untrusted = racetrack(home, "online", "new", url, "--track", ring, "--json")
        assert untrusted.returncode == 1 and "certificate" in untrusted.stderr
        assert "Traceback" not in untrusted.stderr
    finally:
        server.stop()
