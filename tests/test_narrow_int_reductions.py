"""max/min reductions of 8- and 16-bit integers, compiled, against NumPy.

gcc 12 at -O3 vectorises a uint8/uint16 max or min reduction of `c ? 1 : x` (jnp.where(x,
1, x) reduced) into code that returns the reduction's identity (65535 for a min of ones:
fuzz seed 540293 under JAX's rules). transpile accumulates such reductions in 32 bits, which
gcc compiles correctly; this program reproduces the miscompilation otherwise (standalone C:
a uint8/uint16 accumulator, 16x2 or 4x1 loops, wrong at -O3 -march=native, right at -O0).
"""
from __future__ import annotations

import numpy as np
import pytest

import transpile as tp
import transpile.numpy as tnp

NARROW = [np.uint8, np.uint16, np.int8, np.int16]


@pytest.mark.parametrize("dt", NARROW, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("reduce", ["min", "max"])
def test_reduction_of_a_select_over_a_shared_buffer(dt, reduce):
    """Fuzz seed 540293's program: the reduced select reads a computed buffer that another
    output also reads; the min came out as 65535 (uint16) before the 32-bit accumulator."""
    def program(mod, x):
        v1 = mod.square(mod.full_like(x, 10, dtype=dt))[::-1]
        v2 = mod.where(v1, 1, v1)
        return getattr(mod, reduce)(v2, axis=(0, 1), keepdims=True), v1 * 2

    x = np.array([[-2.95], [4.5], [3.5], [-4.19]], np.float32)
    got = tp.jit(lambda x: program(tnp, x))(x)
    for g, w in zip(got, program(np, x)):
        np.testing.assert_array_equal(np.asarray(g), w)
