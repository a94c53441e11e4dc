"""Array manipulation built from static slices, broadcasts and concatenation.

Everything here has a static result shape, so it composes the existing structural
primitives (slice, rev, broadcast_in_dim, reshape, concatenate): under `jit` the
pieces fuse into their consumers as index arithmetic, and no Python loop runs per element.
"""
from __future__ import annotations

import numpy as np

from ..core import Tracer, aval_of, concretization_message
from ..errors import ConcretizationError
from ._shape import concatenate, flip, ravel, transpose
from .. import dtypes
from ..base.operands import (astype, broadcast_to, normalize_axis, operand, reshape, shape_of,
                             weak_like)
from ..base.slicing import dynamic_slice


def _ndim(x) -> int:
    return len(shape_of(x))


def _take_slice(x, axis: int, start: int, stop: int, step: int = 1):
    key = [slice(None)] * _ndim(x)
    key[axis] = slice(start, stop, step)
    return x[tuple(key)]


def take_static(x, indices, axis: int):
    """x gathered along `axis` at static `indices`, as a concatenation of runs.

    A run is a stretch of the index list with a constant step (0: a repeated element,
    1: a plain slice, -1: a reversed slice, k: a strided slice), so the common patterns
    (edge, reflect and wrap padding, roll, tile, repeat) become a handful of slices.
    """
    x = operand(x)
    indices = [int(i) for i in np.asarray(indices).ravel()]
    n = shape_of(x)[axis]
    if any(not 0 <= i < n for i in indices):
        raise IndexError(f"index out of range for an axis of size {n}")
    pieces = [_run_piece(x, axis, run) for run in _runs(indices)]
    if not pieces:
        return _take_slice(x, axis, 0, 0)
    return pieces[0] if len(pieces) == 1 else concatenate(pieces, axis=axis)


def _runs(indices: list[int]) -> list[list[int]]:
    runs: list[list[int]] = []
    for i in indices:
        run = runs[-1] if runs else None
        if run and (len(run) == 1 or i - run[-1] == run[1] - run[0]):
            run.append(i)
        else:
            runs.append([i])
    return runs


def _run_piece(x, axis: int, run: list[int]):
    first, step = run[0], (run[1] - run[0] if len(run) > 1 else 1)
    if step == 0:
        one = _take_slice(x, axis, first, first + 1)
        shape = list(shape_of(one))
        shape[axis] = len(run)
        return broadcast_to(one, tuple(shape))
    stop = run[-1] + (1 if step > 0 else -1)
    return _take_slice(x, axis, first, stop if stop >= 0 else None, step)


# --- dimension helpers ---------------------------------------------------------------------

def _atleast(arys, ndim: int, place):
    out = [place(operand(a)) if _ndim(operand(a)) < ndim else operand(a) for a in arys]
    return out[0] if len(out) == 1 else out


def atleast_1d(*arys):
    return _atleast(arys, 1, lambda a: reshape(a, (1,)))


def atleast_2d(*arys):
    return _atleast(arys, 2, lambda a: reshape(a, (1,) * (2 - _ndim(a)) + shape_of(a)))


def atleast_3d(*arys):
    def place(a):
        shape = shape_of(a)
        return reshape(a, {0: (1, 1, 1), 1: (1,) + shape + (1,), 2: shape + (1,)}[len(shape)])
    return _atleast(arys, 3, place)


def _as_list(arrays, name):
    """The arrays to join: a sequence's items, or one array's slices along its first axis
    (NumPy and JAX iterate an array argument)."""
    if isinstance(arrays, (Tracer, np.ndarray)):
        a = operand(arrays)
        if not shape_of(a):
            raise TypeError(f"{name}() takes a sequence of arrays or an array of at least "
                            f"one dimension, got a 0-d array")
        return [a[i] for i in range(shape_of(a)[0])]
    return [operand(a) for a in arrays]


def hstack(tup):
    arrays = [atleast_1d(a) for a in _as_list(tup, "hstack")]
    return concatenate(arrays, axis=0 if arrays and _ndim(arrays[0]) == 1 else 1)


def vstack(tup):
    return concatenate([atleast_2d(a) for a in _as_list(tup, "vstack")], axis=0)


row_stack = vstack


def dstack(tup):
    return concatenate([atleast_3d(a) for a in _as_list(tup, "dstack")], axis=2)


