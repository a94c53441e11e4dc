"""A chain of values each read at several positions by the next (Floyd-Warshall's steps,
unrolled by a Python loop) fuses in pairs: half as many loop nests as steps, each step
recomputed at a bounded number of places, with NumPy's answers (schedule.py,
_materialise_reread_chains)."""
import numpy as np
import pytest

import transpile as tp
import transpile.numpy as tnp
from test_buffers import entry, kernel_calls


def floyd_warshall(steps):
    def f(path):
        for step in range(steps):
            k = step % path.shape[0]
            path = path.at[:].set(tnp.minimum(path, tnp.add.outer(path[:, k], path[k, :])))
        return path
    return f


def numpy_floyd_warshall(path, steps):
    path = path.copy()
    for step in range(steps):
        k = step % path.shape[0]
        path[:] = np.minimum(path, np.add.outer(path[:, k], path[k, :]))
    return path


def graph(n, dtype):
    i, j = np.indices((n, n))
    path = (i * j % 7 + 1).astype(dtype)
    path[((i + j) % 13 == 0) | ((i + j) % 5 == 0)] = 999
    return path


@pytest.mark.parametrize("steps", [1, 2, 3, 8, 9, 25])
@pytest.mark.parametrize("dtype", [np.int32, np.float64])
def test_floyd_warshall_steps_match_numpy(steps, dtype):
    path = graph(11, dtype)
    np.testing.assert_array_equal(tp.jit(floyd_warshall(steps))(path),
                                  numpy_floyd_warshall(path, steps))


def test_extreme_values_wrap_as_numpy_does():
    """int32 sums that overflow wrap in NumPy; fused or not, the generated code agrees."""
    path = graph(9, np.int32)
    path[0, :] = np.iinfo(np.int32).max
    path[:, 3] = np.iinfo(np.int32).min
    with np.errstate(over="ignore"):
        want = numpy_floyd_warshall(path, 6)
    np.testing.assert_array_equal(tp.jit(floyd_warshall(6))(path), want)


@pytest.mark.parametrize("steps", [20, 21])
def test_steps_fuse_in_pairs(steps):
    """Each step is two operations (add, minimum) on the previous one read at three
    positions: fused two at a time, `steps` steps are about steps / 2 loop nests (every
    step its own nest, before: a pass through memory per step)."""
    source = tp.jit(floyd_warshall(steps)).lower(graph(11, np.int32)).source
    nests = len(kernel_calls(entry(source), source))
    assert steps // 2 <= nests <= steps // 2 + 1


def test_a_deep_step_is_still_materialised_once_per_step():
    """A step deeper than the recomputation bound (five operations) is not fused into the
    next even once: every step its own nest, as before."""
    def f(x):
        for k in range(10):
            x = tnp.minimum(x, tnp.add.outer(tnp.sin(x[:, k]) * 2.0 + 1.0, x[k, :]))
        return x
    x = np.random.default_rng(0).random((12, 12))
    source = tp.jit(f).lower(x).source
    assert len(kernel_calls(entry(source), source)) >= 10
    want = x.copy()
    for k in range(10):
        want = np.minimum(want, np.add.outer(np.sin(want[:, k]) * 2.0 + 1.0, want[k, :]))
    np.testing.assert_allclose(tp.jit(f)(x), want, rtol=1e-13)
