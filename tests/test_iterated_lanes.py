"""Interchanged fori_loops (elements outside, iterations inside) run lanes of elements side by
side on the CPU (KernelPlan.lanes): every element, remainders of a lane block included,
gets the iterations NumPy's whole-array loop gives it."""
from __future__ import annotations

import numpy as np
import pytest

import transpile as tp
import transpile.numpy as tnp
from transpile import lax
from transpile.codegen.kernel_ir import IteratedKernel


def _escape(lib, loop, c, steps):
    """Mandelbrot's escape iteration: a complex carry, an integer one, a select each step."""
    def step(n, state):
        z, count = state
        inside = lib.abs(z) < 2.0
        return lib.where(inside, z * z + c, z), lib.where(inside, n, count)
    return loop(0, steps, step, (lib.zeros(c.shape, np.complex128),
                                 lib.zeros(c.shape, np.int64)))


def _numpy_loop(lower, upper, body, state):
    for n in range(lower, upper):
        state = body(n, state)
    return state


@pytest.mark.parametrize("shape", [(1,), (7,), (8,), (37,), (5, 13), (700, 3), (40, 25)])
def test_every_element_of_every_lane_block_iterates(shape):
    rng = np.random.default_rng(sum(shape))
    c = rng.uniform(-2, 1, shape) + 1j * rng.uniform(-1.2, 1.2, shape)
    f = tp.jit(lambda c: _escape(tnp, lax.fori_loop, c, 30))
    program = f.lower(c)._prepared.program
    assert [type(k) for k in program.kernels].count(IteratedKernel) == 1
    z, count = f(c)
    want_z, want_count = _escape(np, _numpy_loop, c, 30)
    np.testing.assert_array_equal(count, want_count)
    np.testing.assert_allclose(z, want_z, rtol=1e-12)


def test_a_carry_that_each_iteration_replaces():
    """(c0, c1) -> (2 c1, c1 + x): the first carry is written each step and never read."""
    x = np.arange(21.0)
    f = tp.jit(lambda x: lax.fori_loop(0, 4, lambda i, c: (c[1] * 2.0, c[1] + x), (x, x)))
    assert [type(k) for k in f.lower(x)._prepared.program.kernels].count(IteratedKernel) == 1
    first, second = f(x)
    np.testing.assert_array_equal(first, 8.0 * x)
    np.testing.assert_array_equal(second, 5.0 * x)
