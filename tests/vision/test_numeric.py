"""vision.numeric against numpy: the same values and dtypes (medians with NaN included)."""

import numpy as np
import pytest

from vision.numeric import median, pixel_index, sample


def _same(got, want):
    got, want = np.asarray(got), np.asarray(want)
    assert got.dtype == want.dtype
    assert got.shape == want.shape
    np.testing.assert_array_equal(got, want)  # NaN equals NaN here


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32, np.int64, np.uint8])
@pytest.mark.parametrize("n", [1, 2, 3, 4, 7, 8, 40])
def test_the_median_of_a_vector_is_numpys(dtype, n):
    rng = np.random.default_rng(n)
    for _ in range(20):
        a = (rng.random(n) * 200).astype(dtype)
        _same(median(a), np.median(a))
        _same(median(a.tolist()), np.median(a.tolist()))


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int64])
@pytest.mark.parametrize("shape", [(1, 3), (5, 8), (6, 9), (4, 2), (3, 4, 5)])
@pytest.mark.parametrize("axis", [None, 0, 1, -1])
def test_the_median_along_an_axis_is_numpys(dtype, shape, axis):
    rng = np.random.default_rng(len(shape) * 10 + shape[0])
    a = (rng.random(shape) * 255).astype(dtype)
    _same(median(a, axis=axis), np.median(a, axis=axis))


def test_an_even_count_takes_the_mean_of_the_two_middle_values_in_the_arrays_dtype():
    a = np.array([1.0, 2.0**-24, 3.0, 0.0], np.float32)
    _same(median(a), np.median(a))
    assert median(np.array([7, 1, 2, 10])) == 4.5


def test_a_nan_among_the_values_gives_nan_as_numpy_does():
    a = np.array([1.0, np.nan, 3.0, 2.0])
    assert np.isnan(median(a)) and np.isnan(np.median(a))
    rows = np.array([[1.0, 2.0, 3.0], [np.nan, 5.0, 4.0], [6.0, 6.0, np.nan]], np.float32)
    _same(median(rows, axis=1), np.median(rows, axis=1))
    _same(median(rows, axis=0), np.median(rows, axis=0))


def test_the_rare_cases_are_numpys_too():
    # a middle -0.0 (numpy's mean of one value gives +0.0), float16 (numpy averages halves in
    # float32), and an axis the array does not have
    for a in ([0.0, -0.0, 1.0], [[-0.0, 5.0, -1.0]], np.array([-0.0, 3.0, -2.0], np.float32)):
        a = np.asarray(a)
        _same(median(a), np.median(a))
        _same(median(a, axis=-1), np.median(a, axis=-1))
        assert not np.signbit(median(a))
    half = np.array([65504, 65504], np.float16)
    _same(median(half), np.median(half))
    with pytest.raises(np.exceptions.AxisError):
        median(np.array([1.0, 2.0, 3.0]), axis=1)


def test_empty_and_non_numeric_input_is_left_to_numpy():
    with pytest.warns(RuntimeWarning):
        assert np.isnan(median(np.array([], np.float64)))
    _same(median(np.array([True, False, True])), np.median(np.array([True, False, True])))


@pytest.mark.parametrize("size", [1, 2, 10, 1280])
def test_a_pixel_index_is_numpys_clipped_nearest_pixel(size):
    rng = np.random.default_rng(size)
    for dtype in (np.float32, np.float64):
        coord = (rng.random((7, 15)) * (size + 20) - 10).astype(dtype)
        coord[0, :3] = (-0.5, size - 0.5, size - 1.5)  # halves round to even, as numpy.rint does
        want = np.clip(np.rint(coord).astype(np.int32), 0, size - 1)
        _same(pixel_index(coord, size), want)


def test_a_sample_is_the_image_at_the_nearest_pixels_clipped_into_it():
    img = np.arange(5 * 7 * 3, dtype=np.uint8).reshape(5, 7, 3)
    x = np.array([[-2.0, 0.4, 3.5], [6.6, 2.5, 100.0]])
    y = np.array([[0.0, 4.6, -1.0], [2.5, 9.0, 1.4]])
    want = img[np.clip(np.rint(y).astype(int), 0, 4), np.clip(np.rint(x).astype(int), 0, 6)]
    got = sample(img, x, y)
    assert got.dtype == np.float32 and got.shape == (2, 3, 3)
    np.testing.assert_array_equal(got, want.astype(np.float32))
    np.testing.assert_array_equal(sample(img[:, :, 0], x, y), want[..., 0].astype(np.float32))
