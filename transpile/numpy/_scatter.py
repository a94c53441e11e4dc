"""Scatters: `x.at[index].set/add/multiply/min/max(values)` where the index holds integer
arrays (or strided slices), `put_along_axis`, and `bincount`/`histogram` built on them.

Every form becomes one `scatter` primitive on the flattened array: the flat position of
each indexed element (NumPy's advanced-indexing layout, -1 where an index is out of range,
which the scatter drops, as JAX does for updates) and the values broadcast to the indexed
shape. Updates apply in row-major order of the indexed shape: `add` accumulates every
duplicate, and for `set` the last duplicate wins (JAX leaves that choice unspecified).
"""
from __future__ import annotations

import math

import numpy as np

from .. import dtypes
from .. import primitives as P
from ..core import Tracer, aval_of, bind
from . import _elementwise as E
from ._indexing import ellipsis_between_arrays
from ..base.iota import broadcasted_iota
from ..base.operands import astype, broadcast_to, normalize_axis, operand, reshape, shape_of

_MODES = {"set": "set", "add": "add", "multiply": "mul", "min": "min", "max": "max"}


def needs_scatter(key: tuple) -> bool:
    """Does this `.at[...]` index need a scatter (an array entry or a strided slice)?"""
    for k in key:
        if isinstance(k, (list, tuple)) or (isinstance(k, (np.ndarray, Tracer)) and k.ndim > 0):
            return True
        if isinstance(k, slice) and k.step not in (None, 1):
            return True
    return False


def scatter_update(x, key: tuple, values, how: str, clip: bool = False):
    """x with `values` combined in at x[key] (NumPy's advanced indexing) by `how`."""
    x = operand(x)
    entries = _expanded(key, len(shape_of(x)))
    positions, indexed_shape = _flat_positions(shape_of(x), entries, clip,
                                               ellipsis_between_arrays(key))
    values = operand(values)
    if np.broadcast_shapes(shape_of(values), indexed_shape) != indexed_shape:
        raise ValueError(f"x.at[...]: values of shape {shape_of(values)} cannot be broadcast "
                         f"to the indexed shape {indexed_shape} (array of shape {shape_of(x)})")
    if math.prod(indexed_shape) == 0 or math.prod(shape_of(x)) == 0:
        return x if isinstance(x, Tracer) else x.copy()    # eagerly never the input itself
    updates = astype(broadcast_to(values, indexed_shape), aval_of(x).dtype)
    flat_positions = reshape(broadcast_to(positions, indexed_shape), (-1,))
    return bind(P.scatter, x, astype(flat_positions, dtypes.int64), reshape(updates, (-1,)),
                mode=_MODES[how])


def _expanded(key: tuple, ndim: int) -> list:
    from ._indexing import _boolean_to_integer
    from ._shape import _expand_ellipsis
    entries = []
    for k in key:
        if isinstance(k, (list, tuple)):
            k = operand(k)          # a list may hold traced integers (jit flattens it)
        if isinstance(k, (np.ndarray, Tracer)) and k.dtype == np.bool_ and k.ndim > 0:
            entries.extend(_boolean_to_integer(k))
        else:
            entries.append(k)
    if any(k is None for k in entries):
        raise TypeError("x.at[...] does not accept None (newaxis) in the index")
    return list(_expand_ellipsis(tuple(entries), ndim))


def _flat_positions(shape: tuple, entries: list, clip: bool, apart: bool = False):
    """The flat position in x of every element of x[entries] (-1: dropped), and its shape.
    `apart`: the array indices count as not adjacent (see ellipsis_between_arrays)."""
    advanced = [d for d, k in enumerate(entries) if not isinstance(k, slice)]
    arrays = [_index_array(entries[d]) for d in advanced]
    block = np.broadcast_shapes(*(shape_of(a) for a in arrays)) if arrays else ()
    sliced = {d: range(*k.indices(shape[d])) for d, k in enumerate(entries)
              if isinstance(k, slice)}
    adjacent = advanced == list(range(advanced[0], advanced[0] + len(advanced))) \
        if advanced and not apart else not advanced
    first = advanced[0] if advanced and adjacent else 0
    # Output axes: slice axes before the block, the block, the remaining slice axes.
    before = [d for d in sliced if d < first] if adjacent else []
    after = [d for d in sliced if d not in before]
    out_shape = tuple(len(sliced[d]) for d in before) + tuple(block) + \
        tuple(len(sliced[d]) for d in after)
    axis_of = {d: i for i, d in enumerate(before)}
    axis_of.update({d: len(before) + len(block) + i for i, d in enumerate(after)})
    strides = [math.prod(shape[d + 1:]) for d in range(len(shape))]
    flat, valid = np.zeros((), np.int64), None
    for d, r in sliced.items():
        placed = [1] * len(out_shape)
        placed[axis_of[d]] = len(r)
        flat = flat + np.asarray(r, np.int64).reshape(placed) * strides[d]
    block_at = (1,) * len(before)
    for d, index in zip(advanced, arrays):
        # Index arrays broadcast against each other aligned at their last axes (NumPy's rule).
        in_block = (1,) * (len(block) - len(shape_of(index))) + shape_of(index)
        index = reshape(index, block_at + in_block + (1,) * (len(out_shape) - len(block_at)
                                                             - len(block)))
        n = shape[d]
        wrapped = E.where(E.less(index, 0), E.add(index, n), index)
        if clip:
            wrapped = E.minimum(E.maximum(wrapped, 0), max(n - 1, 0))
        else:
            ok = E.logical_and(E.greater_equal(index, -n), E.less(index, n))
            valid = ok if valid is None else E.logical_and(valid, ok)
        flat = E.add(flat, E.multiply(wrapped, strides[d]))
    if valid is not None:
        flat = E.where(valid, flat, -1)
    return flat, out_shape


