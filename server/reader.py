"""The photo reader the server uses, as a FastAPI dependency.

Production reads with :func:`vision.read`, and decodes uploads with :func:`vision.decode_image`
(which refuses empty, truncated, non-image and over-50-megapixel input). Tests and tools swap the
reader (``app.dependency_overrides[get_reader]``, or ``create_app(reader=...)``), for instance to
check that a photo re-read after a model change shows what changed.
"""

from __future__ import annotations

import importlib
import logging
from typing import Protocol

import numpy as np
from fastapi import Request

from vision.reading import Reading

log = logging.getLogger(__name__)


class ReaderUnavailable(RuntimeError):
    """This installation cannot read photos (the vision model is missing)."""


class Reader(Protocol):
    """Reads dice from a decoded photo. ``version`` names the model, for the dispute record."""

    @property
    def version(self) -> str: ...

    def decode(self, data: bytes) -> np.ndarray:
        """The photo as a BGR array; raises :class:`vision.UnreadableImage`."""
        ...

    def read(self, image: np.ndarray) -> Reading: ...


class VisionReader:
    """The production reader: :func:`vision.decode_image` and :func:`vision.read`."""

    def __init__(self) -> None:
        self._vision = importlib.import_module("vision")

    @property
    def version(self) -> str:
        """The shipped model's version (``untrained`` when no model file is installed)."""
        from vision.model import default_model

        model = default_model()
        return (model.version or "unversioned") if model is not None else "untrained"

    def decode(self, data: bytes) -> np.ndarray:
        return self._vision.decode_image(data)

    def read(self, image: np.ndarray) -> Reading:
        read = getattr(self._vision, "read", None)
        if read is None:
            raise ReaderUnavailable(
                "this installation cannot read photos yet: type the dice by tapping their faces"
            )
        reading = read(image)
        if not reading.model_version:
            from dataclasses import replace

            reading = replace(reading, model_version=self.version)
        return reading


def get_reader(request: Request) -> Reader:
    """The app's reader (set by :func:`server.app.create_app`)."""
    return request.app.state.reader
