"""Ranges and grids whose values may be traced while their lengths stay static:
`linspace` with traced endpoints (as jax.numpy allows), `mgrid`/`ogrid`, and `interp`
(piecewise-linear interpolation, with the segment of each point found by counting, as
searchsorted does).
"""
from __future__ import annotations

import operator

import numpy as np

from .. import dtypes
from ..core import Tracer, aval_of
from . import _elementwise as E
from ..base.operands import astype, operand, reshape, shape_of, weak_flags


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0):
    """NumPy's linspace; start and stop may be traced (num may not: it is the length)."""
    if isinstance(num, Tracer):
        raise TypeError("linspace: 'num' is traced, but the length of the result must be known "
                        "while tracing; pass a Python int (mark it static)")
    num = operator.index(num)
    if num < 0:
        raise ValueError(f"linspace: number of samples, {num}, must be non-negative")
    if not isinstance(start, Tracer) and not isinstance(stop, Tracer):
        if not retstep and axis == 0 and np.ndim(start) == 0 and np.ndim(stop) == 0:
            from ._creation import linspace as static_linspace    # an iota under jit
            return static_linspace(start, stop, num, endpoint, dtype)
        return np.linspace(start, stop, num, endpoint, retstep,
                           None if dtype is None else dtypes.canonicalize(dtype), axis)
    start, stop = operand(start), operand(stop)
    avals = [aval_of(start), aval_of(stop)]
    dt = dtypes.result_type([a.dtype for a in avals] + [dtypes.float64],
                            weak_flags([start, stop]) + [True])
    if not dtypes.is_inexact(dt):       # complex endpoints stay complex
        dt = dtypes.float64
    start, stop = astype(start, dt), astype(stop, dt)
    div = (num - 1) if endpoint else num
    delta = E.subtract(stop, start)
    extra = len(shape_of(delta))
    steps = astype(np.arange(num, dtype=np.float64).reshape((-1,) + (1,) * extra), dt)
    if div > 0:
        step = E.divide(delta, div)
        y = E.where(E.equal(step, 0), E.multiply(E.divide(steps, div), delta),
                    E.multiply(steps, step))
    else:                       # no step between fewer than two points: NaN, one number
        step = astype(np.nan, dt)   # as NumPy's (not one per pair of endpoints)
        y = E.multiply(steps, delta)
    y = E.add(y, start)
    if endpoint and num > 1:
        last = np.arange(num).reshape((-1,) + (1,) * extra) == num - 1
        y = E.where(last, stop, y)
    if axis != 0:
        from ._shape import moveaxis
        y = moveaxis(y, 0, axis)
    if dtype is not None:
        target = dtypes.canonicalize(dtype)
        y = astype(E.floor(y) if dtypes.is_int(target) else y, target)
    return (y, step) if retstep else y


class _Grid:
    """`mgrid[...]` / `ogrid[...]`: static slices, so the grids are constants, as NumPy's."""
    __slots__ = ("_numpy",)

    def __init__(self, numpy_grid):
        self._numpy = numpy_grid

    def __getitem__(self, key):
        parts = key if isinstance(key, tuple) else (key,)
        for k in parts:
            if isinstance(k, slice) and any(isinstance(v, Tracer)
                                            for v in (k.start, k.stop, k.step)):
                raise TypeError("mgrid/ogrid: slice bounds must be static (Python numbers)")
        return self._numpy[key]


mgrid = _Grid(np.mgrid)
ogrid = _Grid(np.ogrid)


def interp(x, xp, fp, left=None, right=None, period=None):
    """NumPy's interp (float64 results): fp at the increasing 1-d points xp, linearly between
    them; left/right (default fp[0]/fp[-1]) outside them."""
    from ._indexing import take
    from ._sorting import searchsorted
    x, xp, fp = operand(x), operand(xp), operand(fp)
    _check_interp_arguments(x, xp, fp, left, right, period)
    xdt, fdt = _interp_dtypes(x, xp, fp)
    x, xp, fp = astype(x, xdt), astype(xp, xdt), astype(fp, fdt)
    if period is not None:
        x, xp, fp = _periodic(x, xp, fp, period)
        left = right = None
    n = shape_of(xp)[0]
    j = E.minimum(E.maximum(E.subtract(searchsorted(xp, x, side="right"), 1), 0),
                  max(n - 2, 0))
    x0, y0 = take(xp, j, mode="clip"), take(fp, j, mode="clip")
    j1 = E.minimum(E.add(j, 1), n - 1)
    x1, y1 = take(xp, j1, mode="clip"), take(fp, j1, mode="clip")
    slope = E.divide(E.subtract(y1, y0), E.subtract(x1, x0))
    inside = E.add(E.multiply(slope, E.subtract(x, x0)), y0)
    inside = E.where(E.equal(x, x0), y0, inside)        # exact at the sample points
    lo = _outside_value(left, take(fp, 0), x, xp, fp, 0, fdt)
    hi = _outside_value(right, take(fp, n - 1), x, xp, fp, n - 2, fdt)
    out = E.where(E.equal(x, take(xp, n - 1)), take(fp, n - 1), inside)
    out = E.where(E.less(x, take(xp, 0)), lo, out)
    return E.where(E.greater(x, take(xp, n - 1)), hi, out)


