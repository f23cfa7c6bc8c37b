"""Two numpy operations the reader does about a hundred times a frame on a few values each,
with numpy's own answers at a fraction of its cost (``tools/bench/bench_vision.py``).

- :func:`median`: ``numpy.median`` spends 9-13 microseconds a call in its general machinery (a
  partition, then a mean through ``numpy.mean``); sorting 2-40 values and taking the middle costs
  1.5. Its result is ``numpy.median``'s exactly, dtype included: a float array gives its own
  dtype, an integer one float64, an even count the mean of the two middle values in that dtype,
  and any NaN among the values a NaN.
- :func:`pixel_index`: the nearest pixel's index, clipped into the image. ``numpy.clip`` with
  scalar bounds costs about 5 microseconds more than ``minimum(maximum(...))``, which gives the
  same integers. :func:`sample` reads an image at the nearest pixels so.

Both are tested against numpy in tests/vision/test_numeric.py.
"""

from __future__ import annotations

import numpy as np


def median(a, axis: int | None = None):
    """``numpy.median(a, axis=axis)`` for real numbers, by sorting.

    >>> float(median([3.0, 1.0, 2.0])), float(median([4, 1, 3, 2]))
    (2.0, 2.5)
    >>> median(np.array([[1.0, 5.0, 3.0], [2.0, 2.0, 9.0]]), axis=1).tolist()
    [3.0, 2.0]
    """
    a = np.asarray(a)
    if a.dtype.kind not in "fiu" or a.size == 0 or a.dtype == np.float16:
        # numpy's own answer (and warning) for the rare cases: no values, booleans, and halves,
        # whose mean numpy takes in float32
        return np.median(a, axis=axis)
    if axis is None or (a.ndim == 1 and axis in (0, -1)):  # the common case, by plain indexing
        s = np.sort(a, axis=None)  # NaNs sort last
        n = len(s)
        if s.dtype.kind == "f" and s[n - 1] != s[n - 1]:
            return s[n - 1]
        if s.dtype.kind != "f":
            s = s.astype(np.float64)  # numpy's median of integers is a float64
        if n % 2:
            return s[n // 2] + 0.0  # -0.0 as +0.0, as numpy's mean of one value gives it
        return (s[n // 2 - 1] + s[n // 2]) / 2  # in the array's dtype, as numpy's mean of two
    s = np.sort(a, axis=axis)  # NaNs sort last
    n = s.shape[axis]
    if n % 2:
        mid = np.take(s, n // 2, axis=axis)
        mid = mid + 0.0 if a.dtype.kind == "f" else mid.astype(np.float64)
    else:
        mid = np.mean(np.take(s, [n // 2 - 1, n // 2], axis=axis), axis=axis)
    if a.dtype.kind == "f":
        last = np.take(s, n - 1, axis=axis)
        nan = np.isnan(last)
        if np.ndim(mid) == 0:
            return last if nan else mid
        if nan.any():
            mid = np.where(nan, last, mid)
    return mid


def pixel_index(coord, size: int) -> np.ndarray:
    """The index (int32) of the pixel nearest each coordinate, within ``0 .. size - 1``.

    >>> pixel_index(np.array([-3.0, 0.4, 2.5, 3.5, 99.0]), 10).tolist()
    [0, 0, 2, 4, 9]
    """
    return np.minimum(np.maximum(np.rint(coord).astype(np.int32), 0), size - 1)


def sample(img: np.ndarray, x, y) -> np.ndarray:
    """``img`` at the pixels nearest the points (``x``, ``y``), clipped into it, as float32."""
    h, w = img.shape[:2]
    return img[pixel_index(y, h), pixel_index(x, w)].astype(np.float32)
