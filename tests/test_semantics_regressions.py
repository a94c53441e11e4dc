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
