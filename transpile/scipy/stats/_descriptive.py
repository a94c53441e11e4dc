"""jax.scipy.stats's summaries of samples: `mode`, `rankdata` and `sem`.

`mode` and `rankdata` sort along the axis and find the runs of equal values in the sorted
order, so they are O(n log n) and trace with static shapes: a run's first and last sorted
positions come from running max/min scans over the positions where runs begin and end."""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ... import dtypes
from ... import lax
from ... import numpy as tnp
from ...numpy._inexact import promote_inexact

NAN_POLICIES = ("propagate", "omit", "raise")
RANK_METHODS = ("average", "min", "max", "dense", "ordinal")


class ModeResult(NamedTuple):
    mode: object
    count: object


def _check_nan_policy(name, nan_policy):
    if nan_policy not in NAN_POLICIES:
        raise ValueError(f"{name}: illegal nan_policy {nan_policy!r}; expected one of "
                         f"{NAN_POLICIES}")
    if nan_policy != "propagate":
        raise NotImplementedError(
            f"{name}: nan_policy={nan_policy!r} is not implemented (as in JAX): under jit the "
            f"presence of NaNs is not known; check for them before the call, or use "
            f"nan_policy='propagate'")


def _run_bounds(s):
    """For each position of `s` (sorted along its last axis): whether a new run of equal
    values begins there, and that run's first and last positions. NaNs count as one value."""
    n = s.shape[-1]
    same = (s[..., 1:] == s[..., :-1]) | (tnp.isnan(s[..., 1:]) & tnp.isnan(s[..., :-1]))
    edge = tnp.ones(s.shape[:-1] + (1,), dtype=bool)
    begins = tnp.concatenate([edge, ~same], axis=-1)
    ends = tnp.concatenate([~same, edge], axis=-1)
    position = tnp.broadcast_to(tnp.arange(n), s.shape)
    first = lax.cummax(tnp.where(begins, position, 0), axis=s.ndim - 1)
    last = lax.cummin(tnp.where(ends, position, n - 1), axis=s.ndim - 1, reverse=True)
    return begins, first, last


def mode(a, axis=0, nan_policy="propagate", keepdims=False):
    """The most frequent value along `axis` (the smallest of those tied) and its count."""
    _check_nan_policy("mode", nan_policy)
    x = tnp.atleast_1d(tnp.asarray(a))
    if axis is None:
        x, axis = tnp.ravel(x), 0
    axis = axis + x.ndim if axis < 0 else axis
    out_shape = x.shape[:axis] + x.shape[axis + 1:]
    if x.shape[axis] == 0:
        nan = tnp.full(out_shape, np.nan, dtype=dtypes.default_float())
        return ModeResult(nan, tnp.zeros(out_shape, dtype=dtypes.default_float()))
    s = tnp.sort(tnp.moveaxis(x, axis, -1), axis=-1)
    _, first, last = _run_bounds(s)
    runs = last - first + 1
    where = tnp.argmax(runs, axis=-1)[..., None]
    value = tnp.take_along_axis(s, where, axis=-1)[..., 0]
    count = tnp.take_along_axis(runs, where, axis=-1)[..., 0]
    count = count.astype(dtypes.default_for_python_type(int))
    if keepdims:
        value, count = tnp.expand_dims(value, axis), tnp.expand_dims(count, axis)
    return ModeResult(value, count)


def _ranks_along_last(a, method):
    sorter = tnp.argsort(a, axis=-1, stable=True)
    inverse = tnp.argsort(sorter, axis=-1, stable=True)      # each element's sorted position
    out_dtype = dtypes.default_float()
    if method == "ordinal":
        ranks = (inverse + 1).astype(out_dtype)
    else:
        s = tnp.take_along_axis(a, sorter, axis=-1)
        begins, first, last = _run_bounds(s)
        per_sorted = {"dense": lambda: tnp.cumsum(begins, axis=-1),
                      "min": lambda: first + 1,
                      "max": lambda: last + 1,
                      "average": lambda: (first + last) / 2 + 1}[method]()
        ranks = tnp.take_along_axis(per_sorted, inverse, axis=-1).astype(out_dtype)
    any_nan = tnp.any(tnp.isnan(a), axis=-1, keepdims=True)
    return tnp.where(any_nan, np.nan, ranks).astype(out_dtype)


def rankdata(a, method="average", *, axis=None, nan_policy="propagate"):
    """Ranks from 1, ties resolved by `method`; all NaN (along the axis) where there is a NaN.
    With axis=None the flattened array is ranked."""
    _check_nan_policy("rankdata", nan_policy)
    if method not in RANK_METHODS:
        raise ValueError(f"rankdata: unknown method {method!r}; expected one of {RANK_METHODS}")
    a = tnp.asarray(a)
    if axis is None:
        return _ranks_along_last(tnp.ravel(a), method)
    return tnp.moveaxis(_ranks_along_last(tnp.moveaxis(a, axis, -1), method), -1, axis)


def sem(a, axis=0, ddof=1, nan_policy="propagate", *, keepdims=False):
    """The standard error of the mean: std(ddof) / sqrt(n), n the count along `axis` (the
    non-NaN count with nan_policy='omit')."""
    b, = promote_inexact(a)
    if nan_policy == "propagate":
        size = b.size if axis is None else b.shape[axis]
        return b.std(axis, ddof=ddof, keepdims=keepdims) / np.sqrt(size).astype(b.dtype)
    if nan_policy == "omit":
        count = tnp.sum(~tnp.isnan(b), axis=axis, keepdims=keepdims)
        # nanstd's result is cast back: transpile's nanstd of float32 is float64 for now.
        spread = tnp.nanstd(b, axis, ddof=ddof, keepdims=keepdims).astype(b.dtype)
        return spread / tnp.sqrt(count).astype(b.dtype)
    raise ValueError(f"sem: nan_policy {nan_policy!r} is not supported; use 'propagate' or "
                     f"'omit'")
