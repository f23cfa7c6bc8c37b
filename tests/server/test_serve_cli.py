"""``zilch serve``: it prints the address, serves the app on the --db file, refuses bad options."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time

import httpx
import pytest

from tests.server.livehelpers import ROOT, free_port, wait_up


def _env(tmp_path) -> dict:
    return {**os.environ, "PYTHONPATH": str(ROOT), "ZILCH_DB": str(tmp_path / "env.db")}


def test_serve_prints_its_address_and_serves(tmp_path):
    port = free_port()
    db = tmp_path / "here" / "table.db"
    proc = subprocess.Popen(
        [sys.executable, "-m", "cli", "serve", "--port", str(port), "--db", str(db)],
        cwd=tmp_path,
        env=_env(tmp_path),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        line = proc.stdout.readline()
        assert f"http://127.0.0.1:{port}/" in line and str(db) in line
        wait_up(f"http://127.0.0.1:{port}", proc)
        assert httpx.get(f"http://127.0.0.1:{port}/api/health").json()["ok"]
        assert "Zilch Scorer" in httpx.get(f"http://127.0.0.1:{port}/").text
        assert db.exists() and (tmp_path / "here" / "table-photos").is_dir()
        assert not (tmp_path / "env.db").exists()  # --db wins over ZILCH_DB
    finally:
        proc.terminate()
        proc.wait(timeout=10)
        proc.stdout.close()
        proc.stderr.close()


def test_zilch_db_and_the_default_file(tmp_path):
    from server.app import DEFAULT_DB, db_path

    assert str(db_path("x.db")) == "x.db"
    os.environ["ZILCH_DB"] = str(tmp_path / "env.db")
    try:
        assert db_path(None) == tmp_path / "env.db"
    finally:
        del os.environ["ZILCH_DB"]
    assert str(db_path(None)) == DEFAULT_DB == "zilch.db"


def test_bad_options_exit_2_with_one_line(tmp_path):
    for args in (["--ssl-certfile", "cert.pem"], ["--port", "0"], ["--port", "x"]):
        r = subprocess.run(
            [sys.executable, "-m", "cli", "serve", *args],
            cwd=tmp_path,
            env=_env(tmp_path),
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert r.returncode == 2, (args, r.stderr)
        assert r.stdout == "" and len(r.stderr.strip().splitlines()) == 1, r.stderr


@pytest.mark.skipif(shutil.which("openssl") is None, reason="needs openssl to make a certificate")
def test_serve_over_https_with_a_self_signed_certificate(tmp_path):
    """The README's recipe: a self-signed certificate, --ssl-certfile and --ssl-keyfile."""
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(
        [
            "openssl",
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-days",
            "1",
            "-subj",
            "/CN=zilch",
            "-addext",
            "subjectAltName=IP:127.0.0.1",
            "-keyout",
            str(key),
            "-out",
            str(cert),
        ],
        check=True,
        capture_output=True,
        timeout=60,
    )
    port = free_port()
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "cli",
            "serve",
            "--port",
            str(port),
            "--db",
            str(tmp_path / "tls.db"),
            "--ssl-certfile",
            str(cert),
            "--ssl-keyfile",
            str(key),
        ],
        cwd=tmp_path,
        env=_env(tmp_path),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert f"https://127.0.0.1:{port}/" in proc.stdout.readline()
        deadline = time.monotonic() + 30
        while True:
            try:
                r = httpx.get(f"https://127.0.0.1:{port}/api/health", verify=str(cert))
                break
            except httpx.HTTPError:
                assert proc.poll() is None and time.monotonic() < deadline, proc.stderr.read()
                time.sleep(0.1)
        assert r.json()["ok"]
    finally:
        proc.terminate()
        proc.wait(timeout=10)
        proc.stdout.close()
        proc.stderr.close()
