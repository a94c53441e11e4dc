"""Multi-dimensional histograms: `histogramdd` and `histogram2d`, with static bins (counts
or edges) per dimension. Each sample's bin index per dimension is found as `histogram`
finds it (the last edge inclusive, outside values dropped), and the counts are one scatter
on the flattened grid."""
from __future__ import annotations

import builtins
import math

import numpy as np

from .. import dtypes
from ..core import aval_of
from . import _elementwise as E
from ._scatter import _bin_edges, scatter_update
from ..base.operands import astype, operand, reshape, shape_of


def _bin_index(values, edges):
    from ._sorting import searchsorted
    nbins = shape_of(edges)[0] - 1
    last = E.equal(values, edges[nbins])
    inside = E.logical_and(E.greater_equal(values, edges[0]), E.less_equal(values, edges[nbins]))
    index = E.where(last, nbins - 1, E.subtract(searchsorted(edges, values, side="right"), 1))
    return index, inside, nbins


def _per_dimension(value, d, what):
    if value is None:
        return [None] * d
    if isinstance(value, (int, np.integer)):
        return [value] * d
    value = list(value)
    if len(value) != d:
        raise ValueError(f"histogramdd: {what} must have one entry per dimension ({d}), got "
                         f"{len(value)}")
    return value


def histogramdd(sample, bins=10, range=None, weights=None, density=None):  # noqa: A002
    """(counts of shape (bins_0, ..., bins_{D-1}), [edges per dimension]) of the (N, D)
    samples."""
    from ._creation import zeros
    sample = operand(sample)
    if len(shape_of(sample)) == 1:
        sample = reshape(sample, (-1, 1))
    n, d = shape_of(sample)
    bins_list = _per_dimension(bins, d, "bins") if not (
        hasattr(bins, "shape") and len(np.shape(bins)) == 1 and d == 1) else [bins]
    ranges = _per_dimension(range, d, "range")
    flat, valid, edges, sizes = None, None, [], []
    for k in builtins.range(d):
        column = sample[:, k]
        e = _bin_edges(column, bins_list[k], ranges[k])
        index, inside, nbins = _bin_index(column, e)
        edges.append(e)
        sizes.append(nbins)
        flat = index if flat is None else E.add(E.multiply(flat, nbins), index)
        valid = inside if valid is None else E.logical_and(valid, inside)
    total = math.prod(sizes)
    flat = E.where(valid, flat, total)          # past the end: dropped by the scatter
    if weights is None:
        counts = scatter_update(zeros(total, dtypes.default_int()), (flat,), 1, "add")
    else:
        w = reshape(operand(weights), (-1,))
        counts = scatter_update(zeros(total, aval_of(w).dtype), (flat,), w, "add")
    counts = reshape(counts, tuple(sizes))
    if density:
        from ._reductions import sum as sum_
        counts = E.divide(counts, sum_(counts))
        for k, e in enumerate(edges):
            shape = [1] * d
            shape[k] = sizes[k]
            counts = E.divide(counts, reshape(E.subtract(e[1:], e[:-1]), tuple(shape)))
    return counts, edges


def histogram2d(x, y, bins=10, range=None, weights=None, density=None):  # noqa: A002
    """(counts, x edges, y edges) of the points (x[i], y[i])."""
    from ._shape import stack
    x, y = operand(x), operand(y)
    from ._dtype_api import result_type
    dt = result_type(x, y)
    sample = stack([astype(x, dt), astype(y, dt)], axis=1)
    # NumPy's reading: two entries are per-axis specs; any other sequence is one set of edges
    # for both axes; a number of bins serves both too.
    try:
        n = len(bins)
    except TypeError:
        n = 1
    if n not in (1, 2):
        bins = [bins, bins]
    counts, edges = histogramdd(sample, bins, range, weights, density)
    return counts, edges[0], edges[1]
