"""Reading dice from photos: pure functions over numpy arrays.

The shared values live in :mod:`vision.reading`.
"""

from vision.reading import COCKED, FLAGS, OFF_TABLE, UNCERTAIN, Die, Reading, UnreadableImage

__all__ = ["COCKED", "FLAGS", "OFF_TABLE", "UNCERTAIN", "Die", "Reading", "UnreadableImage"]
