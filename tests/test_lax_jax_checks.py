"""lax argument checks that JAX's own lax_test.py found missing or different: JAX's error
types and words (broadcast_in_dim's shape checks, argmin/argmax's index_dtype/axis/empty)."""
from __future__ import annotations

import numpy as np
import pytest

import transpile as tp
import transpile.lax as lax


@pytest.mark.parametrize("inshape, outshape, dims, message", [
    ((2,), (2, 2), (0, 1), "broadcast_dimensions must have length equal to operand ndim"),
    ((2, 2), (2,), (0, 1), "target broadcast shape must have equal or higher rank"),
    ((2,), (2, 3), (2,), "broadcast_dimensions must be a subset of output dimensions"),
    ((2,), (3,), (0,), "operand dimension sizes must either be 1, or be equal"),
    ((2, 2), (2, 2), (1, 0), "broadcast_dimensions must be strictly increasing"),
])
def test_broadcast_in_dim_shape_errors_are_type_errors(inshape, outshape, dims, message):
    with pytest.raises(TypeError, match=message):
        lax.broadcast_in_dim(np.ones(inshape, np.float32), outshape, dims)


def test_broadcast_in_dim_still_broadcasts():
    x = np.arange(2.0).reshape(2, 1)
    want = np.broadcast_to(x.reshape(2, 1, 1), (2, 1, 3))
    np.testing.assert_array_equal(lax.broadcast_in_dim(x, (2, 1, 3), (0, 2)), want)
    np.testing.assert_array_equal(
        tp.jit(lambda v: lax.broadcast_in_dim(v, (2, 1, 3), (0, 2)))(x), want)


@pytest.mark.parametrize("fn", [lax.argmin, lax.argmax])
def test_arg_reductions_check_their_arguments_as_jax(fn):
    with pytest.raises(TypeError, match="index_dtype must be an integer type"):
        fn(np.ones((2, 2)), axis=0, index_dtype=np.float32)
    with pytest.raises(TypeError, match="index_dtype must be an integer type"):
        fn(np.ones((2, 2)), axis=0, index_dtype=np.bool_)
    with pytest.raises(ValueError, match="require non-empty reduced dimension"):
        fn(np.ones((0, 2)), axis=0, index_dtype=np.int32)
    with pytest.raises(ValueError, match="Invalid axis -1 for operand"):
        fn(np.ones((2, 3)), axis=-1, index_dtype=np.int32)
    x = np.array([[3.0, 1.0, 2.0], [0.0, 5.0, 4.0]])
    want = (np.argmin if fn is lax.argmin else np.argmax)(x, axis=1)
    np.testing.assert_array_equal(fn(x, 1, np.int32), want)
    np.testing.assert_array_equal(tp.jit(lambda v: fn(v, 1, np.int32))(x), want)


def _conv_reference(x, w):
    """NCHW x OIHW 'VALID' convolution (cross-correlation, as lax), in complex128."""
    x, w = x.astype(np.complex128), w.astype(np.complex128)
    windows = np.lib.stride_tricks.sliding_window_view(x, w.shape[2:], axis=(2, 3))
    return np.einsum("nchwij,ocij->nohw", windows, w)


@pytest.mark.parametrize("dtype", [np.float16, np.int8, np.int64, np.complex64, np.complex128])
def test_conv_of_any_numeric_dtype_keeps_it(dtype):
    rng = np.random.default_rng(0)
    def draw(shape):
        v = rng.integers(-3, 4, shape)
        return (v + 1j * rng.integers(-3, 4, shape) if np.dtype(dtype).kind == "c" else v) \
            .astype(dtype)
    x, w = draw((2, 3, 5, 4)), draw((4, 3, 2, 2))
    want = _conv_reference(x, w)      # small integers: exact in every dtype here
    for got in (lax.conv_general_dilated(x, w, (1, 1), "VALID"),
                tp.jit(lambda a, b: lax.conv_general_dilated(a, b, (1, 1), "VALID"))(x, w)):
        assert got.dtype == dtype
        np.testing.assert_array_equal(np.asarray(got).astype(np.complex128), want)


def test_conv_with_no_spatial_axis_is_a_grouped_dot():
    rng = np.random.default_rng(1)
    x, w = rng.standard_normal((3, 4)), rng.standard_normal((5, 4))
    np.testing.assert_allclose(lax.conv_general_dilated(x, w, (), ()), x @ w.T, rtol=1e-12)
    w2 = rng.standard_normal((6, 2))      # two groups of 2 input features, 3 outputs each
    want = np.concatenate([x[:, :2] @ w2[:3].T, x[:, 2:] @ w2[3:].T], axis=1)
    np.testing.assert_allclose(lax.conv_general_dilated(x, w2, (), (), feature_group_count=2),
                               want, rtol=1e-12)


