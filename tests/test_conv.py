"""lax.conv_general_dilated and friends, lax.reduce_window and jax.scipy.signal against JAX's
recorded values (tests/convfft_cases.py, tools/record_jax_convfft.py), eagerly and under jit;
the C kernel against the NumPy reference over many shapes; vmap; errors."""
from __future__ import annotations

import numpy as np
import pytest

import transpile as tp
import transpile.numpy as tnp
from transpile import lax
from transpile.scipy import signal
from convfft_cases import conv_cases
from convfft_data import assert_matches

CASES = conv_cases(tnp, lax, signal)


@pytest.mark.parametrize("name", sorted(CASES))
def test_eager_matches_jax(name):
    f, args = CASES[name]
    assert_matches(f(*args), name)


@pytest.fixture(scope="module")
def jitted():
    """Every case's result from one jitted program (one C build for the whole table: a build
    per case would dominate the suite's time)."""
    def all_cases(arguments):
        return {name: CASES[name][0](*args) for name, args in arguments.items()}
    return tp.jit(all_cases)({name: args for name, (_, args) in CASES.items()})


@pytest.mark.parametrize("name", sorted(CASES))
def test_jit_matches_jax(name, jitted):
    assert_matches(jitted[name], name)


@pytest.mark.parametrize("name", ["conv_lhs_dilation", "conv_feature_groups", "max_pool_same"])
def test_interpret_matches_jax(name):
    f, args = CASES[name]
    assert_matches(tp.jit(f, backend="interpret")(*args), name)


# (input NHWC, kernel HWIO, strides, padding, rhs_dilation, groups): the tile's edges (rows
# and widths not multiples of the tile), strides, wide and narrow channel counts, groups.
SHAPES = [
    ((1, 5, 5, 1), (3, 3, 1, 1), (1, 1), "SAME", (1, 1), 1),
    ((2, 13, 11, 3), (3, 3, 3, 16), (1, 1), "SAME", (1, 1), 1),
    ((1, 10, 17, 8), (5, 5, 8, 33), (2, 2), "SAME", (1, 1), 1),
    ((1, 9, 9, 16), (3, 3, 16, 8), (3, 1), ((2, 0), (4, 1)), (2, 3), 1),
    ((2, 8, 8, 12), (3, 3, 4, 18), (1, 1), "VALID", (1, 1), 3),
    ((1, 7, 21, 6), (1, 7, 6, 17), (1, 3), "SAME", (1, 2), 1),
]


def _conv_nhwc(x, w, shape):
    _, _, strides, padding, dilation, groups = shape
    return lax.conv_general_dilated(x, w, strides, padding, rhs_dilation=dilation,
                                    dimension_numbers=("NHWC", "HWIO", "NHWC"),
                                    feature_group_count=groups)


@pytest.fixture(scope="module")
def kernel_runs():
    """Inputs, C results and reference results for every shape and dtype (one C build)."""
    inputs = {}
    for i, shape in enumerate(SHAPES):
        rng = np.random.default_rng(i)
        for dtype in (np.float32, np.float64):
            inputs[i, np.dtype(dtype).name] = (rng.standard_normal(shape[0]).astype(dtype),
                                               rng.standard_normal(shape[1]).astype(dtype))

    def run(ins):
        return {key: _conv_nhwc(x, w, SHAPES[key[0]]) for key, (x, w) in ins.items()}
    return tp.jit(run)(inputs), tp.jit(run, backend="interpret")(inputs)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("index", range(len(SHAPES)), ids=[str(s) for s in SHAPES])
def test_c_kernel_matches_reference(index, dtype, kernel_runs):
    got, want = (r[index, dtype] for r in kernel_runs)
    assert got.dtype == dtype and got.shape == want.shape
    tol = 1e-4 if dtype == "float32" else 1e-11
    np.testing.assert_allclose(got, want, rtol=tol, atol=tol * np.abs(want).max())