def column_stack(tup):
    arrays = _as_list(tup, "column_stack")
    return concatenate([reshape(a, (-1, 1)) if _ndim(a) < 2 else a for a in arrays], axis=1)


def append(arr, values, axis=None):
    """`values` joined after `arr` (NumPy's and JAX's append): flattened when `axis` is None,
    else along `axis`, where both must have the same number of dimensions."""
    arr, values = operand(arr), operand(values)
    if axis is None:
        return concatenate([ravel(arr), ravel(values)], axis=0)
    return concatenate([arr, values], axis=axis)


def swapaxes(a, axis1, axis2):
    a = operand(a)
    ndim = _ndim(a)
    perm = list(range(ndim))
    i, j = normalize_axis(axis1, ndim, "axis1"), normalize_axis(axis2, ndim, "axis2")
    perm[i], perm[j] = perm[j], perm[i]
    return transpose(a, perm)


def flipud(m):
    if _ndim(operand(m)) < 1:
        raise ValueError("flipud needs an array of at least 1 dimension")
    return flip(m, 0)


def fliplr(m):
    if _ndim(operand(m)) < 2:
        raise ValueError("fliplr needs an array of at least 2 dimensions")
    return flip(m, 1)


def broadcast_shapes(*shapes):
    return np.broadcast_shapes(*shapes)


def broadcast_arrays(*args):
    arrays = [operand(a) for a in args]
    try:
        shape = np.broadcast_shapes(*(shape_of(a) for a in arrays))
    except ValueError:
        raise ValueError("shape mismatch: objects cannot be broadcast to a single shape: "
                         + " ".join(str(shape_of(a)) for a in arrays)) from None
    return [broadcast_to(a, shape) for a in arrays]


def copy(a, order=None):
    a = operand(a)
    return a if isinstance(a, Tracer) else np.array(a, copy=True)


# --- splitting ------------------------------------------------------------------------------

def _split_bounds(n: int, indices_or_sections, equal: bool) -> list[int]:
    if isinstance(indices_or_sections, (int, np.integer)):
        sections = int(indices_or_sections)
        if sections <= 0:
            raise ValueError("number sections must be larger than 0")
        if equal and n % sections:
            raise ValueError("array split does not result in an equal division")
        size, extra = divmod(n, sections)
        sizes = [size + 1] * extra + [size] * (sections - extra)
        return [0] + list(np.cumsum(sizes))
    if isinstance(indices_or_sections, Tracer):
        raise ConcretizationError(
            concretization_message(indices_or_sections, "split")
            + "\nsplit indices must be static (Python ints), since they fix the pieces' shapes")
    return [0] + [int(i) for i in indices_or_sections] + [n]


def _split(ary, indices_or_sections, axis, equal):
    ary = operand(ary)
    ax = normalize_axis(axis, _ndim(ary))
    n = shape_of(ary)[ax]
    bounds = _split_bounds(n, indices_or_sections, equal)
    pieces = []
    for lo, hi in zip(bounds[:-1], bounds[1:]):
        start, stop, _ = slice(int(lo), int(hi)).indices(n)   # Python's slice rules, as NumPy
        pieces.append(_take_slice(ary, ax, start, max(start, stop)))
    return pieces


def split(ary, indices_or_sections, axis=0):
    return _split(ary, indices_or_sections, axis, equal=True)


def array_split(ary, indices_or_sections, axis=0):
    return _split(ary, indices_or_sections, axis, equal=False)


def hsplit(ary, indices_or_sections):
    return split(ary, indices_or_sections, axis=0 if _ndim(operand(ary)) == 1 else 1)


def vsplit(ary, indices_or_sections):
    return split(ary, indices_or_sections, axis=0)


def dsplit(ary, indices_or_sections):
    return split(ary, indices_or_sections, axis=2)


# --- repetition -----------------------------------------------------------------------------

