"""`x.at[idx].set(v)` and friends: functional updates of traced arrays, as in JAX.

An update writes a window found by `dynamic_update_slice`. As in JAX, reads with
out-of-bounds traced indices clamp, while updates at out-of-bounds indices are dropped:
the array comes back unchanged (the clamped window is written back as it was).
"""
from __future__ import annotations

import numpy as np

from ..core import Tracer, aval_of
from ..eager_array import register_index_update_helper, reject_sequence_index
from . import _elementwise as E
from ._shape import _expand_ellipsis, _is_scalar_bool, _selection_shape, getitem, traced_start
from ..base.operands import astype, broadcast_to, check_ints_fit_loop, operand, reshape
from ..base.slicing import dynamic_slice, dynamic_update_slice


class IndexUpdateHelper:
    __slots__ = ("array",)

    def __init__(self, array):
        self.array = array

    def __getitem__(self, index):
        reject_sequence_index(index)
        return IndexUpdateRef(self.array, index)


register_index_update_helper(IndexUpdateHelper)   # eager arrays' `.at` (eager_array.py)


class IndexUpdateRef:
    __slots__ = ("array", "index")

    def __init__(self, array, index):
        self.array, self.index = array, index if isinstance(index, tuple) else (index,)

    def get(self, *, indices_are_sorted=False, unique_indices=False, mode=None,
            fill_value=None):
        """The indexed values. `mode` says what an out-of-bounds integer index reads, as in
        JAX: None or 'promise_in_bounds' as indexing does, 'clip' the nearest element,
        'fill' (or 'drop') `fill_value` (default: NaN, or the integer type's extreme)."""
        if mode in (None, "promise_in_bounds"):
            return getitem(self.array, self.index)
        if mode not in ("clip", "fill", "drop"):
            raise ValueError(f"at[].get: mode must be 'promise_in_bounds', 'clip', 'fill' or "
                             f"'drop', got {mode!r}")
        return _get_out_of_bounds(self.array, self.index, mode == "clip", fill_value)

    def set(self, values, *, indices_are_sorted=False, unique_indices=False, mode=None):
        return self._update(values, lambda old, new: new, "set", mode)

    def add(self, values, *, indices_are_sorted=False, unique_indices=False, mode=None):
        return self._update(values, E.add, "add", mode)

    def subtract(self, values, *, indices_are_sorted=False, unique_indices=False, mode=None):
        # A scatter-add of the negated values: duplicates subtract each time, as in JAX.
        from ._scatter import needs_scatter
        if needs_scatter(self.index):
            return self._update(E.negative(operand(values)), E.add, "add", mode)
        return self._update(values, E.subtract, "add", mode)

    def multiply(self, values, *, indices_are_sorted=False, unique_indices=False, mode=None):
        from ._scatter import needs_scatter
        if unique_indices and needs_scatter(self.index):
            # Promised unique: each position is multiplied once, so the product can be read,
            # multiplied and written back, which differentiates in the updates too (JAX's
            # scatter-multiply rule needs the same promise).
            dtype = aval_of(operand(self.array)).dtype
            product = E.multiply(getitem(self.array, self.index), astype(operand(values), dtype))
            return self.set(product, mode=mode)
        return self._update(values, E.multiply, "multiply", mode)

    mul = multiply                  # JAX's older name, still accepted by jax 0.10

    def divide(self, values, *, indices_are_sorted=False, unique_indices=False, mode=None):
        # JAX's definition: x divided by ones with the values multiplied in at the index.
        return E.divide(self.array, self._ones_multiplied(values, mode))

    def power(self, values, *, indices_are_sorted=False, unique_indices=False, mode=None):
        return E.power(self.array, self._ones_multiplied(values, mode))

    def apply(self, func, *, indices_are_sorted=False, unique_indices=False, mode=None):
        """x with func applied at the index, once per time a position is indexed (JAX's
        scatter applies it per update, as NumPy's ufunc.at does)."""
        from ._scatter import needs_scatter
        if not needs_scatter(self.index):       # integers and slices name each position once
            return self.set(func(self.get()), mode=mode)
        return _apply_per_occurrence(operand(self.array), self.index, func, mode)

    def _update_through_scalar_bools(self, values, combine, how, mode):
        """A scalar True in the index adds a length-1 axis, a False an empty one (NumPy's
        rule): with a False nothing is selected; without, the update is the one the index
        minus its Trues makes, with the values reshaped to that selection."""
        x = operand(self.array)
        if not all(bool(k) for k in self.index if _is_scalar_bool(k)):
            return x if isinstance(x, Tracer) else x.copy()
        rest = tuple(k for k in self.index if not _is_scalar_bool(k))
        shape_of_selection = _selection_shape(aval_of(x).shape, self.index)
        values = reshape(broadcast_to(operand(values), shape_of_selection),
                         _selection_shape(aval_of(x).shape, rest))
        return IndexUpdateRef(x, rest)._update(values, combine, how, mode)

    def _update_through_new_axes(self, values, combine, how, mode):
        """None (newaxis) in the index: update x with those length-1 axes added, each taken
        whole, then drop them again."""
        x = operand(self.array)
        key = _expand_ellipsis(self.index, aval_of(x).ndim)
        shape, spelled, dim = [], [], 0
        for k in key:
            if k is None:
                shape.append(1)
                spelled.append(slice(None))
                continue
            taken = np.ndim(k) if getattr(k, "dtype", None) == np.bool_ else 1
            shape.extend(aval_of(x).shape[dim:dim + taken])
            dim += taken
            spelled.append(k)
        widened = reshape(x, tuple(shape) + aval_of(x).shape[dim:])
        updated = IndexUpdateRef(widened, tuple(spelled))._update(values, combine, how, mode)
        return reshape(updated, aval_of(x).shape)

    def _ones_multiplied(self, values, mode):
        from ._creation import ones_like
        return IndexUpdateRef(ones_like(self.array), self.index).multiply(values, mode=mode)

    def min(self, values, *, indices_are_sorted=False, unique_indices=False, mode=None):
        return self._update(values, E.minimum, "min", mode)

    def max(self, values, *, indices_are_sorted=False, unique_indices=False, mode=None):
        return self._update(values, E.maximum, "max", mode)

    def _update(self, values, combine, how="set", mode=None):
        from ._scatter import needs_scatter, scatter_update
        x = self.array
        if any(_is_scalar_bool(k) for k in self.index):
            return self._update_through_scalar_bools(values, combine, how, mode)
        if any(k is None for k in self.index):
            return self._update_through_new_axes(values, combine, how, mode)
        check_ints_fit_loop([values], [aval_of(x).dtype])   # NumPy's x[i] = 300 on uint8 raises
        if needs_scatter(self.index):
            return scatter_update(x, self.index, values, how, clip=mode == "clip")
        key = _expand_ellipsis(self.index, x.ndim)
        if any(k is None for k in key):
            raise TypeError("x.at[...] does not accept None (newaxis) in the index")
        starts, sizes, traced = [], [], []
        for dim, k in enumerate(key):
            n = x.shape[dim]
            if isinstance(k, slice):
                start, stop, step = k.indices(n)
                if step != 1:
                    raise TypeError("x.at[...] supports integers and slices with step 1; use "
                                    "tnp.where for strided updates")
                starts.append(start)
                sizes.append(max(0, stop - start))
            else:
                starts.append(_traced_index(k, n) if isinstance(k, Tracer)
                              else _static_index(k, n))
                sizes.append(1)
                if isinstance(k, Tracer):
                    traced.append((k, n))
        if any(s is None for s in starts):
            # An index out of bounds (every index on an empty axis): dropped. Eagerly a copy,
            # so that the result is never the input (writing to one would change the other).
            return x if isinstance(x, Tracer) else x.copy()
        window = dynamic_slice(x, starts, sizes, allow_negative_indices=False)  # wrapped
        shown = tuple(n for n, k in zip(sizes, key) if isinstance(k, slice))
        # Combine first, then broadcast: a Python-int value beyond int64 (2**64 - 1 with a
        # uint64 array) takes the window's dtype in the combining op, as NumPy's does, and
        # never exists as an int64 array of its own (fuzzer seed 7495).
        value = operand(values)
        if how == "set":          # assignment casts the value to x's dtype, as NumPy's does
            value = astype(value, aval_of(x).dtype)
        new = combine(reshape(window, shown), value)
        new = astype(broadcast_to(new, shown), aval_of(x).dtype)
        if traced:
            # Out of bounds, the (clamped) window is written back unchanged: the update stays
            # one dynamic_update_slice, which buffer assignment can turn into a store in place.
            new = E.where(_in_bounds(traced), new, reshape(window, shown))
        return dynamic_update_slice(x, reshape(new, tuple(sizes)), starts,
                                    allow_negative_indices=False)


