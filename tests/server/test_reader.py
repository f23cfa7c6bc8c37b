"""The web app's production reader (server.reader.VisionReader) and the corner markers: a photo
showing the four is read in their area; one without them is read as vision.read reads it."""

from __future__ import annotations

import cv2
import numpy as np

from server.reader import VisionReader
from tests.vision.test_markers import CORNERS, OUTSIDE, PHOTO, _photo, _tilt
from vision import read


def test_the_app_reads_a_photo_in_its_corner_markers_area():
    img, where = _tilt(_photo())
    reading = VisionReader().read(img)
    off = [d for d in reading.dice if "off_table" in d.flags]
    assert len(off) == 1 and np.hypot(*(np.array(off[0].center) - where(OUTSIDE))) < 12
    assert reading.values == [2, 3, 3, 3] and not reading.needs_confirmation
    markers = [where(c) for c in CORNERS.values()]
    assert not any(min(np.hypot(*(np.array(d.center) - m)) for m in markers) < 25
                   for d in reading.dice)  # no die read on a marker
    assert reading.model_version


def test_a_photo_without_markers_is_read_as_before():
    img = cv2.imread(str(PHOTO))
    got, want = VisionReader().read(img), read(img)
    assert got.dice == want.dice and got.values == [2, 3, 3, 3, 6]
