"""The Threefry-2x32 block function (Salmon et al., "Parallel random numbers: as easy as 1,
2, 3", SC'11), 20 rounds, in transpile's elementwise uint32 operations: one hash of counters
under a key, shared by jax.random's keys and samplers (random/_threefry.py) and
lax.rng_bit_generator's Threefry algorithm (lax_rng_bits.py). Under `jit` a call is one fused
loop of integer arithmetic in the generated C; eagerly it runs on NumPy."""
from __future__ import annotations

import numpy as np

from .numpy import _elementwise as E

_ROTATIONS = ((13, 15, 26, 6), (17, 29, 16, 24))
_PARITY = 0x1BD11BDA      # Threefry's key-schedule constant


def _rotate_left(x, r: int):
    return E.bitwise_or(E.left_shift(x, r), E.right_shift(x, 32 - r))


def threefry2x32(k0, k1, x0, x1):
    """The 20-round Threefry-2x32 block function of counters (x0, x1) under key (k0, k1)."""
    ks = (k0, k1, E.bitwise_xor(E.bitwise_xor(k0, k1), np.uint32(_PARITY)))
    x0, x1 = E.add(x0, ks[0]), E.add(x1, ks[1])
    for block in range(5):
        for r in _ROTATIONS[block % 2]:
            x0 = E.add(x0, x1)
            x1 = E.bitwise_xor(x0, _rotate_left(x1, r))
        # Key injection after every four rounds, with the block number added.
        x0 = E.add(x0, ks[(block + 1) % 3])
        x1 = E.add(E.add(x1, ks[(block + 2) % 3]), np.uint32(block + 1))
    return x0, x1
