"""NPBench's 53 JAX kernels (benchmarks/npbench_kernels.py, timed by bench_npbench.py and
bench_npbench_firstcall.py) compile under transpile and compute what their NumPy references
compute, on tiny inputs, and leave those inputs alone: a benchmark of a program that fails or
computes something else would time nothing useful."""
import pathlib
import sys

import numpy as np
import pytest

import transpile as tp
import transpile.numpy as tnp
from transpile import lax

sys.path.insert(0, str(pathlib.Path(__file__).parent.parent / "benchmarks"))
import npbench_kernels  # noqa: E402  (benchmarks/ is not a package)

LIB = npbench_kernels.library(tnp, lax, tp.jit)


def _widened(x):
    """float64, or complex128 for complex results (compared in full, not cast to real)."""
    x = np.asarray(x)
    return x.astype(np.complex128 if np.iscomplexobj(x) else np.float64)


def _leaves(result):
    return list(result) if isinstance(result, (tuple, list)) else [result]


# Over a second each on a cold cache (long traced programs, or a NumPy reference that loops
# in Python): deselected by -m 'not slow'.
SLOW = {"channel_flow", "lenet", "deriche", "vadv", "resnet", "adi"}


@pytest.mark.parametrize("kernel", [
    pytest.param(k, marks=pytest.mark.slow) if k.name in SLOW else k
    for k in npbench_kernels.KERNELS], ids=lambda k: k.name)
def test_kernel_matches_its_numpy_reference(kernel):
    args = kernel.init(kernel.sizes["tiny"])
    before = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    got = _leaves(tp.jit(kernel.make(LIB), static_argnums=kernel.static_argnums)(*args))
    expected = _leaves(kernel.reference(*args))
    assert len(got) == len(expected)
    for g, e in zip(got, expected):
        np.testing.assert_allclose(_widened(g), _widened(e), rtol=kernel.rtol, atol=kernel.rtol)
    for a, b in zip(args, before):
        np.testing.assert_array_equal(a, b)


def test_every_kernel_has_the_benchmark_preset_and_a_tiny_one():
    names = [k.name for k in npbench_kernels.KERNELS]
    assert len(names) == len(set(names)) == 53           # NPBench's 53 JAX kernels
    assert SLOW <= set(names)
    for kernel in npbench_kernels.KERNELS:
        assert {"S", "tiny"} <= set(kernel.sizes), kernel.name