def _in_bounds(traced):
    in_bounds = None
    for k, n in traced:
        ok = E.logical_and(E.greater_equal(k, -n), E.less(k, n))
        in_bounds = ok if in_bounds is None else E.logical_and(in_bounds, ok)
    return in_bounds


def _traced_index(k, n):
    """None on an empty axis, where every index is out of bounds."""
    return traced_start(k, n) if n > 0 else None


def _static_index(k, n):
    i = k.__index__()
    return i % n if -n <= i < n else None


def _get_out_of_bounds(x, index, clip: bool, fill_value):
    """Indexing where out-of-bounds integer indices clamp (`clip`) or read `fill_value`: the
    filled read pads each integer-indexed axis with one element holding the fill value and
    sends every out-of-bounds index there."""
    from ._indexing import _default_fill
    from ._manipulation import _pad_constant
    x = operand(x)
    key = _expand_ellipsis(index, aval_of(x).ndim)
    dims, new_key = iter(range(aval_of(x).ndim)), []
    for k in key:
        if k is None:
            new_key.append(k)
            continue
        dim = next(dims)
        new_key.append(_bounded_index(k, aval_of(x).shape[dim], clip) if _is_integer_index(k)
                       else k)
    if clip:
        return getitem(x, tuple(new_key))
    padded = [dim for dim, k in zip(range(aval_of(x).ndim), [k for k in key if k is not None])
              if _is_integer_index(k)]
    fill = astype(_default_fill(aval_of(x).dtype, fill_value), aval_of(x).dtype)
    widths = [(0, 1) if dim in padded else (0, 0) for dim in range(aval_of(x).ndim)]
    return getitem(_pad_constant(x, widths, fill), tuple(new_key))