def _index_array(k):
    k = operand(k)
    if not dtypes.is_int(aval_of(k).dtype):
        raise IndexError(f"arrays used as indices must be of integer (or boolean) type, got "
                         f"{aval_of(k).dtype}")
    return astype(k, dtypes.int64)


def put_along_axis(arr, indices, values, axis, inplace=True, mode=None):
    """JAX's put_along_axis (inplace=False is required, as in JAX): arr with values written
    at take_along_axis's positions."""
    if inplace:
        raise ValueError("put_along_axis: transpile arrays are immutable; pass inplace=False "
                         "(as jax.numpy requires)")
    arr, indices = operand(arr), astype(operand(indices), dtypes.int64)
    if axis is None:
        arr2 = reshape(arr, (-1,))
        return reshape(put_along_axis(arr2, reshape(indices, (-1,)), values, 0, False, mode),
                       shape_of(arr))
    shape = shape_of(arr)
    ax = normalize_axis(axis, len(shape))
    if len(shape_of(indices)) != len(shape):
        raise ValueError(f"put_along_axis: indices of shape {shape_of(indices)} and array of "
                         f"shape {shape} need the same number of dimensions")
    key = []
    for d in range(len(shape)):
        if d == ax:
            key.append(indices)
        else:
            placed = [1] * len(shape)
            placed[d] = shape[d]
            key.append(reshape(broadcasted_iota(dtypes.int64, (shape[d],), 0), tuple(placed)))
    return scatter_update(arr, tuple(key), values, "set", clip=mode == "clip")


def bincount(x, weights=None, minlength=0, *, length=None):
    """Counts (or summed weights) of each non-negative integer in the 1-d x. `length` must be
    static under jit (as in JAX); negative values count in bin 0, as in JAX (NumPy raises)."""
    from ._creation import zeros
    x = operand(x)
    if aval_of(x).dtype == dtypes.bool_:     # NumPy and JAX count booleans as 0 and 1
        x = astype(x, dtypes.int8)
    if len(shape_of(x)) != 1 or not dtypes.is_int(aval_of(x).dtype):
        raise ValueError(f"bincount: x must be a 1-d integer array, got "
                         f"{aval_of(x).str_short()}")
    if length is None:
        if isinstance(x, Tracer):
            raise TypeError("bincount: the result length depends on the values of x; pass a "
                            "static length= (as jax.numpy requires under jit)")
        # negative values count in bin 0, so all-negative x still has one bin (as JAX)
        length = max(int(minlength), max(int(np.max(x)), 0) + 1 if x.size else 0)
    length = int(length)
    if weights is None:
        out, values = zeros(length, dtypes.default_int()), 1
    else:
        values = operand(weights)
        if shape_of(values) != shape_of(x):
            raise ValueError(f"bincount: weights of shape {shape_of(values)} differ from x's "
                             f"shape {shape_of(x)}")
        out = zeros(length, dtypes.default_float())
    return scatter_update(out, (E.maximum(x, 0),), values, "add")


def histogram(a, bins=10, range=None, weights=None, density=None):
    """NumPy's histogram with static bins (a count or the edges); the range may be traced."""
    from ._sorting import searchsorted
    a = reshape(operand(a), (-1,))
    edges = _bin_edges(a, bins, range)
    nbins = shape_of(edges)[0] - 1
    last = E.equal(a, edges[nbins])
    inside = E.logical_and(E.greater_equal(a, edges[0]), E.less_equal(a, edges[nbins]))
    if isinstance(bins, (int, np.integer)) and nbins > _SEARCH_UP_TO:
        index = _uniform_bin(a, edges, nbins, inside)
    else:
        index = E.where(last, nbins - 1, E.subtract(searchsorted(edges, a, side="right"), 1))
    index = E.where(inside, index, nbins)      # past the end: dropped by the scatter
    from ._creation import zeros
    if weights is None:
        # NumPy counts in its default int; JAX in a's inexact dtype (ones as weights)
        count_dt = dtypes.float_for_integers(aval_of(a).dtype) if dtypes.config.jax_rules() \
            else dtypes.default_int()
        counts = scatter_update(zeros(nbins, count_dt), (index,), 1, "add")
    else:
        w = reshape(operand(weights), (-1,))
        counts = scatter_update(zeros(nbins, np.result_type(aval_of(w).dtype)), (index,), w,
                                "add")
    if density:
        from ._reductions import sum
        widths = E.subtract(edges[1:], edges[:-1])
        counts = E.divide(E.divide(counts, sum(counts)), widths)
    return counts, edges


