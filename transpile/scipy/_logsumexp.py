"""logsumexp: log(sum(b * exp(a))) without overflow, as jax.scipy.special.logsumexp (also
jax.nn.logsumexp): shift by the largest finite element, sum, take the log, shift back."""
from __future__ import annotations

import numpy as np

from .. import numpy as tnp
from ..core import aval_of
from ..numpy._inexact import as_inexact
from ..base.operands import normalize_axes, operand


def logsumexp(a, axis=None, b=None, keepdims=False, return_sign=False, where=None):
    """log(sum(b * exp(a), axis)). With `b` (weights, which may be negative), the sum's sign
    is returned as a second result when `return_sign`, else a negative sum gives NaN."""
    a = as_inexact(a)
    if b is not None:
        b = operand(b)
        common = tnp.result_type(a, b)
        a, b = tnp.asarray(a, dtype=common), tnp.asarray(b, dtype=common)
        a = tnp.where(b != 0, a, -np.inf)      # a zero weight drops its term, even an inf
    axes = normalize_axes(axis, len(aval_of(a).shape)) if axis is not None else None
    peak = tnp.max(a, axis=axes, keepdims=True, where=where,
                   initial=-np.inf if where is not None else None)
    # An all -inf (or empty) slice has no finite peak: shift by 0 instead.
    peak = tnp.where(tnp.isfinite(peak), peak, 0)
    terms = tnp.exp(a - peak)
    if b is not None:
        terms = terms * b
    total = tnp.sum(terms, axis=axes, keepdims=keepdims, where=where)
    sign = tnp.sign(total)
    if b is not None or return_sign:
        total = tnp.abs(total)
    out = tnp.log(total) + (peak if keepdims else tnp.squeeze(peak, axis=axes))
    if return_sign:
        return out, sign
    if b is not None:
        out = tnp.where(sign < 0, np.nan, out)
    return out