def test_dot_takes_precision_by_keyword_only():
    x = np.arange(5.0)
    with pytest.raises(TypeError, match=r"dot\(\) takes 2 positional arguments"):
        lax.dot(x, x, lax.Precision.DEFAULT)
    assert float(lax.dot(x, x, precision=lax.Precision.HIGHEST)) == float(x @ x)


def test_lax_errors_in_jax_words():
    with pytest.raises(TypeError, match="population_count does not accept dtype bool"):
        lax.population_count(True)
    with pytest.raises(ValueError, match="Sizes passed to split must be nonnegative"):
        lax.split(np.arange(5), (-1, 6))
    with pytest.raises(ValueError, match="conv_general_dilated lhs and rhs must have the same "
                                        "number of dimensions"):
        lax.conv_general_dilated(np.ones((1, 1, 3)), np.ones((1, 1, 2, 2)), (1,), "VALID")
    pads = lax.padtype_to_pads((5, 4), (3, 2), (2, 1), "SAME")
    assert pads == [(1, 1), (0, 1)] and all(type(v) is int for pair in pads for v in pair)


@pytest.mark.parametrize("dims, error, message", [
    ((0, 0), ValueError, "dimensions are not unique"),
    ((3,), ValueError, "axis 3 is out of bounds"),
    ((1,), ValueError, "cannot select an axis to squeeze out"),
    ((None,), TypeError, "cannot be interpreted as an integer"),
])
def test_squeeze_errors_as_jax(dims, error, message):
    with pytest.raises(error, match=message):
        lax.squeeze(np.ones((1, 2, 3), np.float32), dims)


def test_lax_conj_of_reals_is_complex_and_div_of_complex_divides():
    for dtype, want in [(np.float32, np.complex64), (np.float64, np.complex128),
                        (np.complex64, np.complex64)]:
        x = np.array([1.5, -2.0], dtype)
        for got in (lax.conj(x), tp.jit(lax.conj)(x)):
            assert got.dtype == want
            np.testing.assert_array_equal(got, np.conj(x.astype(want)))
    with pytest.raises(TypeError, match="conj does not accept dtype int32"):
        lax.conj(np.ones(2, np.int32))
    a = np.array([1 + 2j, 3 - 1j], np.complex64)
    b = np.array([2 - 1j, 1 + 1j], np.complex64)
    np.testing.assert_allclose(lax.div(a, b), a / b, rtol=1e-6)
    np.testing.assert_allclose(tp.jit(lax.div)(a, b), a / b, rtol=1e-6)


@pytest.mark.parametrize("dtype", [np.float32, np.int32, np.bool_])
def test_conv_general_dilated_patches_lists_each_receptive_field(dtype):
    rng = np.random.default_rng(2)
    x = (rng.standard_normal((2, 3, 5, 6)) * 3).astype(dtype)
    windows = np.lib.stride_tricks.sliding_window_view(x, (2, 3), axis=(2, 3))  # n c h w kh kw
    want = windows.transpose(0, 1, 4, 5, 2, 3).reshape(2, 3 * 6, 4, 4)   # channel-major
    for got in (lax.conv_general_dilated_patches(x, (2, 3), (1, 1), "VALID"),
                tp.jit(lambda v: lax.conv_general_dilated_patches(v, (2, 3), (1, 1), "VALID"))(x)):
        assert got.dtype == dtype
        np.testing.assert_array_equal(got, want)


def test_conv_general_dilated_local_has_one_kernel_per_position():
    rng = np.random.default_rng(3)
    x = rng.standard_normal((2, 3, 5, 6))
    windows = np.lib.stride_tricks.sliding_window_view(x, (2, 3), axis=(2, 3))
    patches = windows.transpose(0, 1, 4, 5, 2, 3).reshape(2, 18, 4, 4)
    w = rng.standard_normal((5, 18, 4, 4))            # (O, C*kh*kw, out H, out W)
    want = np.einsum("nkij,okij->noij", patches, w)
    for got in (lax.conv_general_dilated_local(x, w, (1, 1), "VALID", (2, 3)),
                tp.jit(lambda a, b: lax.conv_general_dilated_local(a, b, (1, 1), "VALID",
                                                                   (2, 3)))(x, w)):
        np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)


def test_lax_mul_takes_out_dtype_and_still_pools():
    x = np.array([100, 3], np.int8)
    np.testing.assert_array_equal(lax.mul(x, x, out_dtype=np.int16), np.array([10000, 9]))
    got = tp.jit(lambda a: lax.mul(a, a, out_dtype=np.float64))(x)
    assert got.dtype == np.float64 and got.tolist() == [10000.0, 9.0]
    y = np.arange(6.0).reshape(2, 3)
    np.testing.assert_array_equal(lax.reduce_window(y, 1.0, lax.mul, (1, 2), (1, 1), "VALID"),
                                  y[:, :-1] * y[:, 1:])
