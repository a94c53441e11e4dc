"""Set operations on arrays: `unique` with its extra results (`return_index`,
`return_inverse`, `return_counts`, `axis`), the array-API `unique_*` forms, and `union1d`,
`intersect1d`, `setdiff1d`, `setxor1d`.

Results whose length depends on the values need a static `size=` under jit (as in JAX);
concrete arrays without one are answered by NumPy. The sized forms sort once (stably) and
keep the first entry of each run of equal values that passes a test.
"""
from __future__ import annotations

from collections import namedtuple

import numpy as np

from .. import dtypes
from ..core import Tracer, aval_of, current_trace
from . import _elementwise as E
from ..base.operands import astype, operand, reshape, shape_of

UniqueAllResult = namedtuple("UniqueAllResult", "values indices inverse_indices counts")
UniqueCountsResult = namedtuple("UniqueCountsResult", "values counts")
UniqueInverseResult = namedtuple("UniqueInverseResult", "values inverse_indices")


def _concrete(*xs) -> bool:
    return current_trace() is None and not any(isinstance(x, Tracer) for x in xs)


def _indices(values):
    return astype(np.asarray(values), dtypes.default_int())


def _sorted_runs(flat, equal_nan=True):
    """(stable sort order, sorted values, mask of each run's first entry)."""
    from ._shape import concatenate
    from ._sorting import argsort
    from ._indexing import take
    order = argsort(flat, stable=True)
    s = take(flat, order)
    new = E.not_equal(s[1:], s[:-1])
    if equal_nan and dtypes.is_inexact(aval_of(s).dtype):
        new = E.logical_and(new, E.logical_not(E.logical_and(E.isnan(s[1:]),
                                                             E.isnan(s[:-1]))))
    return order, s, concatenate([np.ones(1, bool), new])


def _first_of_runs(s, first, keep, size, fill_value):
    """The first `size` run heads of sorted `s` where `keep` holds, then fill_value (by
    default the first value found, as JAX), and their positions in s (n where missing)."""
    from ._indexing import gather
    from ._sorting import _positions_of_true
    n = shape_of(s)[0]
    mask = first if keep is None else E.logical_and(first, keep)
    pos = _positions_of_true(mask, size)
    values = gather(s, E.minimum(pos, n - 1), 0)
    if fill_value is None:
        fill = values[0] if size else s[0]
    else:
        fill = astype(fill_value, aval_of(s).dtype)
    return E.where(E.greater_equal(pos, n), fill, values), pos


def _run_lengths(first, size):
    """The lengths of the first `size` runs (0 past the last run)."""
    from ._shape import concatenate
    from ._sorting import _positions_of_true
    n = shape_of(first)[0]
    heads = _positions_of_true(first, max(size, n))
    ends = concatenate([heads[1:], np.full(1, n, np.int64)])
    lengths = E.where(E.less(heads, n), E.subtract(E.minimum(ends, n), heads), 0)
    return lengths[:size]


def unique(ar, return_index=False, return_inverse=False, return_counts=False, axis=None,
           *, equal_nan=True, size=None, fill_value=None, sorted=True):  # noqa: A002
    """The sorted distinct values, and optionally where each first occurs, how to rebuild
    the input from them, and how often each occurs."""
    ar = operand(ar)
    extras = return_index or return_inverse or return_counts
    if _concrete(ar) and size is None:
        out = np.unique(np.asarray(ar), return_index=return_index,
                        return_inverse=return_inverse, return_counts=return_counts,
                        axis=axis, equal_nan=equal_nan)
        if not extras:
            return out
        return (out[0],) + tuple(_indices(x) for x in out[1:])
    if axis is not None:
        raise NotImplementedError("unique: axis= under jit is not supported; call it on "
                                  "concrete arrays")
    from ._sorting import _require_size
    size = _require_size(size, "unique")
    flat = reshape(ar, (-1,))
    n = shape_of(flat)[0]
    if n == 0:
        raise ValueError("unique with size= needs a non-empty array")
    order, s, first = _sorted_runs(flat, equal_nan)
    values, pos = _first_of_runs(s, first, None, size, fill_value)
    if not extras:
        return values
    result = [values]
    int_dt = dtypes.default_int()
    if return_index:
        from ._indexing import gather
        index = gather(order, E.minimum(pos, n - 1), 0)
        result.append(astype(E.where(E.greater_equal(pos, n), order[0], index), int_dt))
    if return_inverse:
        from ._cumulative import cumsum
        from ._sorting import argsort
        from ._indexing import take
        group = E.subtract(cumsum(astype(first, np.int64)), 1)
        inverse = take(group, argsort(order))
        result.append(reshape(astype(inverse, int_dt), shape_of(ar)))
    if return_counts:
        result.append(astype(_run_lengths(first, size), int_dt))
    return tuple(result)


