"""Bessel functions of the first kind J_0(z) ... J_v(z) at once, as
jax.scipy.special.bessel_jn(z, v=, n_iter=): an array of shape (v + 1,) + z.shape.

Miller's algorithm: the recurrence J_(k-1) = (2k / z) J_k - J_(k+1) run downwards from an
order beyond every wanted one (where J is negligible) with arbitrary starting values, then
normalised by the identity J_0 + 2 (J_2 + J_4 + ...) = 1. Run downwards the recurrence is
stable; running it upwards (JAX's n_iter counts those steps) is not. The start order is
max(n_iter, v) + _MARGIN (even), which is accurate for |z| up to about half of it (JAX's
default n_iter=50: |z| <= 35); values that grow towards overflow for small |z| are
rescaled on the way down. J_0(0) = 1 and J_k(0) = 0 (JAX gives NaN at 0). float64
throughout; float32 rounds once.
"""
from __future__ import annotations

import numpy as np

from .. import numpy as tnp
from ..lax_zeta import working_precision

_MARGIN = 20


def bessel_jn(z, *, v: int, n_iter: int = 50):
    v, n_iter = int(v), int(n_iter)
    if v < 0:
        raise ValueError(f"bessel_jn: the highest order v must be >= 0, got {v}")
    dt = z.dtype
    z = working_precision(z)
    zero = z == 0
    safe = tnp.where(zero, 1.0, z)
    start = max(n_iter, v) + _MARGIN
    start += start % 2
    # The scale of the recurrence's values is free: start at 1 and keep them below the
    # square root of the largest float (float32's under JAX's rules without x64).
    limit = float(np.sqrt(np.finfo(safe.dtype).max))
    above, current = tnp.zeros_like(safe), tnp.ones_like(safe)          # J_(k+1), J_k
    norm = tnp.zeros_like(safe)
    wanted = {}
    for k in range(start, 0, -1):
        if k <= v:
            wanted[k] = current
        if k % 2 == 0:
            norm = norm + 2 * current
        below = (2 * k / safe) * current - above
        above, current = current, below
        # Keep the values in range: scale everything gathered so far by the same factor.
        scale = tnp.where(tnp.abs(current) > limit, 1 / limit, 1.0)
        above, current, norm = above * scale, current * scale, norm * scale
        wanted = {order: value * scale for order, value in wanted.items()}
    wanted[0] = current
    norm = norm + current
    orders = [tnp.where(zero, 1.0 if k == 0 else 0.0, wanted[k] / norm) for k in range(v + 1)]
    out = tnp.stack(orders)
    return tnp.where(tnp.isnan(z), np.nan, out).astype(dt)
