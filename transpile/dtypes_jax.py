"""JAX's dtype rules: its promotion lattice, weak types and 32/64-bit defaults.

Used by dtypes.py when ``transpile.config`` selects ``transpile_dtype_rules="jax"``. The
lattice is JAX's (its type-promotion design note): Python's int, float and complex are
"weak" nodes between bool and the sized dtypes, so a Python scalar takes its partner's
dtype, and a signed/unsigned join climbs to the next wider signed type, from 64 bits to the
weak float (JAX's answer to uint64 + int64). The least upper bound of the operands is the
result; when it is a weak node the result takes that kind's default dtype and stays weak.

With ``jax_enable_x64`` off every 64-bit dtype stands for its 32-bit one (JAX's
canonicalisation), and the defaults are int32/float32/complex64.
"""
from __future__ import annotations

import functools

import numpy as np

from .config import config
from .dtypes_half import bfloat16_or_none, is_bfloat16

bool_ = np.dtype(np.bool_)
int8, int16, int32, int64 = (np.dtype(t) for t in (np.int8, np.int16, np.int32, np.int64))
uint8, uint16, uint32, uint64 = (np.dtype(t) for t in (np.uint8, np.uint16, np.uint32, np.uint64))
float16, float32, float64 = np.dtype(np.float16), np.dtype(np.float32), np.dtype(np.float64)
complex64, complex128 = np.dtype(np.complex64), np.dtype(np.complex128)

# The weak nodes: what a Python scalar (or a weakly typed value) of each kind is.
WEAK_INT, WEAK_FLOAT, WEAK_COMPLEX = "int*", "float*", "complex*"
_WEAK_NODES = (WEAK_INT, WEAK_FLOAT, WEAK_COMPLEX)
# bfloat16's node: its dtype exists only once ml_dtypes is loaded (dtypes_half.py).
BFLOAT16 = "bfloat16"

# Each node's immediate successors in JAX's lattice (its float8 types omitted: not supported).
# The two 16-bit floats join at float32, so float16 + bfloat16 is float32, as in JAX.
_LATTICE = {
    bool_: [WEAK_INT],
    WEAK_INT: [uint8, int8],
    uint8: [int16, uint16], uint16: [int32, uint32], uint32: [int64, uint64], uint64: [WEAK_FLOAT],
    int8: [int16], int16: [int32], int32: [int64], int64: [WEAK_FLOAT],
    WEAK_FLOAT: [float16, BFLOAT16, WEAK_COMPLEX],
    float16: [float32], BFLOAT16: [float32],
    float32: [float64, complex64], float64: [complex128],
    WEAK_COMPLEX: [complex64], complex64: [complex128], complex128: [],
}

_NARROWED = {int64: int32, uint64: uint32, float64: float32, complex128: complex64}


def _upper_bounds(node) -> frozenset:
    seen, todo = set(), [node]
    while todo:
        n = todo.pop()
        if n not in seen:
            seen.add(n)
            todo.extend(_LATTICE[n])
    return frozenset(seen)


_UPPER = {node: _upper_bounds(node) for node in _LATTICE}


def canonical(dtype) -> np.dtype:
    """The dtype JAX stores a value of `dtype` in: 64-bit ones narrowed unless x64 is on."""
    dt = np.dtype(dtype)
    return dt if config.x64() else _NARROWED.get(dt, dt)


def default_dtype(kind: str) -> np.dtype:
    """The default dtype of a kind ('b', 'i', 'f', 'c'): JAX's int_/float_/complex_."""
    wide = {"b": bool_, "i": int64, "u": int64, "f": float64, "c": complex128}[kind]
    return canonical(wide)


def default_for_python_type(t: type) -> np.dtype:
    return default_dtype({bool: "b", int: "i", float: "f", complex: "c"}[t])


def _node(dtype, weak: bool):
    dt = canonical(dtype)
    if is_bfloat16(dt):
        return WEAK_FLOAT if weak else BFLOAT16
    if not weak or dt == bool_:
        return dt
    return {"i": WEAK_INT, "u": WEAK_INT, "f": WEAK_FLOAT, "c": WEAK_COMPLEX}[dt.kind]


def _least_upper_bound(nodes):
    common = frozenset.intersection(*(_UPPER[n] for n in nodes))
    return next(n for n in common if _UPPER[n] == common)


def _from_node(node) -> tuple[np.dtype, bool]:
    if node in _WEAK_NODES:
        return default_dtype({WEAK_INT: "i", WEAK_FLOAT: "f", WEAK_COMPLEX: "c"}[node]), True
    if node == BFLOAT16:
        return bfloat16_or_none(), False
    return canonical(node), False


@functools.lru_cache(maxsize=4096)
def _promote(key: tuple, x64: bool) -> tuple[np.dtype, bool]:
    return _from_node(_least_upper_bound({_node(d, w) for d, w in key}))


def promote(dtypes, weaks) -> tuple[np.dtype, bool]:
    """(result dtype, weak type) of JAX's promotion of operands of these dtypes/weak flags."""
    return _promote(tuple((np.dtype(d), bool(w)) for d, w in zip(dtypes, weaks)), config.x64())


def join(a, b) -> np.dtype:
    """JAX's `promote_types`: the lattice's join of two strongly typed dtypes, as written
    (not narrowed when x64 is off: JAX's promote_types(float64, int64) is float64)."""
    node_a, node_b = (BFLOAT16 if is_bfloat16(np.dtype(d)) else np.dtype(d) for d in (a, b))
    node = _least_upper_bound({node_a, node_b})
    if node == BFLOAT16:
        return bfloat16_or_none()
    return float64 if node == WEAK_FLOAT else np.dtype(node)   # unsigned with signed 64-bit


def to_inexact(dtype, weak: bool) -> tuple[np.dtype, bool]:
    """The floating dtype JAX computes an integer or bool value's transcendental in."""
    dt = np.dtype(dtype)
    if dt.kind in "fc" or is_bfloat16(dt):
        return dt, weak
    if weak:
        return default_dtype("f"), True
    return canonical(_TO_INEXACT[dt]), False


# JAX's dtypes.to_inexact_dtype for strong operands: the float that holds every value of the
# narrow integers exactly enough, float64 (narrowed without x64) for the 64-bit ones.
_TO_INEXACT = {bool_: float32, int8: float32, int16: float32, uint8: float32, uint16: float32,
               int32: float32, uint32: float32, int64: float64, uint64: float64}
