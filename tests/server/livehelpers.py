"""Starting a server process on a free loopback port, and waiting for it."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

import vision
from tests.server.conftest import image_key

ROOT = Path(os.path.abspath(__file__)).parents[2]  # (not resolved: a checkout may be symlinked)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def script(path: Path, photos: dict[bytes, list[int]]) -> None:
    """Write the scripted reader's table: each photo reads as its faces."""
    table = json.loads(path.read_text()) if path.exists() else {}
    for data, faces in photos.items():
        table[image_key(vision.decode_image(data))] = {"faces": faces}
    path.write_text(json.dumps(table))


class ServerProcess:
    """``python -m tests.server.scripted_server`` (or any command) as a child process."""

    def __init__(self, db: Path, script_path: Path, port: int | None = None) -> None:
        self.port = port or free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "tests.server.scripted_server", "--db", str(db),
             "--port", str(self.port), "--script", str(script_path)],
            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        )
        wait_up(self.base, self.proc)

    def kill9(self) -> None:
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(timeout=10)
        self.proc.stdout.close()
        self.proc.stderr.close()

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill9()
                return
        self.proc.stdout.close()
        self.proc.stderr.close()


def wait_up(base: str, proc: subprocess.Popen, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"the server exited: {proc.stderr.read().decode()[-2000:]}")
        try:
            if httpx.get(base + "/api/health", timeout=1).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    raise RuntimeError("the server did not come up")
