"""A third opinion on a face's value: a small convolutional network that reads a die-sized crop of
the photo's grey about the face's centre (``models/crops.onnx``, run by OpenCV's DNN module;
built by ``tools/train_crops.py``, which needs PyTorch; reading needs only OpenCV).

The network sees 7 classes: no die's top face centred in the crop (0), or a top face of 1-6. It
is trained on crops of the labelled dice of the licensed photo folders and of the training
renders, each crop :data:`SIDE` die sides wide, and on crops of no die (the table, other dice,
and crops half a die off one), turned, mirrored, inverted (light pips and dark) and jittered in
scale, light and blur.

In :func:`vision.pipeline.read` it vouches only for a face of 3-6 pips (:data:`VALUES`) that no
rule or guard refuses, that the die model keeps and that neither the gate nor the trees accept
(whatever p they give it), and only when it reads the same value as the layout at
:attr:`CropReader.accept` or more (``models/crops.json``: chosen leaving each licensed folder out
of its training in turn, and on kamilpiechowiak). It never refuses, never accepts a one or a two,
and never gives a value the layout did not.
"""

from __future__ import annotations

import json
import logging
import threading
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

log = logging.getLogger(__name__)

MODELS_DIR = Path(__file__).resolve().parent.parent / "models"
NET_FILE = MODELS_DIR / "crops.onnx"
META_FILE = MODELS_DIR / "crops.json"

#: A crop is cut this many pixels wide, then its middle :data:`INPUT` pixels are read (training
#: turns and shifts the full crop, so that no corner of the input is ever outside it).
CROP = 40
INPUT = 32
#: The crop's side in die sides (training: the labelled die's side).
SIDE = 1.6
#: A die's side in units of the longer side of its face's box (``FaceCandidate.box``: the
#: upright extent of the square fitted on the pips, up to 1.41 times the square's side when it is
#: turned 45 degrees). Measured on the licensed folders' accepted faces of 2-6 against their
#: labels' boxes (nell-byler's whole-die boxes 1.43, matteop65's top-face boxes 0.92); the
#: geometric mean, which the training's scale jitter (0.8-1.25) covers both ways for most faces.
DIE_PER_FACE = 1.15
#: The layouts' values the reader may vouch for. Not a two: any pair of dots fits a two's layout
#: (the guards ``no_outline``, ``row_along_edge`` and ``pip_unframed`` are there for it), and a
#: network that learned "no die" from random crops of tables has seen too few lone pairs of dots
#: to know that a die must lie around them. With twos, development seed 100 of ``make traps``
#: gained three confident errors, all twos: two pen dots taken for one (clutter), a glossy die's
#: face read short (glossy) and a side face (ones). Not a one: see the module's text.
VALUES = (3, 4, 5, 6)
#: Added to a crop's standard deviation before it is divided by it, so that a plain crop (a bare
#: table) is not blown up into noise (grey levels).
STD_FLOOR = 8.0


def standardise(crops: np.ndarray) -> np.ndarray:
    """Each crop (n, INPUT, INPUT) less its mean, over its standard deviation plus STD_FLOOR."""
    x = crops.astype(np.float32)
    m = x.mean(axis=(1, 2), keepdims=True)
    s = x.std(axis=(1, 2), keepdims=True) + STD_FLOOR
    return (x - m) / s


def cut(gray: np.ndarray, centre, side: float) -> np.ndarray:
    """The :data:`CROP`-pixel square of ``gray`` of ``side`` pixels about ``centre``, axis-aligned,
    borders mirrored."""
    cx, cy = float(centre[0]), float(centre[1])
    half = side / 2.0
    src = np.float32([[cx - half, cy - half], [cx + half, cy - half], [cx - half, cy + half]])
    dst = np.float32([[0, 0], [CROP, 0], [0, CROP]])
    m = cv2.getAffineTransform(src, dst)
    flags = cv2.INTER_AREA if side > CROP else cv2.INTER_LINEAR
    return cv2.warpAffine(gray, m, (CROP, CROP), flags=flags, borderMode=cv2.BORDER_REFLECT)


def middle(crops: np.ndarray) -> np.ndarray:
    """The network's input, (n, 1, INPUT, INPUT): each crop's middle, standardised."""
    o = (CROP - INPUT) // 2
    return standardise(np.asarray(crops)[:, o : o + INPUT, o : o + INPUT])[:, None]


@dataclass
class CropReader:
    """The network and the probability at which it vouches for a layout's value."""

    net: object  # cv2.dnn.Net
    accept: float
    version: str = ""
    #: One net serves every read of the process (the web app reads in a thread pool), and
    #: setInput then forward is not safe from two threads at once: each call holds this lock.
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)

    def probs_of(self, crops: np.ndarray) -> np.ndarray:
        """(n, 7) class probabilities (no die, 1-6) of crops already cut (:func:`cut`), each the
        mean over the crop's four quarter turns."""
        if not len(crops):
            return np.zeros((0, 7), np.float32)
        x = middle(crops)
        turns = np.ascontiguousarray(np.concatenate([np.rot90(x, k, (2, 3)) for k in range(4)]))
        with self.lock:
            self.net.setInput(turns)
            p = np.asarray(self.net.forward(), np.float64)
        return p.reshape(4, len(x), 7).mean(axis=0).astype(np.float32)

    def probs(self, gray: np.ndarray, centres, die_sides) -> np.ndarray:
        """:meth:`probs_of` the crops about ``centres`` of ``die_sides`` pixels' dice."""
        if not len(centres):
            return np.zeros((0, 7), np.float32)
        return self.probs_of(
            np.stack([cut(gray, c, SIDE * s) for c, s in zip(centres, die_sides, strict=True)])
        )

    def value_p(self, gray: np.ndarray, centres, die_sides, values) -> np.ndarray:
        """For each face (its centre, its die's side in pixels and its layout's value): the
        network's p of that value where it is the network's top class, else NaN."""
        v = np.asarray(values, int).reshape(-1)
        if not len(v):
            return np.zeros(0, np.float32)
        p = self.probs(gray, centres, die_sides)
        return np.where(p.argmax(axis=1) == v, p[np.arange(len(v)), v], np.nan)

    def vouch(self, gray: np.ndarray, centres, die_sides, values) -> np.ndarray:
        """For each face: does the network read its layout's value too, at :attr:`accept` or
        more (:meth:`value_p`)?"""
        return self.value_p(gray, centres, die_sides, values) >= self.accept


def load_reader(net_file: Path = NET_FILE, meta_file: Path = META_FILE) -> CropReader | None:
    """The crop reader; None when its files are missing, or (with a warning) unreadable."""
    if not (Path(net_file).is_file() and Path(meta_file).is_file()):
        return None
    try:
        meta = json.loads(Path(meta_file).read_text())
        net = cv2.dnn.readNetFromONNX(str(net_file))
        return CropReader(net, float(meta["accept"]), str(meta.get("version", "")))
    except (OSError, ValueError, KeyError, cv2.error) as e:
        log.warning("crop reader not loaded (%s): %s", net_file, e)
        return None


@lru_cache(maxsize=1)
def default_reader() -> CropReader | None:
    return load_reader()


__all__ = ["CROP", "DIE_PER_FACE", "INPUT", "SIDE", "CropReader", "cut", "default_reader",
           "load_reader", "middle", "standardise", "VALUES"]
