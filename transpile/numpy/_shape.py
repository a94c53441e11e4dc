"""Shape manipulation and static indexing."""
from __future__ import annotations

import numpy as np


from .. import primitives as P
from ..core import Tracer, bind
from ..eager_array import reject_sequence_index
from ..base.operands import astype, normalize_axes, normalize_axis, operand, reshape, shape_of
from ..base.slicing import dynamic_slice


def transpose(a, axes=None):
    a = operand(a)
    ndim = len(shape_of(a))
    perm = tuple(range(ndim))[::-1] if axes is None else tuple(
        normalize_axis(ax, ndim) for ax in axes)
    if len(perm) != ndim or sorted(perm) != list(range(ndim)):
        raise ValueError(f"axes {axes} don't match an array of dimension {ndim}")
    if perm == tuple(range(ndim)):
        return a
    return bind(P.transpose, a, permutation=perm)


def moveaxis(a, source, destination):
    """Axes moved to new positions (ints, or sequences of one length), the others keeping
    their order."""
    a = operand(a)
    ndim = len(shape_of(a))
    sources = source if isinstance(source, (tuple, list)) else (source,)
    destinations = destination if isinstance(destination, (tuple, list)) else (destination,)
    if len(sources) != len(destinations):
        raise ValueError("moveaxis: source and destination must have the same number of "
                         "elements")
    src = [normalize_axis(s, ndim) for s in sources]
    dst = [normalize_axis(d, ndim) for d in destinations]
    order = [i for i in range(ndim) if i not in src]
    for d, s in sorted(zip(dst, src)):
        order.insert(d, s)
    return transpose(a, order)


def squeeze(a, axis=None):
    a = operand(a)
    shape = shape_of(a)
    if axis is None:
        axes = tuple(i for i, d in enumerate(shape) if d == 1)
    else:
        axes = normalize_axes(axis, len(shape))
        for ax in axes:
            if shape[ax] != 1:
                raise ValueError(f"cannot select an axis to squeeze out which has size not "
                                 f"equal to one (axis {ax} of shape {shape})")
    return reshape(a, tuple(d for i, d in enumerate(shape) if i not in axes))


def expand_dims(a, axis):
    a = operand(a)
    shape = shape_of(a)
    axes = axis if isinstance(axis, (tuple, list)) else (axis,)
    out_ndim = len(shape) + len(axes)
    positions = sorted(normalize_axis(ax, out_ndim) for ax in axes)
    if len(set(positions)) != len(positions):
        raise ValueError(f"repeated axis in expand_dims: {tuple(axes)} names one position "
                         "twice (NumPy's and JAX's error)")
    new = list(shape)
    for p in positions:
        new.insert(p, 1)
    return reshape(a, tuple(new))


def ravel(a):
    return reshape(a, (-1,))


def concatenate(arrays, axis=0):
    arrays = [operand(x) for x in arrays]
    if not arrays:
        raise ValueError("need at least one array to concatenate")
    if axis is None:                      # flattened first: 0-d arrays join too (NumPy)
        arrays, axis = [ravel(x) for x in arrays], 0
    ndim = len(shape_of(arrays[0]))
    if ndim == 0:
        raise ValueError("zero-dimensional arrays cannot be concatenated")
    ax = normalize_axis(axis, ndim)
    if len(arrays) == 1:
        return arrays[0]
    return bind(P.concatenate, *arrays, dimension=ax)


def stack(arrays, axis=0):
    arrays = [operand(x) for x in arrays]
    if not arrays:
        raise ValueError("need at least one array to stack")
    shapes = {shape_of(x) for x in arrays}
    if len(shapes) != 1:
        raise ValueError("all input arrays must have the same shape, got "
                         + ", ".join(str(shape_of(x)) for x in arrays))
    ndim = len(shapes.pop()) + 1
    ax = normalize_axis(axis, ndim)
    expanded = [expand_dims(x, ax) for x in arrays]
    if len(expanded) == 1:
        return expanded[0]
    return bind(P.concatenate, *expanded, dimension=ax)


def flip(a, axis=None):
    a = operand(a)
    axes = normalize_axes(axis, len(shape_of(a)))
    return bind(P.rev, a, dimensions=axes) if axes else a


# ---------------------------------------------------------------------------------------------
# Static indexing of tracers: ints, slices (any step), None and Ellipsis.

def getitem(x: Tracer, key):
    reject_sequence_index(key)
    key = key if isinstance(key, tuple) else (key,)
    if any(_is_scalar_bool(k) for k in key):
        return _getitem_through_scalar_bools(x, key)
    from ._indexing import advanced_getitem, is_array_index
    if any(is_array_index(k) for k in key):
        return advanced_getitem(x, key)
    key = _expand_ellipsis(key, x.ndim)
    if any(isinstance(k, Tracer) for k in key):
        return _dynamic_getitem(x, key)
    shape = x.shape
    reversed_axes, starts, limits, strides, out_shape = [], [], [], [], []
    dim = 0
    for k in key:
        if k is None:
            out_shape.append(1)
            continue
        n = shape[dim]
        if isinstance(k, slice):
            if any(isinstance(b, Tracer) for b in (k.start, k.stop, k.step)):
                raise IndexError(
                    "slice bounds must be static (Python ints) because they fix the result's "
                    "shape; for a window of static size at a traced position use "
                    "lax.dynamic_slice(x, (start,), (size,))")
            start, stop, step = k.indices(n)
            length = len(range(start, stop, step))
            if step < 0:
                reversed_axes.append(dim)
                start, step = n - 1 - start, -step
            starts.append(start)
            limits.append(start + (length - 1) * step + 1 if length else start)
            strides.append(step)
            out_shape.append(length)
        else:
            i = _static_index(k, n, dim)
            starts.append(i)
            limits.append(i + 1)
            strides.append(1)
        dim += 1
    out = bind(P.rev, x, dimensions=tuple(reversed_axes)) if reversed_axes else x
    if (tuple(starts), tuple(limits), tuple(strides)) != ((0,) * x.ndim, shape, (1,) * x.ndim):
        out = bind(P.slice_p, out, start_indices=tuple(starts), limit_indices=tuple(limits),
                   strides=tuple(strides))
    return reshape(out, tuple(out_shape))


