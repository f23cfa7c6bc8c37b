"""Scorer tokens: who may write to a game.

Creating a game returns a random token (256 bits from :mod:`secrets`). Only its SHA-256 is
stored. Every write sends it as ``Authorization: Bearer <token>``; it is compared in constant
time and never logged (it never travels in a URL the server sees: the scorer's page link carries
it in the fragment). Everyone else reads.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

from fastapi import Request

from server.errors import Forbidden, NotAuthenticated

#: bytes of randomness in a token (the issue asks for at least 128 bits)
TOKEN_BYTES = 32


def random_word(nbytes: int) -> str:
    """``nbytes`` random bytes, URL-safe base64, never starting with ``-``.

    Ids and tokens are typed on command lines (``zilch watch --game ID --token T``), where a
    leading ``-`` reads as an option. About 1 draw in 64 starts with one; it is drawn again,
    which costs log2(64/63) of a bit.
    """
    while True:
        word = secrets.token_urlsafe(nbytes)
        if not word.startswith("-"):
            return word


def new_token() -> str:
    return random_word(TOKEN_BYTES)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def token_matches(token: str, stored_hash: str) -> bool:
    """Constant-time comparison of the token's hash with the stored one."""
    return hmac.compare_digest(token_hash(token), stored_hash)


def bearer_token(request: Request) -> str:
    """The token sent with the request; :class:`NotAuthenticated` when there is none."""
    header = request.headers.get("authorization", "")
    scheme, _, value = header.partition(" ")
    if scheme.lower() != "bearer" or not value.strip():
        raise NotAuthenticated("this needs the game's scorer token (Authorization: Bearer ...)")
    return value.strip()


def check_scorer(request: Request, stored_hash: str) -> None:
    if not token_matches(bearer_token(request), stored_hash):
        raise Forbidden("that is not this game's scorer token: viewers can only watch")