def test_generated_c_calls_the_kernel():
    x, w = np.zeros((1, 4, 4, 2), np.float32), np.zeros((3, 3, 2, 5), np.float32)
    source = tp.jit(lambda x, w: lax.conv_general_dilated(
        x, w, (1, 1), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC"))).lower(x, w).source
    # Compiled once into the runtime library (issue 22): the module holds a declaration.
    assert "tp_conv_f32(" in source and '#include "tp_runtime.h"' in source
    assert "tp_conv.h" not in source


def test_vmap_over_images_and_over_kernels():
    rng = np.random.default_rng(3)
    x, w = rng.standard_normal((4, 2, 6, 6)), rng.standard_normal((3, 2, 3, 3))

    def one(x, w):
        return lax.conv_general_dilated(x[None], w, (1, 1), "SAME")[0]
    want = np.stack([np.asarray(one(x[i], w)) for i in range(4)])
    np.testing.assert_allclose(tp.jit(tp.vmap(one, in_axes=(0, None)))(x, w), want, atol=1e-12)
    ws = rng.standard_normal((4, 3, 2, 3, 3))
    want = np.stack([np.asarray(one(x[i], ws[i])) for i in range(4)])
    np.testing.assert_allclose(tp.jit(tp.vmap(one))(x, ws), want, atol=1e-12)


def test_errors_name_the_argument():
    x, w = np.zeros((1, 2, 5, 5)), np.zeros((3, 2, 3, 3))
    with pytest.raises(ValueError, match="padding"):
        lax.conv_general_dilated(x, w, (1, 1), "FULL")
    with pytest.raises(ValueError, match=r"padding argument.*\(low, high\) pairs, got \(3, 3\)"):
        lax.conv_general_dilated(x, w, (1, 1), (3, 3))        # JAX's words (lax_test.py)
    with pytest.raises(ValueError, match="window_strides"):
        lax.conv_general_dilated(x, w, (1,), "SAME")
    # integer operands convolve (as JAX): tests/test_lax_jax_checks.py
    with pytest.raises(ValueError, match="feature_group_count"):
        lax.conv_general_dilated(x, w, (1, 1), "SAME", feature_group_count=2)
    with pytest.raises(TypeError, match="window_dimensions"):
        lax.reduce_window(x, 0.0, lax.add, (1, 1, 0, 2), (1, 1, 1, 1), "VALID")
    with pytest.raises(ValueError, match="mode"):
        signal.convolve(np.ones(3), np.ones(2), mode="circular")
    with pytest.raises(ValueError, match="smaller than the other"):
        signal.convolve2d(np.ones((2, 5)), np.ones((3, 3)))


def _finite_difference(f, x, eps=1e-6):
    g = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        d = np.zeros_like(x)
        d[i] = eps
        g[i] = (f(x + d) - f(x - d)) / (2 * eps)
    return g


GRAD_SETTINGS = {
    "strided_same": dict(window_strides=(2, 2), padding="SAME"),
    "dilated_pairs": dict(window_strides=(1, 1), padding=((1, 0), (2, 1)), rhs_dilation=(2, 1)),
    "lhs_dilated": dict(window_strides=(1, 2), padding="VALID", lhs_dilation=(1, 2)),
    "groups": dict(window_strides=(1, 1), padding="SAME", feature_group_count=3),
}


@pytest.mark.parametrize("setting", sorted(GRAD_SETTINGS))
def test_grad_matches_finite_differences(setting):
    """conv's JVP and transpose rules (autodiff/spectral_rules.py), under jit, for both
    operands."""
    kw = GRAD_SETTINGS[setting]
    rng = np.random.default_rng(6)
    x, k = rng.standard_normal((2, 3, 7, 6)), rng.standard_normal((6, 3 // kw.get(
        "feature_group_count", 1), 3, 2))

    def conv(x, k):
        return lax.conv_general_dilated(x, k, **kw)
    c = rng.standard_normal(np.shape(conv(x, k)))

    def loss(x, k):
        return tnp.sum(conv(x, k) * c)
    gx, gk = tp.jit(tp.grad(loss, argnums=(0, 1)))(x, k)
    np.testing.assert_allclose(gx, _finite_difference(lambda v: float(loss(v, k)), x),
                               atol=1e-6)
    np.testing.assert_allclose(gk, _finite_difference(lambda v: float(loss(x, v)), k),
                               atol=1e-6)


def test_grad_of_max_pool_and_jvp_of_conv():
    rng = np.random.default_rng(7)
    x = rng.standard_normal((1, 6, 6, 2))
    pool = lambda x: tnp.sum(lax.reduce_window(x, -np.inf, lax.max, (1, 2, 2, 1),  # noqa: E731
                                                (1, 2, 2, 1), "VALID") ** 2)
    np.testing.assert_allclose(tp.jit(tp.grad(pool))(x),
                               _finite_difference(lambda v: float(pool(v)), x), atol=1e-6)
    k, t = rng.standard_normal((3, 3, 2, 4)), rng.standard_normal((3, 3, 2, 4))
    conv = lambda k: lax.conv_general_dilated(x, k, (1, 1), "SAME",  # noqa: E731
                                              dimension_numbers=("NHWC", "HWIO", "NHWC"))
    _, tangent = tp.jvp(conv, (k,), (t,))
    np.testing.assert_allclose(tangent, np.asarray(conv(t)), atol=1e-12)