def tile(A, reps):
    A = operand(A)
    reps = (reps,) if isinstance(reps, (int, np.integer)) else tuple(int(r) for r in reps)
    if isinstance(reps, tuple) and any(isinstance(r, Tracer) for r in reps):
        raise TypeError("tile: reps must be static")
    shape = shape_of(A)
    d = max(len(shape), len(reps))
    shape = (1,) * (d - len(shape)) + shape
    reps = (1,) * (d - len(reps)) + tuple(int(r) for r in reps)
    interleaved = tuple(v for r, s in zip(reps, shape) for v in (r, s))
    spread = reshape(A, tuple(v for s in shape for v in (1, s)))
    return reshape(broadcast_to(spread, interleaved), tuple(r * s for r, s in zip(reps, shape)))


def repeat(a, repeats, axis=None, *, total_repeat_length=None):
    a = operand(a)
    if axis is None or _ndim(a) == 0:     # a scalar repeats as a 1-d array (NumPy, JAX)
        a, axis = reshape(a, (-1,)), 0 if axis is None else axis
    ax = normalize_axis(axis, _ndim(a))
    n = shape_of(a)[ax]
    if total_repeat_length is not None:
        return _repeat_to_length(a, repeats, ax, int(total_repeat_length))
    if isinstance(repeats, Tracer):
        raise TypeError("repeat: 'repeats' is traced, but it fixes the result's length: pass "
                        "a Python int or sequence, or give total_repeat_length= (as in JAX)")
    counts = np.broadcast_to(np.asarray(repeats, dtype=np.int64), (n,))
    if (counts < 0).any():
        raise ValueError("repeat: 'repeats' may not contain negative values")
    if np.ndim(repeats) == 0:
        k = int(counts[0]) if n else int(np.asarray(repeats))
        shape = shape_of(a)
        widened = reshape(a, shape[:ax + 1] + (1,) + shape[ax + 1:])
        spread = broadcast_to(widened, shape[:ax + 1] + (k,) + shape[ax + 1:])
        return reshape(spread, shape[:ax] + (n * k,) + shape[ax + 1:])
    return take_static(a, np.repeat(np.arange(n), counts), ax)


def _repeat_to_length(a, repeats, ax, length):
    """repeat with JAX's `total_repeat_length`: the result has `length` entries along `ax`
    whatever the (possibly traced) repeats sum to; entry j comes from the element whose
    run covers j (past the last run, the last element, as in JAX)."""
    from ._cumulative import cumsum
    from ._elementwise import minimum
    from ._indexing import take
    from ._sorting import searchsorted
    from ..core import bind
    from .. import dtypes, primitives as P
    n = shape_of(a)[ax]
    counts = broadcast_to(astype(operand(repeats), dtypes.int64), (n,))
    if n == 0 or length == 0:
        shape = list(shape_of(a))
        shape[ax] = length
        return broadcast_to(astype(0, aval_of(a).dtype), tuple(shape)) if n == 0 else \
            take_static(a, np.zeros(0, dtype=np.int64), ax)
    ends = cumsum(counts)
    j = bind(P.iota, dtype=dtypes.int64, shape=(length,), dimension=0)
    source = minimum(searchsorted(ends, j, side="right"), n - 1)
    return take(a, source, axis=ax, mode="clip")


def roll(a, shift, axis=None):
    a = operand(a)
    if axis is None:
        return reshape(roll(reshape(a, (-1,)), shift, 0), shape_of(a))
    shifts = _shift_list(shift)
    axes = list(axis) if isinstance(axis, (tuple, list)) else [axis]
    if len(shifts) == 1:
        shifts = shifts * len(axes)
    if len(axes) == 1:
        axes = axes * len(shifts)
    if len(shifts) != len(axes):
        raise ValueError(f"roll: 'shift' and 'axis' must have one length, got {len(shifts)} "
                         f"and {len(axes)}")
    for s, ax in zip(shifts, axes):
        a = _roll_axis(a, s, normalize_axis(ax, _ndim(a)))
    return a


def _shift_list(shift) -> list:
    """roll's shifts as a list: a sequence's items, a 1-d array's elements (traced or not:
    JAX takes an array of shifts), or the one scalar."""
    if isinstance(shift, (tuple, list)):
        return list(shift)
    if isinstance(shift, (Tracer, np.ndarray)) and shape_of(operand(shift)):
        if len(shape_of(operand(shift))) != 1:
            raise ValueError(f"roll: 'shift' must be a scalar or 1-d, got shape "
                             f"{shape_of(operand(shift))}")
        shift = operand(shift)
        return [shift[i] for i in range(shape_of(shift)[0])]
    return [shift]


