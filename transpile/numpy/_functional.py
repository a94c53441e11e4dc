"""Functions applied over an array's structure: `apply_along_axis` (built on vmap, as in
JAX), `apply_over_axes`, `fromfunction`, `piecewise`, `choose`."""
from __future__ import annotations

import numpy as np

from .. import dtypes
from ..core import Tracer, aval_of
from . import _elementwise as E
from ..base.operands import astype, broadcast_to, normalize_axis, operand, shape_of


def apply_along_axis(func1d, axis, arr, *args, **kwargs):
    """func1d applied to every 1-d slice of arr along `axis`; the slices' results take that
    axis's place. Built on transpile.vmap, so func1d must be traceable."""
    from ..batching import vmap      # imported on call: batching is built on this package
    arr = operand(arr)
    ndim = len(shape_of(arr))
    axis = normalize_axis(axis, ndim)

    def func(x):
        return func1d(x, *args, **kwargs)
    for i in range(1, ndim - axis):
        func = vmap(func, in_axes=i, out_axes=-1)
    for _ in range(axis):
        func = vmap(func, in_axes=0, out_axes=0)
    return func(arr)


def apply_over_axes(func, a, axes):
    """func(a, axis) applied for each axis in turn; a result with one axis fewer gets it back
    (as length 1)."""
    from ._shape import expand_dims
    a = operand(a)
    for axis in axes:
        b = operand(func(a, axis))
        if len(shape_of(b)) == len(shape_of(a)):
            a = b
        elif len(shape_of(b)) == len(shape_of(a)) - 1:
            a = expand_dims(b, axis)
        else:
            raise ValueError("function is not returning an array of the correct shape")
    return a


def fromfunction(function, shape, *, dtype=float, **kwargs):
    """function called once with the index grids of `shape` (of `dtype`), as NumPy calls it.
    JAX maps a scalar function with vmap instead: for elementwise functions the two agree."""
    from ._index_helpers import indices
    shape = (int(shape),) if isinstance(shape, (int, np.integer)) else \
        tuple(int(d) for d in shape)
    grids = indices(shape, dtype=dtypes.canonicalize(dtype))
    return function(*[grids[i] for i in range(len(shape))], **kwargs)


def piecewise(x, condlist, funclist, *args, **kw):
    """x's values passed through the function (or constant) of the last condition that
    holds, else the default (the extra function, or 0). Called eagerly, the functions are
    traced once per signature and the program replayed (JAX jits piecewise with the
    functions static, so a function is traced once, however often piecewise runs)."""
    from ..core import current_trace
    from ..pytree import tree_leaves
    if current_trace() is None and not any(isinstance(v, Tracer)
                                           for v in tree_leaves((x, condlist))):
        from .. import transform_cache
        params = (tuple(funclist), args, tuple(sorted(kw.items())))
        return transform_cache.call(
            _piecewise, params, (x, condlist), {},
            lambda leaves: [k for k, v in enumerate(leaves) if _array_leaf(v)],
            lambda a, _: _piecewise(*a, funclist, *args, **kw),
            lambda: _piecewise(x, condlist, funclist, *args, **kw))
    return _piecewise(x, condlist, funclist, *args, **kw)


def _array_leaf(v) -> bool:
    return isinstance(v, (np.ndarray, np.generic))


def _piecewise(x, condlist, funclist, *args, **kw):
    x = operand(x)
    conds = _conditions(condlist, x)
    nc, nf = len(conds), len(funclist)
    if nf == nc + 1:
        funclist = list(funclist[-1:]) + list(funclist[:-1])
    elif nf == nc:
        funclist = [0] + list(funclist)
    else:
        raise ValueError(f"with {nc} condition(s), either {nc} or {nc + 1} functions are "
                         f"expected; got {nf}")
    dt = aval_of(x).dtype
    result = None
    for cond, f in zip([None] + conds, funclist):
        value = f(x, *args, **kw) if callable(f) else f
        value = broadcast_to(astype(operand(value), dt), shape_of(x))
        result = value if cond is None else E.where(broadcast_to(cond, shape_of(x)), value,
                                                    result)
    return result


def _conditions(condlist, x):
    """NumPy's reading of condlist: a list of conditions, except that a scalar, or (for a
    non-scalar x) a sequence whose first entry is not itself an array, is one condition."""
    if isinstance(condlist, (list, tuple)):
        single = len(shape_of(x)) != 0 and not isinstance(
            condlist[0], (list, tuple, np.ndarray, Tracer)) if condlist else False
        items = [condlist] if single else list(condlist)
    else:
        condlist = operand(condlist)
        rank = len(shape_of(condlist))
        single = rank == 0 or (rank == 1 and len(shape_of(x)) != 0)
        items = [condlist] if single else [condlist[i] for i in range(shape_of(condlist)[0])]
    return [astype(operand(c), dtypes.bool_) for c in items]


def choose(a, choices, out=None, mode="raise"):
    """choices[a[i]][i] for every position i (all broadcast together)."""
    if out is not None:
        raise NotImplementedError("choose: 'out' is not supported; use the returned value")
    from ._manipulation import broadcast_arrays
    a = operand(a)
    if not dtypes.is_int(aval_of(a).dtype):
        raise ValueError("`a` array must be integer typed")
    choices = [operand(c) for c in choices]
    n = len(choices)
    if mode == "raise":
        if isinstance(a, Tracer):
            raise TypeError("choose: mode='raise' needs concrete indices (it checks them); "
                            "under jit use mode='wrap' or mode='clip'")
        if ((np.asarray(a) < 0) | (np.asarray(a) >= n)).any():
            raise ValueError("invalid entry in choice array")
    elif mode == "wrap":
        a = E.remainder(a, n)
    elif mode == "clip":
        a = E.clip(a, 0, n - 1)
    else:
        raise ValueError(f"mode={mode!r} not understood. Must be 'raise', 'wrap', or 'clip'")
    a, *choices = broadcast_arrays(a, *choices)
    from ._dtype_api import result_type
    dt = result_type(*choices)
    result = astype(choices[-1], dt)
    for k in range(n - 2, -1, -1):
        result = E.where(E.equal(a, k), astype(choices[k], dt), result)
    return result
