"""The median of a few values, as ``numpy.median`` gives it, at a fraction of its cost.

The reader takes some fifty medians a frame, nearly all of 2-40 values (a face's pip radii, a
ring's samples, the throw's die sizes). ``numpy.median`` spends 15-20 microseconds on each in its
general machinery (a partition, then a mean through ``numpy.mean``); sorting so few values and
taking the middle costs a few. Over a frame that was about 1 ms of the 30 the issue allows
(``tools/bench/bench_vision.py``).

The result is ``numpy.median``'s exactly, dtype included (tests/vision/test_median.py): a float
array gives its own dtype, an integer one float64, an even count the mean of the two middle
values in that dtype, and any NaN among the values a NaN.
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
    if a.dtype.kind not in "fiu" or a.size == 0:
        return np.median(a, axis=axis)  # numpy's own answer (and warning) for the rare cases
    if axis is None or a.ndim == 1:  # the common case, by plain indexing
        s = np.sort(a, axis=None)  # NaNs sort last
        n = len(s)
        if s.dtype.kind == "f" and s[n - 1] != s[n - 1]:
            return s[n - 1]
        if s.dtype.kind != "f":
            s = s.astype(np.float64)  # numpy's median of integers is a float64
        if n % 2:
            return s[n // 2]
        return (s[n // 2 - 1] + s[n // 2]) / 2  # in the array's dtype, as numpy's mean of two
    s = np.sort(a, axis=axis)  # NaNs sort last
    n = s.shape[axis]
    if n % 2:
        mid = np.take(s, n // 2, axis=axis)
        if a.dtype.kind != "f":
            mid = mid.astype(np.float64)
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