def _roll_axis(a, shift, ax):
    n = shape_of(a)[ax]
    if n == 0:
        return a
    if isinstance(shift, Tracer):
        # A traced shift: the window of length n starting at (n - shift) mod n in [a, a].
        from ._elementwise import remainder, subtract
        starts = [0] * _ndim(a)
        starts[ax] = remainder(subtract(n, shift), n)
        return dynamic_slice(concatenate([a, a], axis=ax), starts, shape_of(a),
                             allow_negative_indices=False)     # starts are in [0, n)
    s = int(shift) % n
    if s == 0:
        return a
    return concatenate([_take_slice(a, ax, n - s, n), _take_slice(a, ax, 0, n - s)], axis=ax)


def diff(a, n=1, axis=-1, prepend=None, append=None):
    from .. import dtypes
    from ._elementwise import not_equal, subtract
    a = operand(a)
    ax = normalize_axis(axis, _ndim(a))
    if n < 0:
        raise ValueError(f"order must be non-negative but got {n}")
    if n == 0:                  # NumPy's and JAX's: `a` itself, prepend/append unused
        return a
    extra, weak = [], []
    for edge in (prepend, append):
        if edge is None:
            continue
        # NumPy makes prepend/append arrays first (a Python number is not weak there); JAX
        # keeps a Python number weak, so bfloat16 data with prepend=1 stays bfloat16.
        scalar = isinstance(edge, (bool, int, float))
        weak.append(scalar and dtypes.config.jax_rules())
        edge = operand(np.asarray(edge) if scalar and not weak[-1] else edge)
        if _ndim(edge) == 0:
            shape = list(shape_of(a))
            shape[ax] = 1
            edge = broadcast_to(edge, tuple(shape))
        extra.append(edge)
    if extra:
        parts = ([extra.pop(0)] if prepend is not None else []) + [a] + extra
        weak.insert(1 if prepend is not None else 0, False)
        common = dtypes.result_type([aval_of(p).dtype for p in parts], weak)
        a = concatenate([astype(p, common) for p in parts], axis=ax)
    for _ in range(n):
        m = shape_of(a)[ax]
        hi, lo = _take_slice(a, ax, 1, m), _take_slice(a, ax, 0, max(m - 1, 0))
        a = not_equal(hi, lo) if aval_of(a).dtype == dtypes.bool_ else subtract(hi, lo)
    return a


def gradient(f, *varargs, axis=None, edge_order=None):
    """NumPy's `gradient`: central differences inside, one-sided differences at the two ends
    (edge_order 1), one array per axis (a tuple when there are several). Each spacing is a
    scalar (uniform) or, as in NumPy and JAX, the 1-d coordinates of the samples along its
    axis. As in JAX, `edge_order` is not supported."""
    if edge_order is not None:
        raise NotImplementedError("gradient: edge_order= is not supported (as in JAX); the "
                                  "ends use one-sided first-order differences")
    f = operand(f)
    ndim = _ndim(f)
    axes = tuple(range(ndim)) if axis is None else \
        tuple(normalize_axis(a, ndim) for a in (axis if isinstance(axis, (tuple, list))
                                                else (axis,)))
    spacings = _gradient_spacings(varargs, len(axes))
    out = []
    for ax, h in zip(axes, spacings):
        m = shape_of(f)[ax]
        if m < 2:
            raise ValueError(f"gradient: axis {ax} has {m} element(s); at least 2 are "
                             "required to compute a numerical gradient")
        uniform = isinstance(h, float) or _ndim(h) == 0
        derivative = _uniform_derivative if uniform else _sampled_derivative
        out.append(derivative(f, ax, m, h))
    return out[0] if len(out) == 1 else tuple(out)


def _edge_differences(f, ax: int, m: int):
    """f[1] - f[0] and f[-1] - f[-2] along axis `ax` (kept as length-1 axes)."""
    from ._elementwise import subtract
    return (subtract(_take_slice(f, ax, 1, 2), _take_slice(f, ax, 0, 1)),
            subtract(_take_slice(f, ax, m - 1, m), _take_slice(f, ax, m - 2, m - 1)))


