"""jax.lax.rng_bit_generator: XLA's RngBitGenerator, bit for bit as XLA computes it on CPU.

The key is JAX's u32[4] (or the older u64[2]); read as two 64-bit words (s0, s1), s0 keys
the generator and s1 is a counter, advanced by the number of blocks generated (the
returned key). RNG_DEFAULT is Philox-4x32-10, as XLA's CPU and GPU backends expand it; its
128-bit counter is (low s1 + block, high s0). RNG_THREE_FRY is Threefry-2x32 (20 rounds)
over the counter s1 + element index, with XLA's layout of the two output words (split along
the first even axis, or the longest one).

Everything is 32-bit unsigned arithmetic on whole arrays (64-bit sums as word pairs with a
carry, the 32x32 -> 64 product from 16-bit halves), so it runs with or without x64, jits to
one fused loop, and vmaps over keys with no rule of its own. Bits for uint8 and uint16 are
the low bits of 32-bit ones, as JAX truncates them.
"""
from __future__ import annotations

import enum
import math

import numpy as np

from .core import aval_of
from .numpy import _elementwise as E
from .base.iota import iota
from .base.operands import astype, broadcast_to, reshape
from .base.operands import operand as as_operand
from .lax_threefry import threefry2x32

__all__ = ["RandomAlgorithm", "rng_bit_generator"]

U32 = np.dtype(np.uint32)
_MASK16 = np.uint32(0xFFFF)


class RandomAlgorithm(enum.IntEnum):
    """Which generator rng_bit_generator runs (JAX's values)."""
    RNG_DEFAULT = 0
    RNG_THREE_FRY = 1
    RNG_PHILOX = 2

    def __str__(self):
        return self.name


_OUT_DTYPES = {np.dtype(np.uint8), np.dtype(np.uint16), np.dtype(np.uint32),
               np.dtype(np.uint64)}


def rng_bit_generator(key, shape, dtype=np.uint32, algorithm=RandomAlgorithm.RNG_DEFAULT,
                      *, out_sharding=None):
    """(new key, random bits of `shape` and unsigned `dtype`) from `key`, as XLA gives them."""
    del out_sharding                      # one device: nothing to place
    shape = tuple(int(d) for d in shape)
    dtype = np.dtype(dtype)
    if dtype not in _OUT_DTYPES:
        raise TypeError(f"rng_bit_generator: unsupported dtype {dtype}; use uint8, uint16, "
                        "uint32 or uint64")
    key = as_operand(key, "rng_bit_generator key")
    words = _key_words(key)
    wide = dtype.itemsize == 8
    if int(algorithm) == RandomAlgorithm.RNG_THREE_FRY:
        bits, blocks = (_threefry64 if wide else _threefry32)(words, shape)
    else:
        bits, blocks = (_philox64 if wide else _philox32)(words, shape)
    return _key_like(key, _advance(words, blocks)), astype(bits, dtype)


# --- keys as four 32-bit words (s0 low, s0 high, s1 low, s1 high) ---------------------------

def _key_words(key):
    aval = aval_of(key)
    if aval.shape == (4,) and aval.dtype == U32:
        return [key[i] for i in range(4)]
    if aval.shape == (2,) and aval.dtype == np.uint64:
        return [astype(w, U32) for k in (key[0], key[1])
                for w in (k, E.right_shift(k, np.uint64(32)))]
    raise TypeError(f"rng_bit_generator: key must be uint32[4] or uint64[2], got "
                    f"{aval.dtype}{list(aval.shape)}. Use jax.random's key data, e.g. "
                    "np.array([0, 0, 0, seed], np.uint32).")


def _key_like(key, words):
    from .numpy._shape import stack
    if aval_of(key).dtype == U32:
        return stack(words)
    return stack([_join64(words[0], words[1]), _join64(words[2], words[3])])


def _advance(words, blocks):
    """The returned key: the counter s1 moved on by `blocks` (mod 2**64), s0 unchanged."""
    low = E.add(words[2], np.uint32(blocks & 0xFFFFFFFF))
    carry = astype(E.less(low, words[2]), U32)
    high = E.add(E.add(words[3], np.uint32(blocks >> 32)), carry)
    return [words[0], words[1], low, high]


def _spread(word, count):
    """A key word as a uint32[count] array, so that every later sum wraps as an array op
    (NumPy warns about overflow in scalar arithmetic, never in array arithmetic)."""
    return broadcast_to(word, (count,))


def _add_with_carry(word, addend):
    total = E.add(word, addend)
    return total, astype(E.less(total, word), U32)


