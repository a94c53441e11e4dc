"""jax.lax.ragged_dot and ragged_dot_general: matrix products over groups of consecutive rows.

One lhs dimension is *ragged*: `group_sizes` (shape [prefix..., g]) cuts it into g runs of
consecutive indices. Three modes, by the kind of that dimension:

1. non-contracting (ragged_dot's [m, k] x [g, k, n] -> [m, n]): the rows of run i meet the
   rhs slice of group i (the rhs has a group dimension);
2. contracting ([m, k] x [k, n] -> [g, m, n]): run i of the contraction gives output i;
3. batch: an ordinary dot_general (the groups do not change the result).

Built as JAX defines it: the ragged operand is spread over a new leading group axis, each
copy masked to its run (positions past the last run are zero in every copy), and one
dot_general contracts (mode 1) or batches (mode 2) over that axis. The masks and the product
fuse into the compiled matmul's operands; differentiation and vmap need no rule of their own.
"""
from __future__ import annotations

import dataclasses

import numpy as np

from . import dtypes
from .core import aval_of
from .numpy import _elementwise as E
from .base.iota import broadcasted_iota
from .base.operands import astype, broadcast_to
from .base.operands import operand as as_operand
from .lax_ops import broadcast_in_dim, cumsum, dot_general, transpose

__all__ = ["RaggedDotDimensionNumbers", "ragged_dot", "ragged_dot_general"]


@dataclasses.dataclass(frozen=True)
class RaggedDotDimensionNumbers:
    """The dot dimension numbers ((lhs contracting, rhs contracting), (lhs batch, rhs
    batch)), the lhs ragged dimension (one) and the rhs group dimension (one in mode 1,
    none otherwise)."""
    dot_dimension_numbers: tuple
    lhs_ragged_dimensions: tuple
    rhs_group_dimensions: tuple

    def __init__(self, dot_dimension_numbers, lhs_ragged_dimensions, rhs_group_dimensions):
        dims = tuple(tuple(tuple(int(d) for d in side) for side in pair)
                     for pair in dot_dimension_numbers)
        object.__setattr__(self, "dot_dimension_numbers", dims)
        object.__setattr__(self, "lhs_ragged_dimensions", tuple(lhs_ragged_dimensions))
        object.__setattr__(self, "rhs_group_dimensions", tuple(rhs_group_dimensions))


_RAGGED_DOT = RaggedDotDimensionNumbers((([1], [1]), ([], [])), [0], [0])


def ragged_dot(lhs, rhs, group_sizes, precision=None, preferred_element_type=None,
               group_offset=None, out_sharding=None):
    """[m, k] x [g, k, n] -> [m, n]: rows of group i (group_sizes[i] consecutive rows) times
    rhs[i]; rows past sum(group_sizes) are 0."""
    return ragged_dot_general(lhs, rhs, group_sizes, _RAGGED_DOT, precision=precision,
                              preferred_element_type=preferred_element_type,
                              group_offset=group_offset, out_sharding=out_sharding)


def ragged_dot_general(lhs, rhs, group_sizes, ragged_dot_dimension_numbers, precision=None,
                       preferred_element_type=None, group_offset=None, out_sharding=None):
    """dot_general with one ragged lhs dimension (see the module's three modes)."""
    del out_sharding                          # one device
    if group_offset is not None:
        raise NotImplementedError("ragged_dot_general: group_offset is not supported; "
                                  "slice group_sizes to the groups to compute instead")
    lhs, rhs = as_operand(lhs, "lhs"), as_operand(rhs, "rhs")
    sizes = as_operand(group_sizes, "group_sizes")
    dnums = ragged_dot_dimension_numbers
    (lc, rc), (lb, rb) = [[list(d) for d in pair] for pair in dnums.dot_dimension_numbers]
    mode, ragged = _mode(aval_of(lhs).ndim, dnums)
    prefix = _prefix_axes(mode, aval_of(lhs).ndim, ragged, lb, lc)
    _check(mode, lhs, rhs, sizes, dnums, prefix, rb, rc)
    if aval_of(sizes).ndim == 1:
        sizes = broadcast_to(sizes, tuple(aval_of(lhs).shape[a] for a in prefix)
                             + aval_of(sizes).shape)
    dot = _dot_with(precision, preferred_element_type)
    shift = _shifted
    if mode == "noncontracting":
        group_axis = dnums.rhs_group_dimensions[0]
        return dot(_spread_runs(lhs, ragged, sizes, prefix), rhs,
                   ((shift(lc) + [0], rc + [group_axis]), (shift(lb), rb)))
    if mode == "contracting":
        rhs_ragged = rc[lc.index(ragged)]
        rhs_prefix = _prefix_axes(mode, aval_of(rhs).ndim, rhs_ragged, rb, rc)
        return dot(_spread_runs(lhs, ragged, sizes, prefix),
                   _spread_runs(rhs, rhs_ragged, sizes, rhs_prefix),
                   ((shift(lc), shift(rc)), ([0] + shift(lb), [0] + shift(rb))))
    return dot(lhs, rhs, ((lc, rc), (lb, rb)))