def _uniform_derivative(f, ax: int, m: int, h):
    from ._elementwise import multiply, subtract, true_divide
    first, last = _edge_differences(f, ax, m)
    inner = subtract(_take_slice(f, ax, 2, m), _take_slice(f, ax, 0, m - 2))
    twice = 2 * h if isinstance(h, float) else multiply(h, 2)     # a Python float stays weak
    return concatenate([true_divide(first, h), true_divide(inner, twice),
                        true_divide(last, h)], axis=ax)


def _sampled_derivative(f, ax: int, m: int, x):
    """Samples at the coordinates `x` (1-d, along `ax`): at each inner point the derivative
    of the parabola through it and its two neighbours (NumPy's second-order formula)."""
    from ._elementwise import add, multiply, negative, subtract, true_divide
    if shape_of(x) != (m,):
        raise ValueError(f"gradient: the coordinates for axis {ax} have shape {shape_of(x)}; "
                         f"they must be 1-d, one per sample ({m})")
    shape = [1] * _ndim(f)
    shape[ax] = m
    x = reshape(x, tuple(shape))
    dx = subtract(_take_slice(x, ax, 1, m), _take_slice(x, ax, 0, m - 1))     # m - 1 gaps
    first, last = _edge_differences(f, ax, m)
    left, right = _take_slice(dx, ax, 0, m - 2), _take_slice(dx, ax, 1, m - 1)
    span = add(left, right)
    below = negative(true_divide(right, multiply(left, span)))
    centre = true_divide(subtract(right, left), multiply(left, right))
    above = true_divide(left, multiply(right, span))
    inner = add(add(multiply(below, _take_slice(f, ax, 0, m - 2)),
                    multiply(centre, _take_slice(f, ax, 1, m - 1))),
                multiply(above, _take_slice(f, ax, 2, m)))
    return concatenate([true_divide(first, _take_slice(dx, ax, 0, 1)), inner,
                        true_divide(last, _take_slice(dx, ax, m - 2, m - 1))], axis=ax)


def _gradient_spacings(varargs, n_axes: int) -> tuple:
    """One spacing per axis: a Python float, or an operand (0-d: uniform; 1-d: coordinates)."""
    if not varargs:
        return (1.0,) * n_axes
    spacings = tuple(float(v) if isinstance(v, (int, float, np.number)) else operand(v)
                     for v in varargs)
    if any(not isinstance(h, float) and _ndim(h) > 1 for h in spacings):
        raise ValueError("gradient: each spacing must be a scalar or the 1-d coordinates of "
                         "the samples along its axis")
    if len(spacings) == 1:
        return spacings * n_axes
    if len(spacings) != n_axes:
        raise TypeError(f"gradient: {len(varargs)} spacings given for {n_axes} axes; give "
                        "one, or one per axis")
    return spacings


# --- padding --------------------------------------------------------------------------------


def _pad_widths(pad_width, ndim):
    if isinstance(pad_width, Tracer):
        raise TypeError("pad: 'pad_width' must be static, since it fixes the result's shape")
    widths = np.broadcast_to(np.asarray(pad_width, dtype=np.int64), (ndim, 2))
    if (widths < 0).any():
        raise ValueError("pad: 'pad_width' may not contain negative values")
    return [tuple(int(w) for w in row) for row in widths]


# The keyword arguments each named mode reads (NumPy's and JAX's): any other is refused.
_PAD_KWARGS = {"constant": ("constant_values",), "empty": (), "edge": (), "wrap": (),
               "linear_ramp": ("end_values",), "maximum": ("stat_length",),
               "minimum": ("stat_length",), "mean": ("stat_length",), "median": ("stat_length",),
               "reflect": ("reflect_type",), "symmetric": ("reflect_type",)}


def pad(array, pad_width, mode="constant", **kwargs):
    array = operand(array)
    padded = _pad(array, pad_width, mode, kwargs)
    # JAX's pad keeps the array's dtype and its weak type, whatever the padding values are
    # (the statistic and ramp modes compute through strong casts).
    return weak_like(padded, array) if dtypes.config.jax_rules() else padded


