"""Integer bit operations that are built from wider words (`jnp.bitwise_count`,
`lax.population_count`, `lax.clz`, `lax.mulhi`) in every integer width, eager and compiled,
under NumPy's rules and JAX's with 64-bit mode off and on.

Under JAX's rules with 64-bit mode off a 64-bit word is canonicalised to 32 bits, so a bit
count computed on 64-bit words gave 0 for every input (found by a gymnax-style bitboard
program) and mulhi of int32 through an int64 product gave 0; each must work in the operand's
own width.
"""
from __future__ import annotations

import numpy as np
import pytest

import transpile as tp
import transpile.numpy as tnp
from transpile import lax

INT_DTYPES = [np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64, np.uint64]
MODES = [("numpy", True), ("jax", False), ("jax", True)]


def _values(dt):
    info = np.iinfo(dt)
    return np.array([0, 1, 3, 5, 100, 0x55, info.min, info.max, info.max // 3], dtype=dt)


def _dtypes_for(x64):
    return [dt for dt in INT_DTYPES if x64 or np.dtype(dt).itemsize < 8]


def _expected_popcount(v):
    """JAX's population_count counts the two's-complement bits, in the operand's dtype."""
    return np.bitwise_count(v.view(f"u{v.dtype.itemsize}")).astype(v.dtype)


def _expected_clz(v):
    width = 8 * v.dtype.itemsize
    bit_length = np.array([int(u).bit_length() for u in v.view(f"u{v.dtype.itemsize}")])
    return (width - bit_length).astype(v.dtype)


def _counts(*arrays):
    return [(tnp.bitwise_count(a), lax.population_count(a), lax.clz(a)) for a in arrays]


@pytest.mark.parametrize("rules,x64", MODES)
@pytest.mark.parametrize("compiled", [False, True], ids=["eager", "jit"])
def test_bit_counts_every_width(rules, x64, compiled):
    with tp.config.settings(transpile_dtype_rules=rules, jax_enable_x64=x64):
        arrays = [_values(dt) for dt in _dtypes_for(x64)]
        counts = (tp.jit(_counts) if compiled else _counts)(*arrays)
        for v, (bitwise, pop, clz) in zip(arrays, counts):
            np.testing.assert_array_equal(np.asarray(bitwise), np.bitwise_count(v),
                                          err_msg=f"bitwise_count {v.dtype}")
            assert np.asarray(bitwise).dtype == np.uint8
            np.testing.assert_array_equal(np.asarray(pop), _expected_popcount(v),
                                          err_msg=f"population_count {v.dtype}")
            assert np.asarray(pop).dtype == v.dtype
            np.testing.assert_array_equal(np.asarray(clz), _expected_clz(v),
                                          err_msg=f"clz {v.dtype}")


@pytest.mark.parametrize("rules,x64", MODES)
def test_bitwise_count_of_bools(rules, x64):
    with tp.config.settings(transpile_dtype_rules=rules, jax_enable_x64=x64):
        b = np.array([True, False, True])
        for f in (tnp.bitwise_count, tp.jit(tnp.bitwise_count)):
            got = np.asarray(f(b))
            np.testing.assert_array_equal(got, np.array([1, 0, 1], np.uint8))
            assert got.dtype == np.uint8


def _expected_mulhi(x, y):
    bits = 8 * x.dtype.itemsize
    high = [((int(a) * int(b)) >> bits) % 2**bits for a, b in zip(x, y)]
    return np.array(high, dtype=np.uint64).astype(f"u{bits // 8}").view(x.dtype)


@pytest.mark.parametrize("rules,x64", MODES)
def test_mulhi_every_width(rules, x64):
    rng = np.random.default_rng(7)
    with tp.config.settings(transpile_dtype_rules=rules, jax_enable_x64=x64):
        pairs = []
        for dt in _dtypes_for(x64):
            info = np.iinfo(dt)
            x = rng.integers(info.min, info.max, 64, dtype=dt, endpoint=True)
            y = rng.integers(info.min, info.max, 64, dtype=dt, endpoint=True)
            x[:3], y[:3] = [info.min, info.max, info.min], [info.max, info.min, info.min]
            pairs.append((x, y))
        compiled = tp.jit(lambda *ps: [lax.mulhi(x, y) for x, y in ps])(*pairs)
        for (x, y), got_jit in zip(pairs, compiled):
            want = _expected_mulhi(x, y)
            np.testing.assert_array_equal(np.asarray(lax.mulhi(x, y)), want,
                                          err_msg=f"eager {x.dtype}")
            np.testing.assert_array_equal(np.asarray(got_jit), want, err_msg=f"jit {x.dtype}")
