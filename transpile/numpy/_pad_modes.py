"""The padding modes whose new values are computed, not copied: statistics of the edge
(maximum, minimum, mean, median over `stat_length` elements), `linear_ramp` towards
`end_values`, and odd reflection (2 * edge - mirror image).

Each pads one axis at a time, as NumPy does, so corners see the values padded before them.
"""
from __future__ import annotations

import numpy as np

from .. import dtypes
from ..core import Tracer, aval_of
from . import _elementwise as E
from ._shape import concatenate, flip
from ..base.operands import astype, broadcast_to, operand, shape_of

STAT_MODES = ("maximum", "minimum", "mean", "median")


def _slice(x, axis, start, stop):
    key = [slice(None)] * len(shape_of(x))
    key[axis] = slice(start, stop)
    return x[tuple(key)]


def _per_axis_pairs(value, ndim, what):
    """NumPy's broadcasting of a per-axis (before, after) argument to ndim pairs."""
    if isinstance(value, Tracer):
        raise TypeError(f"pad: {what!r} must be static")
    if value is None:
        return [(None, None)] * ndim
    pairs = np.broadcast_to(np.asarray(value, dtype=object), (ndim, 2))
    return [tuple(row) for row in pairs]


def _statistic(edge, axis, mode):
    from ._reductions import max as amax, mean, min as amin
    from ._sorting import median
    if mode == "maximum":
        return amax(edge, axis=axis, keepdims=True)
    if mode == "minimum":
        return amin(edge, axis=axis, keepdims=True)
    stat = (mean if mode == "mean" else median)(edge, axis=axis, keepdims=True)
    dt = aval_of(edge).dtype
    if not dtypes.is_inexact(dt):          # NumPy and JAX round to the nearest integer
        stat = E.round(stat)
    return astype(stat, dt)


def pad_statistic(array, widths, mode, stat_length):
    lengths = _per_axis_pairs(stat_length, len(widths), "stat_length")
    for ax, ((before, after), (len_before, len_after)) in enumerate(zip(widths, lengths)):
        n = shape_of(array)[ax]
        if before == after == 0:
            continue
        if n == 0:
            raise ValueError(f"pad: can't extend the empty axis {ax} with mode {mode!r}")
        pieces = []
        for width, length, first in ((before, len_before, True), (after, len_after, False)):
            if not width:
                continue
            k = n if length is None else min(max(int(length), 1), n)
            edge = _slice(array, ax, 0, k) if first else _slice(array, ax, n - k, n)
            stat = _statistic(edge, ax, mode)
            shape = list(shape_of(array))
            shape[ax] = width
            pieces.append((first, broadcast_to(stat, tuple(shape))))
        parts = [p for f, p in pieces if f] + [array] + [p for f, p in pieces if not f]
        array = concatenate(parts, axis=ax)
    return array


def _ramp(start, stop, width, axis, ndim, dt):
    """width values from `start` towards `stop` (excluded), along `axis`: JAX's
    linspace(start, stop, width, endpoint=False, dtype=dt) with the other axes broadcast,
    computed as start * (1 - t) + stop * t in the inexact dtype, floored for integers."""
    compute = dt if dtypes.is_inexact(dt) else dtypes.float_for_integers(dt)
    start, stop = astype(start, compute), astype(stop, compute)
    if width == 1:
        ramp = broadcast_to(start, shape_of(stop))
    else:
        shape = [1] * ndim
        shape[axis] = width
        t = astype((np.arange(width, dtype=np.float64) / width).reshape(shape), compute)
        ramp = E.add(E.multiply(start, E.subtract(1, t)), E.multiply(stop, t))
    if not dtypes.is_inexact(dt):
        ramp = E.floor(ramp)
    return astype(ramp, dt)


def pad_linear_ramp(array, widths, end_values):
    ends = _per_axis_pairs(end_values, len(widths), "end_values")
    dt = aval_of(array).dtype
    ndim = len(widths)
    for ax, ((before, after), (end_before, end_after)) in enumerate(zip(widths, ends)):
        n = shape_of(array)[ax]
        if before == after == 0:
            continue
        if n == 0:
            raise ValueError(f"pad: can't extend the empty axis {ax} with mode 'linear_ramp'")
        parts = []
        if before:
            edge = _slice(array, ax, 0, 1)
            parts.append(_ramp(operand(end_before), edge, before, ax, ndim, dt))
        parts.append(array)
        if after:
            edge = _slice(array, ax, n - 1, n)
            ramp = _ramp(operand(end_after), edge, after, ax, ndim, dt)
            parts.append(flip(ramp, ax))
        array = concatenate(parts, axis=ax)
    return array


def pad_odd_reflection(array, widths, mode):
    """reflect/symmetric with reflect_type='odd'. Each padded value is a fixed integer
    combination of the axis's values (NumPy's 2 * edge - mirror, repeated for pads longer
    than the axis); the combinations come from padding an identity matrix with NumPy and
    are applied as a few weighted static gathers."""
    from ._manipulation import take_static
    dt = aval_of(array).dtype
    for ax, (before, after) in enumerate(widths):
        n = shape_of(array)[ax]
        if before == after == 0:
            continue
        if n == 0:
            raise ValueError(f"pad: can't extend the empty axis {ax} with mode {mode!r}")
        weights = np.pad(np.eye(n, dtype=np.int64), ((before, after), (0, 0)), mode=mode,
                         reflect_type="odd")
        terms = int((weights != 0).sum(axis=1).max())
        order = np.argsort(weights == 0, axis=1, kind="stable")[:, :terms]
        coefficients = np.take_along_axis(weights, order, axis=1)
        shape = [1] * len(widths)
        shape[ax] = weights.shape[0]
        total = None
        for t in range(terms):
            picked = take_static(array, order[:, t], ax)
            c = coefficients[:, t].reshape(shape)
            if (c == 1).all():
                term = picked
            else:
                term = E.where(c != 0, E.multiply(picked, astype(c, dt)), astype(0, dt))
            total = term if total is None else E.add(total, term)
        array = astype(total, dt)
    return array