def _pad(array, pad_width, mode, kwargs):
    ndim = _ndim(array)
    widths = _pad_widths(pad_width, ndim)
    if callable(mode):
        return _pad_with_function(array, widths, mode, kwargs)
    _check_pad_mode(mode, kwargs)
    if mode == "constant":
        return _pad_constant(array, widths, kwargs.get("constant_values", 0))
    if mode == "empty":        # unspecified values: zeros, as JAX gives
        return _pad_constant(array, widths, 0)
    from ._pad_modes import STAT_MODES, pad_linear_ramp, pad_odd_reflection, pad_statistic
    if mode in STAT_MODES:
        return pad_statistic(array, widths, mode, kwargs.get("stat_length"))
    if mode == "linear_ramp":
        return pad_linear_ramp(array, widths, kwargs.get("end_values", 0))
    if kwargs.get("reflect_type", "even") == "odd" and mode in ("reflect", "symmetric"):
        return pad_odd_reflection(array, widths, mode)
    for ax, (before, after) in enumerate(widths):
        n = shape_of(array)[ax]
        if before == after == 0:
            continue
        if n == 0:
            raise ValueError(f"pad: can't extend the empty axis {ax} with mode {mode!r}")
        index = np.pad(np.arange(n), (before, after), mode=mode)
        array = take_static(array, index, ax)
    return array


def _check_pad_mode(mode, kwargs) -> None:
    """NumPy's and JAX's refusals: an unknown mode, a keyword argument the mode does not read."""
    if not isinstance(mode, str) or mode not in _PAD_KWARGS:
        raise NotImplementedError(f"Unimplemented padding mode {str(mode)!r} for np.pad; use "
                                  "a function or one of " + ", ".join(map(repr, _PAD_KWARGS)))
    unsupported = sorted(set(kwargs) - set(_PAD_KWARGS[mode]))
    if unsupported:
        raise ValueError(f"pad: unsupported keyword arguments for mode {mode!r}: "
                         f"{unsupported} (it reads only {list(_PAD_KWARGS[mode]) or 'none'})")


def _pad_with_function(array, widths, function, kwargs):
    """NumPy's callable mode: function(vector, (before, after), axis, kwargs) edits each
    zero-padded vector along each axis in turn. As in JAX, it returns the new vector."""
    from ..base.operands import astype
    array = _pad_constant(array, widths, 0)
    for ax, width in enumerate(widths):
        moved = [d for d in range(_ndim(array)) if d != ax] + [ax]     # axis `ax` last
        x = transpose(array, tuple(moved))
        rows = reshape(x, (-1, shape_of(x)[-1]))
        from ._shape import stack
        done = [operand(function(rows[i], width, ax, kwargs))
                for i in range(shape_of(rows)[0])]
        x = reshape(stack(done), shape_of(x)) if done else x
        array = astype(transpose(x, tuple(int(i) for i in np.argsort(moved))),
                       aval_of(array).dtype)
    return array


def _pad_constant(array, widths, constant_values):
    dtype = aval_of(array).dtype
    values = np.broadcast_to(np.asarray(constant_values, dtype=object), (len(widths), 2)) \
        if not isinstance(constant_values, Tracer) else None
    for ax, (before, after) in enumerate(widths):
        pieces = []
        for side, width in enumerate((before, after)):
            if not width:
                continue
            shape = list(shape_of(array))
            shape[ax] = width
            value = constant_values if values is None else values[ax, side]
            fill = astype(operand(value), dtype)
            pieces.append((side, broadcast_to(fill, tuple(shape))))
        if pieces:
            parts = [p for s, p in pieces if s == 0] + [array] + [p for s, p in pieces if s]
            array = concatenate(parts, axis=ax)
    return array


# --- choosing -------------------------------------------------------------------------------

def select(condlist, choicelist, default=0):
    from ._elementwise import where
    if len(condlist) != len(choicelist):
        raise ValueError("list of cases must be same length as list of conditions")
    if not condlist:
        raise ValueError("select with an empty condition list is not possible")
    # One dtype for all the choices and the default, joined together (as NumPy and JAX):
    # joined pairwise, an int8 choice and a uint64 default would make float64 before a
    # float16 choice is met, eagerly, where weak types are not kept.
    from .. import dtypes
    from ..base.operands import weak_flags
    values = [operand(v) for v in (*choicelist, default)]
    common = dtypes.result_type([aval_of(v).dtype for v in values], weak_flags(values))
    values = [astype(v, common) for v in values]
    result = values[-1]
    for cond, choice in reversed(list(zip(condlist, values[:-1]))):
        result = where(cond, choice, result)
    return result