def _shifted(axes):
    return [a + 1 for a in axes]


def _dot_with(precision, preferred_element_type):
    def dot(x, y, dimension_numbers):
        return dot_general(x, y, dimension_numbers, precision=precision,
                           preferred_element_type=preferred_element_type)
    return dot


def _mode(ndim, dnums):
    """Which kind of lhs dimension is ragged, and which one it is."""
    if len(dnums.lhs_ragged_dimensions) != 1:
        raise TypeError(f"ragged_dot_general expects exactly one lhs ragged dimension. Got "
                        f"{dnums.lhs_ragged_dimensions}.")
    ragged = dnums.lhs_ragged_dimensions[0]
    _check_axis(ragged, ndim, "lhs ragged dimension", "lhs")
    (lc, _), (lb, _) = dnums.dot_dimension_numbers
    if ragged in lc:
        return "contracting", ragged
    if ragged in lb:
        return "batch", ragged
    return "noncontracting", ragged


def _prefix_axes(mode, ndim, ragged, batch, contracting):
    """The operand axes group_sizes' leading axes stand for: the batch axes, then (modes 1
    and 2) the non-contracting or contracting axes before the ragged one."""
    batch, contracting = list(batch), list(contracting)
    if mode == "batch":
        return batch[:batch.index(ragged)]
    if mode == "contracting":
        return batch + contracting[:contracting.index(ragged)]
    free = [a for a in range(ndim) if a not in batch and a not in contracting]
    return batch + free[:free.index(ragged)]


def _check_axis(axis, ndim, what, name):
    if not 0 <= axis < ndim:
        raise TypeError(f"ragged_dot_general requires {what} numbers to be nonnegative and "
                        f"less than the number of axes of the {name} value, got {axis} for "
                        f"{name} of rank {ndim}.")


def _check(mode, lhs, rhs, sizes, dnums, prefix, rb, rc):
    """JAX's shape and dtype rules, in its words (TypeErrors)."""
    sizes_aval = aval_of(sizes)
    if not dtypes.is_int(sizes_aval.dtype):
        raise TypeError(f"ragged_dot_general requires that group_sizes.dtype is subtype of "
                        f"np.integer, got {sizes_aval.dtype}")
    if sizes_aval.ndim == 0:
        raise TypeError("expected rank of group_sizes to be >=1, got a scalar")
    groups = sizes_aval.shape[-1]
    if sizes_aval.ndim != 1:
        expected = tuple(aval_of(lhs).shape[a] for a in prefix) + (groups,)
        if sizes_aval.shape != expected:
            raise TypeError(f"expected group_sizes to have shape {expected}, got "
                            f"{sizes_aval.shape}.")
    group_dims = dnums.rhs_group_dimensions
    if mode != "noncontracting":
        if group_dims:
            raise TypeError("ragged_dot_general requires zero group dimensions in the rhs "
                            "when lhs ragged dimension is contracting or batch.")
        return
    if len(group_dims) != 1:
        raise TypeError("ragged_dot_general requires exactly one rhs group dimension when "
                        "lhs ragged dimension is noncontracting.")
    group_axis = group_dims[0]
    _check_axis(group_axis, aval_of(rhs).ndim, "rhs group dimension", "rhs")
    if group_axis in rb or group_axis in rc:
        raise TypeError("ragged_dot_general requires rhs group dimension numbers to be "
                        "distinct from contracting and batch dimensions.")
    if aval_of(rhs).shape[group_axis] != groups:
        raise TypeError(f"expected rhs group dimension size to be {groups}, got "
                        f"{aval_of(rhs).shape[group_axis]}.")


def _spread_runs(x, axis, sizes, prefix):
    """x copied over a new leading axis of the g groups, copy i zero outside run i of
    `axis` (the runs for each index of the `prefix` axes, by sizes[prefix..., i])."""
    shape = aval_of(x).shape
    groups = aval_of(sizes).shape[-1]
    spread_shape = (groups,) + shape
    ends = cumsum(sizes, axis=aval_of(sizes).ndim - 1)
    starts = E.subtract(ends, sizes)
    # sizes' axes are (prefix..., group): place them at (prefix + 1..., 0) of the spread,
    # in increasing order as broadcast_in_dim wants
    targets = [a + 1 for a in prefix] + [0]
    order = sorted(range(len(targets)), key=targets.__getitem__)
    place = [targets[i] for i in order]

    def spread(v):
        return broadcast_in_dim(transpose(v, order), spread_shape, place)
    position = broadcasted_iota(aval_of(sizes).dtype, spread_shape, axis + 1)
    inside = E.logical_and(E.less_equal(spread(starts), position),
                           E.less(position, spread(ends)))
    copies = broadcast_in_dim(x, spread_shape, list(range(1, len(spread_shape))))
    return E.where(inside, copies, astype(np.zeros((), aval_of(x).dtype), aval_of(x).dtype))