# Up to this many bins, finding each value's bin among the edges (searchsorted counts the
# edges before it: one vectorised pass over them) is cheap; beyond, its cost grows with the
# bins (NPBench's azimint_hist: 1000 bins, 400k values, 4e8 comparisons), and equal bins
# are found by arithmetic instead.
_SEARCH_UP_TO = 16


def _uniform_bin(a, edges, nbins: int, inside):
    """The bin of each value inside equal-width edges, as NumPy's histogram finds it: scaled
    from the range, truncated, then moved down or up one where rounding put it past an edge
    (so the bins agree with comparisons against `edges`, the last bin closed)."""
    from ._indexing import take
    lo, hi = edges[0], edges[nbins]
    scaled = E.multiply(E.divide(E.subtract(a, lo), E.subtract(hi, lo)), nbins)
    index = astype(E.where(inside, scaled, 0), dtypes.int64)    # NaN and outside: bin 0
    index = E.minimum(index, nbins - 1)
    index = E.where(E.less(a, take(edges, index)), E.subtract(index, 1), index)
    above = E.logical_and(E.greater_equal(a, take(edges, E.add(index, 1))),
                          E.not_equal(index, nbins - 1))
    return E.where(above, E.add(index, 1), index)


def _edges_dtype(sample_dtype):
    """The dtype of bin edges: the samples' float dtype, else float64; under JAX's rules
    JAX's inexact dtype for the samples (float32 for int32 samples), given edges included."""
    if dtypes.config.jax_rules():
        from .. import dtypes_jax
        return dtypes_jax.to_inexact(sample_dtype, False)[0]
    return sample_dtype if dtypes.is_float(sample_dtype) else dtypes.float64


def _bin_edges(a, bins, range):
    dt = _edges_dtype(aval_of(a).dtype)
    if not isinstance(bins, (int, np.integer)):
        edges = operand(bins)
        if isinstance(edges, Tracer):
            raise TypeError("histogram: bin edges must be static (a list or NumPy array)")
        return np.asarray(edges).astype(dt) if dtypes.config.jax_rules() else np.asarray(edges)
    if range is not None and not any(isinstance(r, Tracer) for r in range):
        lo, hi = range
        if hi == lo:
            lo, hi = lo - 0.5, hi + 0.5
        return np.linspace(lo, hi, int(bins) + 1, dtype=np.result_type(lo, hi, np.zeros(0, dt)))
    from ._reductions import max, min
    lo, hi = (astype(r, dt) for r in range) if range is not None else (astype(min(a), dt),
                                                                      astype(max(a), dt))
    same = E.equal(lo, hi)
    lo, hi = E.where(same, E.subtract(lo, 0.5), lo), E.where(same, E.add(hi, 0.5), hi)
    steps = astype(broadcasted_iota(dtypes.int64, (int(bins) + 1,), 0), dt)
    edges = E.add(E.multiply(steps, E.divide(E.subtract(hi, lo), int(bins))), lo)
    return E.where(E.equal(steps, int(bins)), hi, edges)


def histogram_bin_edges(a, bins=10, range=None, weights=None):
    """The edges histogram would use (static bins; the range may be traced)."""
    return _bin_edges(reshape(operand(a), (-1,)), bins, range)


def digitize(x, bins, right=False, *, method=None):
    """The bin of each x among the 1-d monotonic bins, as NumPy's (increasing or decreasing;
    for traced bins the direction is chosen at run time). JAX's `method` (its searchsorted
    algorithm) is checked and otherwise changes nothing: one search serves all."""
    if method not in (None, "scan", "scan_unrolled", "sort", "compare_all"):
        raise ValueError(f"digitize: method must be one of 'scan', 'scan_unrolled', 'sort', "
                         f"'compare_all', got {method!r}")
    from ._sorting import searchsorted
    from ._shape import flip
    x, bins = operand(x), operand(bins)
    if len(shape_of(bins)) != 1:
        raise ValueError(f"digitize: bins must be 1-d, got shape {shape_of(bins)}")
    n = shape_of(bins)[0]
    side = "left" if right else "right"
    if n == 0:     # every x in bin 0, in the dtype the searches below would give
        return astype(E.multiply(x, 0), dtypes.int32 if dtypes.config.jax_rules()
                      else dtypes.int64)
    increasing = searchsorted(bins, x, side=side)
    decreasing = E.subtract(n, searchsorted(flip(bins, 0), x, side=side))
    if not isinstance(bins, Tracer):
        return increasing if bins[-1] >= bins[0] else decreasing
    return E.where(E.greater_equal(bins[n - 1], bins[0]), increasing, decreasing)
