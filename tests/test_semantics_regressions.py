"""Regression tests for issue 7's wrong-answer classes: each compiled function is called twice,
under the C backend and the interpreter, and compared with NumPy in values, dtypes and the
sign of zero. Sizes straddle the C renderer's serial/parallel threshold."""
import warnings

import numpy as np
import pytest

import transpile as tp
import transpile.numpy as tnp
from conftest import assert_same
from transpile.codegen.c_render import CRenderer

THRESHOLD = CRenderer.parallel_min_elements
BACKENDS = ("cpu", "interpret")


def numpy_value(np_fn, *args):
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return np_fn(*args)


def check(fn, np_fn, *args, backends=BACKENDS):
    """fn (jitted, two calls per backend) matches np_fn exactly, output by output."""
    expected = numpy_value(np_fn, *args)
    for backend in backends:
        jitted = tp.jit(fn, backend=backend)
        for call in range(2):
            got = jitted(*args)
            if isinstance(expected, dict):
                assert set(got) == set(expected)
                for key in expected:
                    assert_same(got[key], expected[key], what=f"{backend} call {call} {key}")
            else:
                assert_same(got, expected, what=f"{backend} call {call}")


# -- 1: a parallel loop over reduced elements needs a reduction clause ------------------------

@pytest.mark.parametrize("n", [THRESHOLD // 15 - 1, THRESHOLD // 15 + 1, 3 * THRESHOLD // 15])
def test_full_reductions_over_non_contiguous_views(n):
    x = np.arange(n * 5 * 3, dtype=np.float64).reshape(n, 5, 3) % 7
    y = (np.arange(n * 15) % 5 - 2).reshape(n, 15).astype(np.int32)

    def f(np_, x, y):
        return {"transposed_sum": x.T.sum(), "mean": (y[:, 1:] > 0).mean(),
                "reversed_sum": x[::-1].sum(), "prod": (x[:, 1:, :] > -1).prod(),
                "max": y[:, ::2].max(), "min": x[::-1, 1:].min(), "any": (y[:, 1:] > 1).any(),
                "all": (y[:, 1:] > -3).all(), "int_sum": y[:, 2:].sum()}
    check(lambda x, y: f(tnp, x, y), lambda x, y: f(np, x, y), x, y)


def shared_accumulator_races(source: str) -> list[str]:
    """Parallel pragmas opened after a kernel's accumulator without a reduction clause."""
    races = []
    for kernel in source.split("static void kernel_")[1:]:
        seen_acc = False
        for line in kernel.splitlines():
            seen_acc = seen_acc or " acc = " in line
            if seen_acc and "#pragma omp parallel" in line and "reduction(" not in line:
                races.append(line.strip())
    return races


def test_every_parallel_loop_over_an_accumulator_reduces():
    x = np.ones((THRESHOLD // 15 + 1, 5, 3))
    for fn in (lambda x: x.T.sum(), lambda x: (x[:, 1:] > 0).mean(), lambda x: x[::-1].max(),
               lambda x: x.transpose(1, 0, 2).min(axis=(1, 2)), lambda x: (x > 0).T.all()):
        assert shared_accumulator_races(tp.jit(fn).lower(x).source) == []


# -- 2: round on integers with negative decimals ----------------------------------------------

@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.int32, np.uint32, np.int64, np.uint64])
@pytest.mark.parametrize("n", [7, THRESHOLD + 3])
def test_round_integers_with_negative_decimals(dtype, n):
    info = np.iinfo(dtype)
    edges = np.array([15, 25, 5, min(204, info.max), info.max, info.max - 5, info.min,
                      info.min + 5], dtype)
    if info.min < 0:
        edges = np.concatenate([edges, np.array([-15, -25, -5, -35], dtype)])
    # Out-of-range float->int casts are not compared (README: deliberate differences).
    edges = edges[[all(info.min <= np.rint(float(v) / 10 ** k) * 10 ** k <= info.max
                       for k in (1, 2, 3)) for v in edges]]
    x = np.resize(edges, n)

    def f(m, x):
        return {f"d{d}": m.round(x, d) for d in (-1, -2, -3, 0, 2)} | {"method": x.round(-1)}
    check(lambda x: f(tnp, x), lambda x: f(np, x), x)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_round_floats_scale_as_numpy(dtype):
    x = np.array([1234.5678, -0.4, 0.5, 1.5, 2.5, -25.0, 35.0, 1e20, -0.0, 0.125], dtype)

    def f(m, x):
        return {f"d{d}": m.round(x, d) for d in (-1, -2, -3, 0, 1, 2, 3, 12, 25)}
    check(lambda x: f(tnp, x), lambda x: f(np, x), x)


def test_round_of_booleans_is_refused_as_numpy_refuses_it():
    with pytest.raises(TypeError):
        tp.jit(lambda b: tnp.round(b, -1))(np.array([True]))
