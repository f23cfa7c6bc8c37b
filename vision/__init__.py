"""Reading dice from photos: pure functions over numpy arrays.

``read(image) -> Reading`` runs the pipeline (:mod:`vision.pipeline`); ``load_image`` and
``decode_image`` turn files and uploads into images, refusing unreadable ones. The shared values
live in :mod:`vision.reading`.
"""

from vision.imageio import MAX_PIXELS, decode_image, load_image
from vision.pipeline import read
from vision.reading import COCKED, FLAGS, OFF_TABLE, UNCERTAIN, Die, Reading, UnreadableImage


def __getattr__(name: str):
    if name == "MODEL_VERSION":  # the shipped model's version, for the dispute record
        from vision.model import default_model

        model = default_model()
        return model.version if model else ""
    raise AttributeError(f"module 'vision' has no attribute {name!r}")


__all__ = [
    "COCKED", "FLAGS", "MAX_PIXELS", "OFF_TABLE", "UNCERTAIN", "Die", "Reading", "UnreadableImage",
    "decode_image", "load_image", "read",
]