# --- Philox-4x32-10 ---------------------------------------------------------------------------

_PHILOX_M = (np.uint32(0xD2511F53), np.uint32(0xCD9E8D57))
_PHILOX_W = (np.uint32(0x9E3779B9), np.uint32(0xBB67AE85))


def _mul_hi_lo(x, k: np.uint32):
    """(high, low) words of the 64-bit product of uint32 `x` and the constant `k`."""
    low = E.multiply(x, k)
    x_lo, x_hi = E.bitwise_and(x, _MASK16), E.right_shift(x, np.uint32(16))
    k_lo, k_hi = np.uint32(int(k) & 0xFFFF), np.uint32(int(k) >> 16)
    lo_lo, lo_hi = E.multiply(x_lo, k_lo), E.multiply(x_lo, k_hi)
    hi_lo, hi_hi = E.multiply(x_hi, k_lo), E.multiply(x_hi, k_hi)
    cross = E.add(E.add(E.right_shift(lo_lo, np.uint32(16)), E.bitwise_and(lo_hi, _MASK16)),
                  E.bitwise_and(hi_lo, _MASK16))
    high = E.add(E.add(hi_hi, E.right_shift(lo_hi, np.uint32(16))),
                 E.add(E.right_shift(hi_lo, np.uint32(16)), E.right_shift(cross, np.uint32(16))))
    return high, low


def _philox_blocks(words, count):
    """Philox on the counters (s1 + i, s0) for i < count: four uint32[count] words."""
    index = iota(U32, count)
    c0, carry = _add_with_carry(_spread(words[2], count), index)
    c1, carry_1 = _add_with_carry(words[3], carry)
    c2, carry_2 = _add_with_carry(words[0], carry_1)
    c3 = E.add(words[1], carry_2)
    state = [c0, c1, c2, c3]
    k0, k1 = _spread(words[0], count), _spread(words[1], count)
    for _ in range(10):
        high0, low0 = _mul_hi_lo(state[0], _PHILOX_M[0])
        high1, low1 = _mul_hi_lo(state[2], _PHILOX_M[1])
        state = [E.bitwise_xor(E.bitwise_xor(high1, state[1]), k0), low1,
                 E.bitwise_xor(E.bitwise_xor(high0, state[3]), k1), low0]
        k0, k1 = E.add(k0, _PHILOX_W[0]), E.add(k1, _PHILOX_W[1])
    return state


def _interleave(parts, n, shape):
    from .numpy._shape import stack
    flat = reshape(stack(parts, axis=1), (-1,))
    return reshape(flat[:n], shape)


def _philox32(words, shape):
    n = math.prod(shape)
    blocks = -(-n // 4)
    return _interleave(_philox_blocks(words, blocks), n, shape), blocks


def _philox64(words, shape):
    n = math.prod(shape)
    blocks = -(-n // 2)
    out = _philox_blocks(words, blocks)
    return _interleave([_join64(out[0], out[1]), _join64(out[2], out[3])], n, shape), blocks


def _join64(low, high):
    u64 = np.dtype(np.uint64)
    return E.bitwise_or(astype(low, u64), E.left_shift(astype(high, u64), np.uint64(32)))


def _threefry_counts(words, count):
    """Threefry on the 64-bit counters s1 + i for i < count, keyed by s0."""
    low, carry = _add_with_carry(_spread(words[2], count), iota(U32, count))
    high = E.add(words[3], carry)
    return threefry2x32(_spread(words[0], count), _spread(words[1], count), low, high)


def _split_in_halves(shape):
    """XLA's choice: halve the first even axis, else the longest one (a scalar as 2 -> 1)."""
    if not shape:
        return (1,), 0
    axis = next((i for i, d in enumerate(shape) if d % 2 == 0), None)
    if axis is None:
        axis = max(range(len(shape)), key=lambda i: (shape[i], -i))
    half = list(shape)
    half[axis] = -(-shape[axis] // 2)
    return tuple(half), axis


def _threefry32(words, shape):
    from .numpy._shape import stack
    half, axis = _split_in_halves(shape)
    count = math.prod(half)
    first, second = _threefry_counts(words, count)
    if not shape:
        return reshape(first, ()), count
    pairs = stack([reshape(first, half), reshape(second, half)], axis=axis + 1)
    even = list(shape)
    even[axis] = 2 * half[axis]
    pairs = reshape(pairs, tuple(even))
    return pairs[tuple(slice(0, d) for d in shape)], count


def _threefry64(words, shape):
    count = math.prod(shape)
    first, second = _threefry_counts(words, count)
    return reshape(_join64(first, second), shape), count
