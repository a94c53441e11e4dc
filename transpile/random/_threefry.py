"""Threefry-2x32 (Salmon et al., "Parallel random numbers: as easy as 1, 2, 3", SC'11) and
the key operations built on it, with JAX's default ("partitionable") counter layout.

Everything is written with transpile's elementwise uint32 primitives (add, xor, shifts,
or), so under `jit` one call of the hash is one fused loop of integer arithmetic in the
generated C; eagerly the same code runs on NumPy. A key is a uint32 array of shape (2,),
as `jax.random.PRNGKey` returns: (k0, k1).
"""
from __future__ import annotations

import numpy as np

from .. import dtypes
from ..core import aval_of
from ..base.iota import broadcasted_iota
from ..numpy import _elementwise as E
from ..numpy._shape import stack
from ..base.operands import astype, operand, reshape, static_shape
from ..lax_threefry import threefry2x32

U32 = dtypes.uint32
U64 = dtypes.uint64
def check_key(key, what: str):
    key = operand(key, "key")
    aval = aval_of(key)
    if aval.shape != (2,) or aval.dtype != U32:
        raise TypeError(f"random.{what}: expected a PRNG key (uint32 array of shape (2,), as "
                        f"PRNGKey returns), got {aval.str_short()}")
    return key


def key_words(key):
    """The key's two uint32 words as 0-d values."""
    return reshape(key[0:1], ()), reshape(key[1:2], ())


def counters(shape):
    """Each element's row-major position as a 64-bit count split into (high, low) uint32
    words: the counters JAX's partitionable Threefry hashes."""
    flat, stride = None, 1
    for d in range(len(shape) - 1, -1, -1):
        term = E.multiply(broadcasted_iota(U64, shape, d), np.uint64(stride))
        flat = term if flat is None else E.add(flat, term)
        stride *= shape[d]
    if flat is None:
        flat = np.zeros(shape, U64)
    return astype(E.right_shift(flat, np.uint64(32)), U32), astype(flat, U32)


def hash_counters(key, shape):
    k0, k1 = key_words(key)
    hi, lo = counters(shape)
    return threefry2x32(k0, k1, hi, lo)


def seed_key(seed):
    """PRNGKey(seed): the seed's 64 bits as (high, low) words; 32-bit and narrower seeds
    (and Python ints in int32's range, which JAX makes int32) have a zero high word."""
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, int) and \
            not dtypes.is_int(aval_of(operand(seed, "seed")).dtype):
        raise TypeError(f"PRNGKey: the seed must be an integer, got {seed!r:.60}")
    if isinstance(seed, int):
        if not -2**63 <= seed < 2**64:
            raise OverflowError(f"PRNGKey: seed {seed} does not fit in 64 bits")
        high = 0 if -2**31 <= seed < 2**31 else (seed >> 32) & 0xFFFFFFFF
        return np.array([high, seed & 0xFFFFFFFF], U32)
    seed = operand(seed, "seed")
    aval = aval_of(seed)
    if aval.shape != ():
        raise TypeError(f"PRNGKey: the seed must be a scalar, got shape {aval.shape}")
    if aval.dtype.itemsize == 8:
        wide = astype(seed, U64)
        high = astype(E.right_shift(wide, np.uint64(32)), U32)
    else:
        high = np.uint32(0)
        wide = astype(seed, dtypes.int64 if aval.dtype.kind == "i" else U64)
    low = astype(E.bitwise_and(astype(wide, U64), np.uint64(0xFFFFFFFF)), U32)
    return stack([astype(high, U32), low])


def split(key, num=2):
    """`num` (an int or a shape) new keys: each the hash of its position under `key`."""
    key = check_key(key, "split")
    shape = static_shape(num if isinstance(num, (tuple, list)) else (num,), "num")
    b0, b1 = hash_counters(key, shape)
    return stack([b0, b1], axis=len(shape))


def fold_in(key, data):
    """A new key from `key` and a 32-bit integer (as JAX: the hash of the pair (0, data))."""
    key = check_key(key, "fold_in")
    if isinstance(data, int):
        data = np.uint32(data & 0xFFFFFFFF)
    data = astype(operand(data, "data"), U32)
    if aval_of(data).shape != ():
        raise TypeError(f"fold_in: data must be a scalar, got shape {aval_of(data).shape}")
    k0, k1 = key_words(key)
    y0, y1 = threefry2x32(k0, k1, np.uint32(0), data)
    return stack([y0, y1])


def random_bits(key, bit_width: int, shape):
    """Uniform random bits: uint8/16/32/64 of `shape` (JAX's `random.bits`)."""
    b0, b1 = hash_counters(key, shape)
    if bit_width == 64:
        return E.bitwise_or(E.left_shift(astype(b0, U64), np.uint64(32)), astype(b1, U64))
    mixed = E.bitwise_xor(b0, b1)
    return mixed if bit_width == 32 else astype(mixed, np.dtype(f"uint{bit_width}"))
