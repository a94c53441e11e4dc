"""An update that reads the array it updates only at the elements it replaces
(`x.at[1:].set(x[1:] - f(y))`, NPBench's fdtd_2d) is a store in place: one loop over the
window, no copy of the array, no temporary window, and a loop carry updated so stays in its
buffer (buffers._reads_only_where_written, lower_updates._window_index). Reads at other
positions (a shifted slice, a broadcast row) keep the copy. Values against NumPy."""
import numpy as np
import pytest

import transpile as tp
import transpile.numpy as tnp
from transpile import lax
from test_buffers import entry, kernel_bodies, run_checked

RNG = np.random.default_rng(5)


def fdtd(steps):
    def f(ex, ey, hz, fict):
        def step(t, state):
            ex, ey, hz = state
            ey = ey.at[0, :].set(fict[t])
            ey = ey.at[1:, :].set(ey[1:, :] - 0.5 * (hz[1:, :] - hz[:-1, :]))
            ex = ex.at[:, 1:].set(ex[:, 1:] - 0.5 * (hz[:, 1:] - hz[:, :-1]))
            hz = hz.at[:-1, :-1].set(hz[:-1, :-1] - 0.7 * (ex[:-1, 1:] - ex[:-1, :-1]
                                                          + ey[1:, :-1] - ey[:-1, :-1]))
            return ex, ey, hz
        return lax.fori_loop(0, steps, step, (ex, ey, hz))
    return f


def numpy_fdtd(ex, ey, hz, fict, steps):
    ex, ey, hz = ex.copy(), ey.copy(), hz.copy()
    for t in range(steps):
        ey[0, :] = fict[t]
        ey[1:, :] -= 0.5 * (hz[1:, :] - hz[:-1, :])
        ex[:, 1:] -= 0.5 * (hz[:, 1:] - hz[:, :-1])
        hz[:-1, :-1] -= 0.7 * (ex[:-1, 1:] - ex[:-1, :-1] + ey[1:, :-1] - ey[:-1, :-1])
    return ex, ey, hz


@pytest.mark.parametrize("steps", [1, 4, 5])
def test_fdtd_steps_match_numpy_and_update_their_carries_in_place(steps):
    ex, ey, hz = (RNG.standard_normal((9, 11)) for _ in range(3))
    fict = RNG.standard_normal(steps)
    got = run_checked(fdtd(steps), ex, ey, hz, fict)
    for g, w in zip(got, numpy_fdtd(ex, ey, hz, fict, steps)):
        np.testing.assert_allclose(g, w, rtol=1e-13, atol=1e-13)
    source = tp.jit(fdtd(steps)).lower(ex, ey, hz, fict).source
    bodies = "".join(kernel_bodies(source).values())
    assert "swap" not in entry(source)          # no carry double-buffered
    assert "window" not in bodies and "reads most of the old array" not in bodies
    assert bodies.count("in place") == 4        # ey's row and rest, ex, hz


def test_update_of_a_computed_array_reads_where_it_writes():
    """Outside a loop: the array is one the function computed into a buffer of its own (a
    sort), updated in place where the update reads it; extreme values come out as NumPy's."""
    x = np.array([[1.0, -0.0, np.inf], [np.nan, 5e-324, -1e308], [3.0, 4.0, 5.0]])

    def f(x):
        y = tnp.sort(x, axis=1)
        return y.at[1:, 1:].set(tnp.maximum(y[1:, 1:], 0.0) * 2.0 + 1.0)
    want = np.sort(x, axis=1)
    with np.errstate(invalid="ignore", over="ignore"):
        want[1:, 1:] = np.maximum(want[1:, 1:], 0.0) * 2.0 + 1.0
    got = run_checked(f, x)
    np.testing.assert_array_equal(got, want)
    bodies = "".join(kernel_bodies(tp.jit(f).lower(x).source).values())
    assert "in place" in bodies and "window" not in bodies      # no temporary first


@pytest.mark.parametrize("update", [
    lambda y: y[:-1, 1:] + 1.0,                               # shifted: another element
    lambda y: y[1:, 1:] + y[1:2, 1:],                         # a row broadcast down the window
], ids=["shifted", "broadcast-row"])
def test_reads_at_other_elements_keep_a_copy(update):
    x = RNG.standard_normal((6, 7))

    def f(x):
        y = tnp.sort(x, axis=1)
        return y.at[1:, 1:].set(update(y))
    want = np.sort(x, axis=1)
    want[1:, 1:] = np.asarray(update(want.copy()))
    np.testing.assert_allclose(run_checked(f, x), want, rtol=1e-13)
    bodies = "".join(kernel_bodies(tp.jit(f).lower(x).source).values())
    assert "reads most of the old array" in bodies


def test_a_reduction_of_the_array_is_computed_before_the_store():
    """The sum has a buffer of its own, computed before the window is stored: the update
    reads the array, in place, only where it writes."""
    x = RNG.standard_normal((6, 7))

    def f(x):
        y = tnp.sort(x, axis=1)
        return y.at[1:, 1:].set(y[1:, 1:] + tnp.sum(y))
    want = np.sort(x, axis=1)
    want[1:, 1:] += want.sum()
    np.testing.assert_allclose(run_checked(f, x), want, rtol=1e-13)
