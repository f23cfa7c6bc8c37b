"""What every browser test and screenshot tool shares: Debian's Chromium, the flags it needs on
this closed network, and a way to serve the app on a free loopback port."""

from __future__ import annotations

import contextlib
import socket
import threading
import time

#: Debian's chromium, which playwright drives (it never downloads a browser of its own)
CHROMIUM = "/usr/bin/chromium"
#: headless as root, and no background connections (this machine's network refuses them)
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
#: a fake camera, allowed without a prompt; add --use-file-for-fake-video-capture=CLIP.y4m
FAKE_CAMERA_ARGS = ["--use-fake-ui-for-media-stream", "--use-fake-device-for-media-stream"]


@contextlib.contextmanager
def serving(app):
    """Run an ASGI app under uvicorn on a free local port, in a thread; yield its URL."""
    import uvicorn

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    srv = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    deadline = time.time() + 20
    while not srv.started and time.time() < deadline:
        time.sleep(0.05)
    assert srv.started, "uvicorn did not start"
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        srv.should_exit = True
        thread.join(10)