def _is_integer_index(k) -> bool:
    if isinstance(k, (bool, slice)) or k is Ellipsis:
        return False
    if isinstance(k, int):
        return True
    if isinstance(k, list):
        k = operand(k)
    dt = getattr(k, "dtype", None)
    return dt is not None and np.dtype(dt).kind in "iu"


def _bounded_index(k, n: int, clip: bool):
    """A negative index counts from the end; then one past the end stands for out of bounds
    (the padded fill element), or the index clamps into [0, n-1]."""
    if isinstance(k, (int, np.integer)):          # a static index stays static
        k = int(k) + n if k < 0 else int(k)
        return min(max(k, 0), max(n - 1, 0)) if clip else (k if 0 <= k < n else n)
    k = operand(k)
    k = E.where(E.less(k, 0), E.add(k, n), k)
    if clip:
        return E.clip(k, 0, max(n - 1, 0))
    return E.where(E.logical_and(E.greater_equal(k, 0), E.less(k, n)), k, n)


def _apply_per_occurrence(x, index, func, mode):
    """Count how often the index names each position, then apply func that many times
    where the count allows (a loop as long as the largest count)."""
    from ._creation import zeros
    from ._reductions import max as _max
    from ..base.control_flow import fori_loop
    counts = IndexUpdateRef(zeros(aval_of(x).shape, np.int32), index).add(1, mode=mode)

    def once_more(i, y):
        return E.where(E.greater(counts, i), astype(func(y), aval_of(y).dtype), y)
    return fori_loop(0, _max(counts, initial=0), once_more, x)