def unique_all(x, /, *, size=None, fill_value=None):
    values, indices, inverse, counts = unique(x, True, True, True, size=size,
                                              fill_value=fill_value, equal_nan=False)
    return UniqueAllResult(values, indices, inverse, counts)


def unique_counts(x, /, *, size=None, fill_value=None):
    values, counts = unique(x, return_counts=True, size=size, fill_value=fill_value,
                            equal_nan=False)
    return UniqueCountsResult(values, counts)


def unique_inverse(x, /, *, size=None, fill_value=None):
    values, inverse = unique(x, return_inverse=True, size=size, fill_value=fill_value,
                             equal_nan=False)
    return UniqueInverseResult(values, inverse)


def unique_values(x, /, *, size=None, fill_value=None):
    return unique(x, size=size, fill_value=fill_value, equal_nan=False)


def _set_operands(name, ar1, ar2):
    from ._dtype_api import result_type
    a, b = operand(ar1), operand(ar2)
    dt = result_type(a, b)
    return reshape(astype(a, dt), (-1,)), reshape(astype(b, dt), (-1,))


def _sized(name, size, candidates, keep_of_sorted, fill_value):
    from ._sorting import _require_size
    size = _require_size(size, name)
    if shape_of(candidates)[0] == 0:
        from ._creation import full
        fill = 0 if fill_value is None else fill_value
        return full((size,), fill, dtype=aval_of(candidates).dtype)
    _, s, first = _sorted_runs(candidates)
    return _first_of_runs(s, first, keep_of_sorted(s), size, fill_value)[0]


def union1d(ar1, ar2, *, size=None, fill_value=None):
    """The sorted distinct values in either array."""
    from ._shape import concatenate
    a, b = _set_operands("union1d", ar1, ar2)
    if _concrete(a, b) and size is None:
        return np.union1d(a, b)
    return _sized("union1d", size, concatenate([a, b]), lambda s: None, fill_value)


def intersect1d(ar1, ar2, assume_unique=False, return_indices=False, *, size=None,
                fill_value=None):
    """The sorted distinct values in both arrays."""
    from ._index_helpers import isin
    a, b = _set_operands("intersect1d", ar1, ar2)
    if _concrete(a, b) and size is None:
        out = np.intersect1d(a, b, assume_unique=assume_unique,
                             return_indices=return_indices)
        return (out[0], _indices(out[1]), _indices(out[2])) if return_indices else out
    if return_indices:
        raise NotImplementedError("intersect1d: return_indices under jit is not supported")
    return _sized("intersect1d", size, a, lambda s: isin(s, b), fill_value)


def setdiff1d(ar1, ar2, assume_unique=False, *, size=None, fill_value=None):
    """The sorted distinct values of ar1 that are not in ar2 (fill 0 by default)."""
    from ._index_helpers import isin
    a, b = _set_operands("setdiff1d", ar1, ar2)
    if _concrete(a, b) and size is None:
        return np.setdiff1d(a, b, assume_unique=assume_unique)
    return _sized("setdiff1d", size, a, lambda s: isin(s, b, invert=True),
                  0 if fill_value is None else fill_value)       # JAX's default: 0


def setxor1d(ar1, ar2, assume_unique=False, *, size=None, fill_value=None):
    """The sorted distinct values in exactly one of the arrays."""
    from ._index_helpers import isin
    from ._shape import concatenate
    a, b = _set_operands("setxor1d", ar1, ar2)
    if _concrete(a, b) and size is None:
        return np.setxor1d(a, b, assume_unique=assume_unique)
    return _sized("setxor1d", size, concatenate([a, b]),
                  lambda s: E.not_equal(isin(s, a), isin(s, b)), fill_value)
