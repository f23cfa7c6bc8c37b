"""Shared by the live tests: the clip tool, labelled photos, and scenes built from them."""

from __future__ import annotations

import importlib.util
import json
import sys
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def load_clips():
    """``tools/live_clips.py`` as a module."""
    if "live_clips" in sys.modules:
        return sys.modules["live_clips"]
    spec = importlib.util.spec_from_file_location("live_clips", ROOT / "tools" / "live_clips.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["live_clips"] = module
    spec.loader.exec_module(module)
    return module


def photos(n: int, min_dice: int = 3, max_dice: int = 6):
    """``n`` labelled photos with whole-die boxes and ``min_dice``-``max_dice`` dice (a throw's
    worth), none cocked or off the table, in a fixed order; the test is skipped when there are
    not enough."""
    clips = load_clips()
    found = [
        p
        for p in clips.sample_photos()
        if min_dice <= len(p.values) <= max_dice and p.boxes == "whole_die" and p.rethrow is False
    ]
    if len(found) < n:
        pytest.skip("not enough labelled photos with boxes (sample_images/ or nell-byler)")
    # spread the choice over the set, deterministically
    step = max(1, len(found) // n)
    return [found[i * step] for i in range(n)]


def api(server: str, method: str, path: str, body=None, token: str | None = None):
    """One JSON call to the app."""
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(server + path, method=method, data=data, headers=headers)
    with urllib.request.urlopen(req, timeout=10) as r:
        return json.loads(r.read())