def _check_interp_arguments(x, xp, fp, left, right, period):
    """NumPy's and JAX's argument errors, in JAX's words."""
    if len(shape_of(xp)) != 1 or shape_of(xp) != shape_of(fp):
        raise ValueError(f"xp and fp must be one-dimensional arrays of equal size (interp "
                         f"got shapes {shape_of(xp)} and {shape_of(fp)})")
    if shape_of(xp)[0] == 0:
        raise ValueError("interp: array of sample points is empty")
    if dtypes.is_complex(aval_of(x).dtype) or dtypes.is_complex(aval_of(xp).dtype):
        raise ValueError("jnp.interp: complex x values not supported.")
    for name, value in (("left", left), ("right", right)):
        if isinstance(value, str) and value != "extrapolate":
            raise ValueError(f"the only valid string value of `{name}` is 'extrapolate', "
                             f"but got: {value!r}")
    if period is not None and np.ndim(period) != 0:
        raise ValueError(f"period must be a scalar; got {period}")


def _outside_value(option, edge_value, x, xp, fp, segment, fdt):
    """What interp gives beyond one end of xp: the end value (default), the given value, or
    with 'extrapolate' (JAX's) the line through the two end points `segment`, `segment+1`."""
    from ._indexing import take
    if option is None:
        return edge_value
    if not isinstance(option, str):
        return astype(option, fdt)
    if shape_of(xp)[0] == 1:
        return edge_value
    x0, x1 = take(xp, segment), take(xp, segment + 1)
    y0, y1 = take(fp, segment), take(fp, segment + 1)
    slope = E.divide(E.subtract(y1, y0), E.subtract(x1, x0))
    return E.add(y0, E.multiply(slope, E.subtract(x, x0)))


def _interp_dtypes(x, xp, fp):
    """(coordinate dtype, value dtype): float64 and float64 or complex128 under NumPy's
    rules; under JAX's, the inexact promotion of x with xp, and of fp alone (so float32 stays
    float32). Complex values interpolate their real and imaginary parts alike."""
    if not dtypes.config.jax_rules():
        complex_values = dtypes.is_complex(aval_of(fp).dtype)
        return dtypes.float64, dtypes.complex128 if complex_values else dtypes.float64
    from ._dtype_api import result_type
    return (dtypes.float_for_integers(result_type(x, xp)),
            dtypes.float_for_integers(aval_of(fp).dtype))


def _periodic(x, xp, fp, period):
    """NumPy's periodic form: everything modulo the period, xp sorted, one point of wrap
    added at each end."""
    from ._shape import concatenate
    from ._sorting import argsort
    from ._indexing import take
    if period == 0:
        raise ValueError("interp: period must be a non-zero value")
    period = abs(period)
    x, xp = E.remainder(x, period), E.remainder(xp, period)
    order = argsort(xp)
    xp, fp = take(xp, order), take(fp, order)
    xp = concatenate([E.subtract(xp[-1:], period), xp, E.add(xp[:1], period)])
    fp = concatenate([fp[-1:], fp, fp[:1]])
    return x, xp, fp


def logspace(start, stop, num=50, endpoint=True, base=10.0, dtype=None, axis=0):
    """`base ** linspace(start, stop)`; start, stop (and base) may be traced. Static arguments
    give NumPy's values exactly."""
    if not any(isinstance(v, Tracer) for v in (start, stop, base)):
        return np.logspace(start, stop, num, endpoint, base,
                           None if dtype is None else dtypes.canonicalize(dtype), axis)
    y = E.power(base, linspace(start, stop, num, endpoint, axis=axis))
    return y if dtype is None else astype(y, dtypes.canonicalize(dtype))


def geomspace(start, stop, num=50, endpoint=True, dtype=None, axis=0):
    """Numbers evenly spaced on a log scale between start and stop. Traced endpoints follow
    NumPy 2's formula: with s = sign(start) (z/|z| for complex), s * exp(linspace(log(start/s),
    log(stop/s))) along a new leading axis, the endpoints set to the inputs exactly, then
    that axis moved to `axis`."""
    if not isinstance(start, Tracer) and not isinstance(stop, Tracer):
        return np.geomspace(start, stop, num, endpoint,
                            None if dtype is None else dtypes.canonicalize(dtype), axis)
    from ._shape import moveaxis
    from ._manipulation import broadcast_arrays
    start, stop = broadcast_arrays(*(_inexact(operand(v)) for v in (start, stop)))
    sign = E.divide(start, E.abs(start)) if dtypes.is_complex(aval_of(start).dtype) else \
        E.sign(start)
    start, stop = E.divide(start, sign), E.divide(stop, sign)
    y = E.exp(linspace(E.log(start), E.log(stop), num, endpoint, axis=0))
    if num > 0:     # NumPy sets the endpoints to the inputs exactly
        position = np.arange(num).reshape((num,) + (1,) * len(shape_of(start)))
        y = E.where(position == 0, start, y)
        if endpoint and num > 1:
            y = E.where(position == num - 1, stop, y)
    y = moveaxis(E.multiply(sign, y), 0, axis)
    return y if dtype is None else astype(y, dtypes.canonicalize(dtype))


def _inexact(x):
    """x in the floating dtype its logarithm takes (integers to the default float)."""
    dt = aval_of(x).dtype
    return x if dtypes.is_inexact(dt) else astype(x, dtypes.result_type([dt, dtypes.float64],
                                                                        [False, True]))