def _dynamic_getitem(x, key):
    """Traced integer indices: a clamped `dynamic_slice` (as in JAX), then the static rest."""
    starts, sizes, rest = dynamic_starts(x, key)
    # starts are wrapped already (traced_start): wrapping again would move -n - 1 to n - 1
    window = dynamic_slice(x, starts, sizes, allow_negative_indices=False)
    return getitem(window, tuple(rest))


def dynamic_starts(x, key):
    """(start indices, window sizes, static key for the window) of a key with traced ints."""
    starts, sizes, rest, dim = [], [], [], 0
    for k in key:
        if k is None:
            rest.append(None)
            continue
        n = x.shape[dim]
        if isinstance(k, Tracer):
            if n == 0:     # no element to clamp to (JAX raises the same)
                raise IndexError(f"index is out of bounds for axis {dim} with size 0")
            starts.append(traced_start(k, n))
            sizes.append(1)
            rest.append(0)
        else:
            starts.append(0)
            sizes.append(n)
            rest.append(k)
        dim += 1
    return starts, sizes, rest


def traced_start(k, n: int):
    """The int64 start of a traced integer index `k` into an axis of size `n`."""
    _check_traced_index(k)
    return wrap_negative(k, n)


def _check_traced_index(k):
    if k.ndim != 0 or k.dtype.kind not in "iu":
        raise TypeError(f"only integer scalars can be traced indices, got {k!r}; advanced "
                        "(array/boolean) indexing has a data-dependent shape")


def wrap_negative(i, n: int):
    """A traced index counted from the end when negative, as Python does, in int64: adding
    the axis size `n` in a narrow index dtype (uint8 on an axis of 300) would wrap."""
    from ._elementwise import add, less, minimum, where
    if i.dtype.kind == "u":        # never negative; indices past the axis clamp anyway
        return astype(minimum(astype(i, np.uint64), np.uint64(n)), np.int64)
    i = astype(i, np.int64)
    return where(less(i, 0), add(i, n), i)


def _getitem_through_scalar_bools(x, key):
    """A scalar True in the index adds a length-1 axis, a False an empty one (NumPy's rule):
    index without them, then shape the result as NumPy does."""
    shape = _selection_shape(shape_of(x), key)
    rest = tuple(k for k in key if not _is_scalar_bool(k))
    if not all(bool(k) for k in key if _is_scalar_bool(k)):
        from ._creation import zeros
        return zeros(shape, x.dtype)
    return reshape(getitem(x, rest), shape)


def _is_scalar_bool(k) -> bool:
    return isinstance(k, (bool, np.bool_)) or (
        isinstance(k, np.ndarray) and k.ndim == 0 and k.dtype == np.bool_)


def _selection_shape(shape, index) -> tuple:
    """The shape NumPy's x[index] has (index arrays' values matter only through their
    shapes, except booleans): computed on a broadcast view, which holds no memory."""
    shapes_only = tuple(np.zeros(np.shape(k), np.intp) if _is_array_entry(k) else k
                        for k in index)
    return np.broadcast_to(np.zeros((), np.int8), shape)[shapes_only].shape


def _is_array_entry(k) -> bool:
    if _is_scalar_bool(k) or isinstance(k, (int, np.integer, slice)) or k is None \
            or k is Ellipsis or _is_integer_0d(k):
        return False
    dt = getattr(k, "dtype", None)
    return dt is None or np.dtype(dt) != np.bool_      # boolean masks keep their values


def _expand_ellipsis(key, ndim):
    n_ellipsis = sum(k is Ellipsis for k in key)
    if n_ellipsis > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    used = sum(k is not None and k is not Ellipsis for k in key)
    if used > ndim:
        raise IndexError(f"too many indices for array: array is {ndim}-dimensional, but {used} "
                         "were indexed")
    fill = (slice(None),) * (ndim - used)
    if n_ellipsis:
        i = next(i for i, k in enumerate(key) if k is Ellipsis)
        return key[:i] + fill + key[i + 1:]
    return key + fill


def _is_integer_0d(k) -> bool:
    """A 0-d integer NumPy array: an integer index (JAX's rules make elements and scalar
    results 0-d arrays, as JAX does: `x[jnp.arange(3)[1]]`)."""
    return isinstance(k, np.ndarray) and k.ndim == 0 and k.dtype.kind in "iu"


def _static_index(k, n: int, dim: int) -> int:
    if isinstance(k, (bool, np.bool_)) or isinstance(k, list) or (
            isinstance(k, np.ndarray) and not _is_integer_0d(k)) or (
            isinstance(k, Tracer) and k.ndim > 0):
        raise TypeError("only integers, slices (`:`), ellipsis (`...`) and None are valid "
                        f"indices under jit, got {type(k).__name__}; advanced (array/boolean) "
                        "indexing has a data-dependent shape")
    i = k.__index__()    # a traced scalar index raises ConcretizationError here
    if not -n <= i < n:
        raise IndexError(f"index {i} is out of bounds for axis {dim} with size {n}")
    return i % n


