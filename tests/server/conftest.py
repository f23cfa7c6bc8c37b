"""Fixtures for the server tests: a real SQLite file in a temp dir, and a scripted reader.

The scripted reader decodes uploads with the real :func:`vision.decode_image` (so every limit on
bad images is the production one) and answers each photo with the :class:`Reading` the test gave
for it: that lets a test say "this photo shows 2 5 5 5 5 2" without depending on the vision
model's accuracy, and swap the model version to check a re-read.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np
import pytest
from fastapi.testclient import TestClient

import vision
from server.app import create_app
from vision.reading import Die, Reading


def photo_of(
    faces: list[int], *, seed: int = 0, size: tuple[int, int] = (640, 480), ext: str = ".jpg"
) -> bytes:
    """A synthetic photo: a green table with a white square per die and its pips drawn."""
    w, h = size
    rng = np.random.default_rng(seed)
    img = np.zeros((h, w, 3), np.uint8)
    img[:] = (40, 110, 40)
    img += rng.integers(0, 20, img.shape, dtype=np.uint8)
    for i, (x, y, s) in enumerate(boxes_for(len(faces), size)):
        cv2.rectangle(img, (x, y), (x + s, y + s), (235, 235, 235), -1)
        for px, py in _PIPS[faces[i]]:
            cv2.circle(img, (x + int(px * s), y + int(py * s)), max(2, s // 10), (20, 20, 20), -1)
    ok, buf = cv2.imencode(ext, img)
    assert ok
    return buf.tobytes()


_PIPS = {
    1: [(0.5, 0.5)],
    2: [(0.25, 0.25), (0.75, 0.75)],
    3: [(0.25, 0.25), (0.5, 0.5), (0.75, 0.75)],
    4: [(0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75)],
    5: [(0.25, 0.25), (0.75, 0.25), (0.5, 0.5), (0.25, 0.75), (0.75, 0.75)],
    6: [(0.25, 0.25), (0.75, 0.25), (0.25, 0.5), (0.75, 0.5), (0.25, 0.75), (0.75, 0.75)],
}


def boxes_for(n: int, size: tuple[int, int] = (640, 480)) -> list[tuple[int, int, int]]:
    w, h = size
    s = w // 10
    return [(s // 2 + i * (s + s // 2), h // 2 - s // 2, s) for i in range(n)]


def reading_of(
    faces: list[int | None],
    flags: dict[int, tuple[str, ...]] | None = None,
    *,
    version: str = "test-model-1",
    size: tuple[int, int] = (640, 480),
) -> Reading:
    flags = flags or {}
    dice = []
    for i, (x, y, s) in enumerate(boxes_for(len(faces), size)):
        f = flags.get(i, ())
        conf = 0.55 if "uncertain" in f else 0.97
        dice.append(Die(faces[i], conf, (x, y, s, s), (x + s / 2, y + s / 2), f))
    return Reading(size[0], size[1], tuple(dice), ms=3.0, model_version=version)


def image_key(image: np.ndarray) -> str:
    return hashlib.sha256(np.ascontiguousarray(image).tobytes()).hexdigest()


class ScriptedReader:
    """Reads each photo as the test said it shows (keyed by the decoded image)."""

    def __init__(self, version: str = "test-model-1") -> None:
        self._version = version
        self.script: dict[str, Reading] = {}
        self.calls = 0

    @property
    def version(self) -> str:
        return self._version

    def decode(self, data: bytes) -> np.ndarray:
        return vision.decode_image(data)

    def shows(self, data: bytes, reading: Reading) -> bytes:
        """Script: the photo ``data`` reads as ``reading``; returns ``data``."""
        self.script[image_key(vision.decode_image(data))] = reading
        return data

    def read(self, image: np.ndarray) -> Reading:
        self.calls += 1
        return self.script[image_key(image)]


SAMPLES = Path(__file__).resolve().parents[2] / "sample_images"


def labelled_reading(name: str, version: str = "labels") -> Reading:
    """The reading a sample photo's hand-checked label gives (``sample_images/NAME.json``)."""
    import json

    label = json.loads((SAMPLES / f"{name}.json").read_text())
    dice = tuple(
        Die(
            d["value"],
            1.0,
            tuple(d["box"]),
            (d["box"][0] + d["box"][2] / 2, d["box"][1] + d["box"][3] / 2),
        )
        for d in label["dice"]
    )
    return Reading(label["width"], label["height"], dice, model_version=version)


@pytest.fixture
def reader() -> ScriptedReader:
    return ScriptedReader()


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "games.db"


@pytest.fixture
def client(db: Path, reader: ScriptedReader) -> Iterator[TestClient]:
    with TestClient(create_app(db, reader=reader)) as c:
        yield c


def new_game(
    client: TestClient, players=("Alf", "Bee"), preset="keeling", **extra
) -> tuple[str, dict]:
    r = client.post("/api/games", json={"preset": preset, "players": list(players), **extra})
    assert r.status_code == 201, r.text
    body = r.json()
    return body["id"], {"Authorization": f"Bearer {body['token']}"}
