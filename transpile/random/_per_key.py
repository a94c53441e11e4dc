"""Key operations on a whole array of keys at once: keys of shape (..., 2), one draw or one
split per key. `split_each(keys, n)[i]` is `split(keys[i], n)` and `uniform_each(keys, dt)[i]`
is `uniform(keys[i], (), dt)`, bit for bit: the rejection samplers (gamma) run JAX's
per-element algorithm, in which every element owns a key, as one vectorised loop."""
from __future__ import annotations

import numpy as np

from ..numpy import _elementwise as E
from ..numpy._shape import stack
from ..base.operands import astype
from ._samplers import normal_from_bits, uniform_from_bits
from ._threefry import U32, U64, counters, threefry2x32


def _words(keys):
    return keys[..., 0], keys[..., 1]


def split_each(keys, num: int):
    """(..., 2) keys -> (..., num, 2): each key's `split(key, num)`."""
    k0, k1 = _words(keys)
    hi, lo = counters((num,))
    b0, b1 = threefry2x32(k0[..., None], k1[..., None], hi, lo)
    return stack([b0, b1], axis=-1)


def bits_each(keys, nbits: int):
    """One draw of `nbits` random bits per key (`random_bits(key, nbits, ())`)."""
    k0, k1 = _words(keys)
    b0, b1 = threefry2x32(k0, k1, np.uint32(0), np.uint32(0))
    if nbits == 64:
        return E.bitwise_or(E.left_shift(astype(b0, U64), np.uint64(32)), astype(b1, U64))
    assert nbits == 32, nbits
    return astype(E.bitwise_xor(b0, b1), U32)


def uniform_each(keys, dt):
    """One uniform draw in [0, 1) of float dtype `dt` per key."""
    return uniform_from_bits(bits_each(keys, dt.itemsize * 8), dt, dt.type(0.0), dt.type(1.0))


def normal_each(keys, dt):
    """One standard normal draw of float dtype `dt` per key."""
    return normal_from_bits(bits_each(keys, dt.itemsize * 8), dt)
