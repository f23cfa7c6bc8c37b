"""``zilch serve``: the scorekeeper web app on an embedded SQLite file."""

from __future__ import annotations

import argparse
import logging
import socket
import sys

from scorer.errors import ZilchError


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "serve",
        help="start the web app (the score sheet, photos of throws, dispute replay)",
        description="Start the scorekeeper web app. Open the address it prints; other players "
        "on the same network can open the page read-only. The camera of a phone needs HTTPS: "
        "give --ssl-certfile and --ssl-keyfile.",
    )
    p.add_argument(
        "--host",
        default="127.0.0.1",
        help="address to listen on (0.0.0.0 for phones on the same network)",
    )
    p.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    p.add_argument(
        "--db",
        metavar="FILE",
        help="the SQLite file (default $ZILCH_DB, else zilch.db here); photos go in "
        "FILE's folder, in <name>-photos/",
    )
    p.add_argument("--ssl-certfile", metavar="PEM", help="certificate for HTTPS")
    p.add_argument("--ssl-keyfile", metavar="PEM", help="private key for HTTPS")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    import uvicorn

    from server.app import create_app, db_path
    from server.store import StoreVersionError

    if bool(args.ssl_certfile) != bool(args.ssl_keyfile):
        raise ZilchError("give both --ssl-certfile and --ssl-keyfile, or neither")
    if not 0 < args.port < 65536:
        raise ZilchError(f"--port {args.port} is not a port number (1-65535)")
    path = db_path(args.db)
    try:
        app = create_app(path)
        # open the store once here, so that a bad file fails before the address is printed
        from server.sqlite_store import SQLiteStore

        SQLiteStore(path).close()
    except StoreVersionError as e:
        raise ZilchError(str(e)) from None
    scheme = "https" if args.ssl_certfile else "http"
    shown = args.host
    if args.host in ("0.0.0.0", "::"):
        shown = _lan_address() or "localhost"
    print(
        f"Zilch Scorer on {scheme}://{_host(shown)}:{args.port}/  (database {path.resolve()})",
        flush=True,
    )
    if args.host in ("0.0.0.0", "::"):
        print(f"  on this machine: {scheme}://localhost:{args.port}/", flush=True)
    uvicorn.run(
        app,
        host=args.host,
        port=args.port,
        ssl_certfile=args.ssl_certfile,
        ssl_keyfile=args.ssl_keyfile,
        log_level="info" if logging.getLogger().level <= logging.INFO else "warning",
        access_log=logging.getLogger().level <= logging.INFO,
    )
    return 0


def _host(host: str) -> str:
    return f"[{host}]" if ":" in host else host


def _lan_address() -> str | None:
    """This machine's address on the local network (no packet is sent)."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("192.0.2.1", 9))  # TEST-NET-1: routing only, nothing is sent
            return s.getsockname()[0]
    except OSError:
        return None


if __name__ == "__main__":  # pragma: no cover
    sys.exit(run(argparse.Namespace()))
