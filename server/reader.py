"""The photo reader the server uses, as a FastAPI dependency.

Production reads with :func:`vision.read`, and decodes uploads with :func:`vision.decode_image`
(which refuses empty, truncated, non-image and over-50-megapixel input). Tests and tools swap the
reader (``app.dependency_overrides[get_reader]``, or ``create_app(reader=...)``), for instance to
check that a photo re-read after a model change shows what changed.
"""

from __future__ import annotations

import importlib
import logging
from dataclasses import replace
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
    """The production reader: :func:`vision.decode_image` and :func:`vision.read`.

    A photo showing the four corner markers of ``zilch markers`` is read in the area they mark
    (:mod:`vision.markers`); otherwise the reader finds the area itself. Either way no die is
    looked for on a corner marker in view."""

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
        from vision.markers import read_marked

        reading, marked = read_marked(image, read=read)
        if marked.problem and marked.centres:
            log.info("corner markers: %s; the playing area is found automatically", marked.problem)
        return replace(reading, model_version=reading.model_version or self.version)


def get_reader(request: Request) -> Reader:
    """The app's reader (set by :func:`server.app.create_app`)."""
    return request.app.state.reader
