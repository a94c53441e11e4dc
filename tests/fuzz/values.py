"""Random inputs: every dtype, edge values, views that are not contiguous, Python scalars."""
from __future__ import annotations

import numpy as np

DTYPES = [np.dtype(t) for t in (np.bool_, np.int8, np.int16, np.int32, np.int64, np.uint8,
                                np.uint16, np.uint32, np.uint64, np.float32, np.float64)]
# Complex programs (seeds from generate.COMPLEX_SEEDS) draw these besides DTYPES.
COMPLEX_DTYPES = [np.dtype(np.complex64), np.dtype(np.complex128)]
# float16 programs (seeds from generate.HALF_SEEDS) draw it besides DTYPES.
HALF_DTYPE = np.dtype(np.float16)

# Below 1 << 15 elements the C renderer emits serial loops (loop_schedule.CpuTarget.parallel_min_elements);
# iterated kernels go parallel from 1 << 9. Shapes sit on both sides of both thresholds.
SMALL_SHAPES = [(), (1,), (5,), (7,), (3, 4), (4, 1), (1, 6), (2, 3, 4), (3, 1, 5), (2, 2, 2, 3)]
MEDIUM_SHAPES = [(600,), (30, 40), (8, 9, 10)]
BIG_SHAPES = [(40000,), (200, 190), (2200, 5, 3), (34, 33, 30)]
BIG_ELEMENTS = 1 << 15

LAYOUTS = ["contiguous", "strided", "reversed", "transposed"]

# Python literals at the edges of every dtype's range (and just past them).
INT_EDGES = [0, 1, -1, 2, 3, -7, 127, 128, -128, -129, 255, 256, 1000, -1000, 32767, 65535,
             65536, 2**31 - 1, 2**31, -2**31, 2**32 - 1, 2**32, 2**53 + 1, 2**63 - 1, -2**63,
             2**64 - 1, 2**64, -2**63 - 1]
FLOAT_EDGES = [0.0, -0.0, 0.5, -0.5, 1.5, 2.5, -2.5, 3.0, 0.1, 1e-40, 1e-320, 3.5e38, -3.5e38,
               1e300, -1e300, float("inf"), float("-inf"), float("nan"), 2.0**63, 2.0**64]
BOOL_EDGES = [True, False]


def edge_values(dtype: np.dtype) -> list:
    """The values that break code most often, for one dtype."""
    if dtype == np.bool_:
        return [True, False]
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        vals = [0, 1, 2, 3, 7, info.max, info.max - 1, info.max // 2 + 1]
        if dtype.kind == "i":
            vals += [-1, -2, -7, info.min, info.min + 1]
        return vals
    info = np.finfo(dtype)
    return [0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 1.5, 2.5, -2.5, 0.1, -7.25, 100.0,
            float(info.smallest_subnormal), float(info.tiny), float(info.max), float(-info.max),
            np.inf, -np.inf, np.nan, 2.0**31, -2.0**31 - 1.0, 2.0**63]


def random_values(rng, dtype: np.dtype, n: int, edgy: float) -> np.ndarray:
    """n values of dtype: small ordinary ones, a fraction `edgy` of edge values."""
    if dtype.kind == "c":              # independent parts, each with its float edges
        part = np.dtype(np.float32 if dtype == np.complex64 else np.float64)
        out = random_values(rng, part, n, edgy).astype(dtype)
        out.imag = random_values(rng, part, n, edgy)
        return out
    if dtype == np.bool_:
        out = rng.random(n) < 0.5
    elif dtype.kind in "iu":
        info = np.iinfo(dtype)
        lo, hi = max(info.min, -20), min(info.max, 20)
        out = rng.integers(lo, hi, size=n, endpoint=True).astype(dtype)
        wide = rng.random(n) < edgy / 2
        out[wide] = rng.integers(info.min, info.max, size=int(wide.sum()), dtype=dtype,
                                 endpoint=True)
    else:
        out = (rng.standard_normal(n) * rng.choice([1.0, 4.0, 1e3])).astype(dtype)
    if dtype.kind == "f" and rng.random() < 0.25:
        # Mostly signed zeros: max/min must return NumPy's zero, sign included.
        pool = [0.0, -0.0] if rng.random() < 0.5 else [0.0, -0.0, -0.0, -1.0]
        return rng.choice(np.array(pool, dtype=dtype), size=n)
    with np.errstate(over="ignore"):          # float16: the float32 edges overflow to inf
        edges = np.array(edge_values(dtype), dtype=dtype)
    pick = rng.random(n) < edgy
    out[pick] = edges[rng.integers(0, len(edges), size=int(pick.sum()))]
    return out


def random_array(rng, dtype: np.dtype, shape: tuple, layout: str, edgy: float) -> np.ndarray:
    """An array of `shape`, built as the given kind of view of a bigger buffer."""
    n = int(np.prod(shape))
    if layout == "strided" and shape:
        axis = int(rng.integers(0, len(shape)))
        big = list(shape)
        big[axis] = 2 * shape[axis]
        base = random_values(rng, dtype, 2 * n, edgy).reshape(big)
        return base[(slice(None),) * axis + (slice(None, None, 2),)]
    if layout == "reversed" and shape:
        return random_values(rng, dtype, n, edgy).reshape(shape)[::-1]
    if layout == "transposed" and len(shape) >= 2:
        return random_values(rng, dtype, n, edgy).reshape(shape[::-1]).T
    return random_values(rng, dtype, n, edgy).reshape(shape)


def random_shape(rng, big: bool) -> tuple:
    if big:
        return BIG_SHAPES[int(rng.integers(0, len(BIG_SHAPES)))]
    if rng.random() < 0.12:
        return MEDIUM_SHAPES[int(rng.integers(0, len(MEDIUM_SHAPES)))]
    return SMALL_SHAPES[int(rng.integers(0, len(SMALL_SHAPES)))]


def random_literal(rng, kind: str):
    """A Python scalar: mostly ordinary, often at some dtype's edge."""
    if kind == "bool":
        return bool(rng.random() < 0.5)
    if kind == "int":
        if rng.random() < 0.5:
            return int(rng.integers(-5, 6))
        return INT_EDGES[int(rng.integers(0, len(INT_EDGES)))]
    if rng.random() < 0.4:
        return float(rng.choice([0.5, 2.0, -1.5, 3.25, 0.1, 10.0]))
    return FLOAT_EDGES[int(rng.integers(0, len(FLOAT_EDGES)))]


def is_big(x) -> bool:
    return isinstance(x, np.ndarray) and x.size >= BIG_ELEMENTS


def layout_of(x) -> str:
    if not isinstance(x, np.ndarray) or x.ndim == 0:
        return "scalar"
    if any(s < 0 for s in x.strides):
        return "reversed"
    if x.flags.c_contiguous:
        return "contiguous"
    return "non-contiguous"


class WeakArray(np.ndarray):
    """A reference value that JAX types weakly and that has axes (fuzz/jax_mode.py): it
    promotes as a Python scalar of its kind (stack(uint8, 1.0 / (u + 0.0), float32) is float32
    with x64). 0-d weak values are Python scalars instead. Only a marker: NumPy computes on
    it as on any array."""


def is_pyscalar(x) -> bool:
    """A Python number (weak in NumPy 2), not a NumPy scalar (np.float64 subclasses float)."""
    return type(x) in (bool, int, float)
