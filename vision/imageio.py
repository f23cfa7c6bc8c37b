"""Loading photos safely: empty, truncated, non-image and oversized input raise UnreadableImage.

OpenCV decodes a truncated JPEG silently (the missing rows come out grey), and it would allocate
gigabytes for a small file that claims a huge size (a decompression bomb). So the container is
checked first: the header's dimensions are read without decoding, and a JPEG must end with its
EOI marker, a PNG with its IEND chunk.

>>> decode_image(b"")
Traceback (most recent call last):
...
vision.reading.UnreadableImage: the file is empty.
"""

from __future__ import annotations

import struct
from pathlib import Path

import cv2
import numpy as np

from vision.reading import UnreadableImage

#: The largest image we decode: a 48 MP phone photo fits, a decompression bomb does not.
MAX_PIXELS = 50_000_000

_JPEG_SOI = b"\xff\xd8"
_JPEG_EOI = b"\xff\xd9"
_PNG_SIG = b"\x89PNG\r\n\x1a\n"
# JPEG start-of-frame markers carry the dimensions (all SOFn except DHT C4, JPG C8, DAC CC).
_SOF_MARKERS = {0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF}


def image_size(data: bytes) -> tuple[int, int] | None:
    """``(width, height)`` from a JPEG, PNG, BMP, GIF or WebP header, without decoding.

    None when the format is not one of these (OpenCV may still know it).
    """
    if data.startswith(_PNG_SIG) and len(data) >= 24 and data[12:16] == b"IHDR":
        w, h = struct.unpack(">II", data[16:24])
        return w, h
    if data.startswith(_JPEG_SOI):
        return _jpeg_size(data)
    if data[:2] == b"BM" and len(data) >= 26:
        w, h = struct.unpack("<ii", data[18:26])
        return abs(w), abs(h)
    if data[:6] in (b"GIF87a", b"GIF89a") and len(data) >= 10:
        return struct.unpack("<HH", data[6:10])
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP" and len(data) >= 30:
        chunk = data[12:16]
        if chunk == b"VP8X":
            w = 1 + int.from_bytes(data[24:27], "little")
            h = 1 + int.from_bytes(data[27:30], "little")
            return w, h
        if chunk == b"VP8 " and len(data) >= 30:
            w, h = struct.unpack("<HH", data[26:30])
            return w & 0x3FFF, h & 0x3FFF
        if chunk == b"VP8L" and len(data) >= 25:
            b = data[21:25]
            w = 1 + (((b[1] & 0x3F) << 8) | b[0])
            h = 1 + (((b[3] & 0xF) << 10) | (b[2] << 2) | ((b[1] & 0xC0) >> 6))
            return w, h
    return None


def _jpeg_segments(data: bytes):
    """Walk a JPEG's marker segments: yields ``(offset, marker, length)`` up to the first start of
    scan or end of image (inclusive), so that an EXIF thumbnail's own markers inside APP1 are
    skipped over as part of their segment."""
    i, n = 2, len(data)
    while i + 4 <= n:
        if data[i] != 0xFF:
            i += 1
            continue
        marker = data[i + 1]
        if marker == 0xFF:  # fill byte
            i += 1
            continue
        if marker in (0x01, 0xD8) or 0xD0 <= marker <= 0xD7:  # markers without a length
            i += 2
            continue
        if marker in (0xD9, 0xDA):  # end of image, start of scan: the headers are over
            yield i, marker, 0
            return
        length = struct.unpack(">H", data[i + 2 : i + 4])[0]
        yield i, marker, length
        i += 2 + length


def _jpeg_size(data: bytes) -> tuple[int, int] | None:
    for i, marker, _ in _jpeg_segments(data):
        if marker in _SOF_MARKERS and i + 9 <= len(data):
            h, w = struct.unpack(">HH", data[i + 5 : i + 9])
            return w, h
    return None  # a scan or the end before any frame header


def _jpeg_scan_start(data: bytes) -> int | None:
    """Offset of the main image's first start-of-scan marker."""
    for i, marker, _ in _jpeg_segments(data):
        if marker == 0xDA:
            return i
    return None


def _check_complete(data: bytes) -> None:
    if data.startswith(_JPEG_SOI):
        # The compressed data cannot hold the bytes FF D9 (a coded FF is always followed by 00 or
        # a restart marker), so a complete JPEG has its end-of-image marker after its first scan.
        # Data after it (padding, a motion photo's video) is allowed.
        sos = _jpeg_scan_start(data)
        if sos is None or data.rfind(_JPEG_EOI) < sos:
            raise UnreadableImage("the JPEG file is truncated (it has no end-of-image marker).")
    elif data.startswith(_PNG_SIG):
        if b"IEND" not in data[-64:]:
            raise UnreadableImage("the PNG file is truncated (it has no IEND chunk).")


def decode_image(data: bytes, *, max_pixels: int = MAX_PIXELS) -> np.ndarray:
    """Decode an uploaded photo to a BGR uint8 array, or raise :class:`UnreadableImage`.

    The checks, in order: empty input; the header's dimensions (more than ``max_pixels`` is
    refused before decoding); a truncated JPEG or PNG; anything OpenCV cannot decode.
    """
    if not data:
        raise UnreadableImage("the file is empty.")
    size = image_size(data)
    if size is not None:
        w, h = size
        if w <= 0 or h <= 0:
            raise UnreadableImage("the image header gives no size.")
        if w * h > max_pixels:
            raise UnreadableImage(
                f"the image is {w}x{h}, {w * h / 1e6:.0f} megapixels; "
                f"the limit is {max_pixels / 1e6:.0f}."
            )
    _check_complete(data)
    buf = np.frombuffer(data, dtype=np.uint8)
    # IMREAD_COLOR drops alpha and expands grey; the EXIF orientation is applied.
    image = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    if image is None or image.size == 0:
        raise UnreadableImage("the file is not an image that can be read.")
    if image.shape[0] * image.shape[1] > max_pixels:
        raise UnreadableImage(f"the image is larger than {max_pixels / 1e6:.0f} megapixels.")
    return image


def load_image(path: str | Path, *, max_pixels: int = MAX_PIXELS) -> np.ndarray:
    """Read a photo from disk (see :func:`decode_image`)."""
    p = Path(path)
    try:
        data = p.read_bytes()
    except IsADirectoryError:
        raise UnreadableImage(f"{p} is a folder, not an image.") from None
    except FileNotFoundError:
        raise UnreadableImage(f"{p} does not exist.") from None
    except OSError as e:
        raise UnreadableImage(f"{p} cannot be read ({e.strerror}).") from None
    return decode_image(data, max_pixels=max_pixels)
