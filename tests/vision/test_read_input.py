"""Bad input to the reader: empty, truncated, not an image, too large. Each gets a clear error."""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision import MAX_PIXELS, UnreadableImage, decode_image, load_image
from vision.imageio import image_size

SAMPLES = Path(__file__).resolve().parents[2] / "sample_images"
JPEG = SAMPLES / "matteop65-six_52.jpg"


def _png(width: int, height: int, body: bytes = b"") -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return (
            struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
        )

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + body + chunk(b"IEND", b"")


def test_a_real_jpeg_and_png_decode():
    data = JPEG.read_bytes()
    img = decode_image(data)
    assert img.dtype == np.uint8 and img.ndim == 3 and img.shape[2] == 3
    assert image_size(data) == (img.shape[1], img.shape[0])
    ok, png = cv2.imencode(".png", img)
    assert ok
    again = decode_image(png.tobytes())
    assert again.shape == img.shape


def test_empty_input():
    with pytest.raises(UnreadableImage, match="empty"):
        decode_image(b"")


@pytest.mark.parametrize("keep", [0.3, 0.66, 0.99])
def test_truncated_jpeg_is_refused(keep):
    # Depending on the build, OpenCV alone may return a half-grey image for a cut JPEG; the
    # reader checks for the end-of-image marker instead.
    data = JPEG.read_bytes()
    cut = data[: int(len(data) * keep)]
    with pytest.raises(UnreadableImage, match="truncated"):
        decode_image(cut)


def test_data_after_the_end_of_a_jpeg_is_allowed():
    # phones append things after the image (padding, a motion photo's video)
    data = JPEG.read_bytes() + b"\x00" * 100 + b"ftypmp42" + bytes(range(200)) * 50
    assert decode_image(data).shape[2] == 3


def test_truncated_png():
    ok, png = cv2.imencode(".png", cv2.imread(str(JPEG)))
    data = png.tobytes()
    with pytest.raises(UnreadableImage, match="truncated"):
        decode_image(data[: len(data) // 2])


@pytest.mark.parametrize(
    "data",
    [
        b"hello, this is text\n" * 10,
        b"\x00" * 500,
        b"%PDF-1.4\n" + b"x" * 300,
        b"\xff\xd8\xff\xe0garbage\xff\xd9",
    ],
)
def test_not_an_image(data):
    with pytest.raises(UnreadableImage):
        decode_image(data)


def test_more_than_50_megapixels_is_refused_from_the_header_before_decoding():
    bomb = _png(10_000, 6_000)  # 60 MP claimed, a few bytes long
    assert image_size(bomb) == (10_000, 6_000)
    with pytest.raises(UnreadableImage, match="megapixels"):
        decode_image(bomb)


def test_jpeg_header_size_is_read_without_decoding():
    data = JPEG.read_bytes()
    # patch the SOF0 dimensions to 9000 x 9000 (81 MP)
    i = data.index(b"\xff\xc0")
    patched = data[: i + 5] + struct.pack(">HH", 9000, 9000) + data[i + 9 :]
    assert image_size(patched) == (9000, 9000)
    with pytest.raises(UnreadableImage, match="megapixels"):
        decode_image(patched)
    assert MAX_PIXELS == 50_000_000


def test_load_image_missing_file_and_folder(tmp_path):
    with pytest.raises(UnreadableImage, match="does not exist"):
        load_image(tmp_path / "nope.jpg")
    with pytest.raises(UnreadableImage, match="folder"):
        load_image(tmp_path)
    empty = tmp_path / "empty.jpg"
    empty.write_bytes(b"")
    with pytest.raises(UnreadableImage, match="empty"):
        load_image(empty)


def test_the_message_is_one_sentence_a_player_can_read():
    with pytest.raises(UnreadableImage) as e:
        decode_image(b"not an image at all")
    msg = str(e.value)
    assert msg.endswith(".") and "\n" not in msg and "Traceback" not in msg
