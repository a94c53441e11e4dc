"""`lax.gather` and the `lax.scatter` family with XLA's dimension numbers, as JAX spells them.

Each call becomes the one-axis `gather` or flat `scatter` primitive that indexing and `.at`
already use: the flat position in the operand of every output (or update) element is an
integer expression of the start indices and iotas, which fuses into the consumer's loop. So
differentiation, batching and both backends need no new rule.

Out-of-range starts follow the mode (`GatherScatterMode`; None means promise_in_bounds for
a gather and fill/drop for a scatter, as in JAX): `clip` (and, for gathers,
`promise_in_bounds`) moves a start so that its whole window fits, as XLA clamps; `fill`
gives a gather's out-of-range windows `fill_value` and drops a scatter's out-of-range update
windows entirely (also the scatters' `promise_in_bounds`, which is XLA's native scatter).
`indices_are_sorted` and `unique_indices` are promises that allow faster code in XLA; they
are accepted and change nothing here. Duplicate positions: `scatter` keeps the last update
in row-major order of `updates` (JAX leaves the choice to the backend); `scatter_apply`
applies `func` once per window covering a position, as XLA does.
"""
from __future__ import annotations

import enum
import math
from typing import NamedTuple, Sequence

import numpy as np

from . import dtypes
from . import primitives as P
from .base.control_flow import while_loop
from .base.iota import broadcasted_iota
from .base.operands import astype, broadcast_to, reshape, shape_of
from .base.operands import operand as as_operand
from .core import aval_of, bind, is_python_scalar
from .lax_gather_checks import check_gather, check_scatter
from .numpy import _elementwise as E

__all__ = ["GatherDimensionNumbers", "ScatterDimensionNumbers", "GatherScatterMode", "gather",
           "scatter", "scatter_add", "scatter_sub", "scatter_mul", "scatter_min", "scatter_max",
           "scatter_apply"]


class GatherDimensionNumbers(NamedTuple):
    """Which output dims are slice (offset) dims, which operand dims a start index addresses
    (`start_index_map`) and which of them the slice drops (`collapsed_slice_dims`); batching
    dims pair operand dims with index dims one to one. The index vector is the last index dim."""
    offset_dims: tuple[int, ...]
    collapsed_slice_dims: tuple[int, ...]
    start_index_map: tuple[int, ...]
    operand_batching_dims: tuple[int, ...] = ()
    start_indices_batching_dims: tuple[int, ...] = ()


class ScatterDimensionNumbers(NamedTuple):
    """Which update dims are window dims, which operand dims the window skips
    (`inserted_window_dims`), and which operand dim each index component addresses."""
    update_window_dims: Sequence[int]
    inserted_window_dims: Sequence[int]
    scatter_dims_to_operand_dims: Sequence[int]
    operand_batching_dims: Sequence[int] = ()
    scatter_indices_batching_dims: Sequence[int] = ()


class GatherScatterMode(enum.Enum):
    CLIP = 1
    FILL_OR_DROP = 2
    PROMISE_IN_BOUNDS = 3
    ONE_HOT = 4

    @staticmethod
    def from_any(s) -> "GatherScatterMode":
        if isinstance(s, GatherScatterMode):
            return s
        spelled = {"clip": GatherScatterMode.CLIP, None: GatherScatterMode.FILL_OR_DROP,
                   "fill": GatherScatterMode.FILL_OR_DROP,
                   "drop": GatherScatterMode.FILL_OR_DROP,
                   "promise_in_bounds": GatherScatterMode.PROMISE_IN_BOUNDS,
                   "one_hot": GatherScatterMode.ONE_HOT}
        if not isinstance(s, (str, type(None))) or s not in spelled:
            raise ValueError(f'Unknown gather mode "{s}"; use "clip", "fill", "drop", '
                             '"promise_in_bounds" or a lax.GatherScatterMode')
        return spelled[s]


def _mode(mode, op: str) -> GatherScatterMode:
    parsed = GatherScatterMode.from_any(mode)
    if parsed is GatherScatterMode.ONE_HOT:
        raise NotImplementedError(f"{op}: mode=ONE_HOT (a one-hot matrix product on TPUs) is "
                                  "not implemented; use mode='clip' or 'fill'")
    return parsed


def _index_operand(indices, op: str):
    indices = as_operand(indices, "indices")
    if not dtypes.is_int(aval_of(indices).dtype):
        raise ValueError(f"{op}: indices must have an integer type, got "
                        f"{aval_of(indices).dtype}")
    if not shape_of(indices):
        raise TypeError(f"{op}: indices need at least one dimension (the index vector is "
                        "the last); add one with indices[None]")
    return astype(indices, dtypes.int64)


def _starts(indices, index_map, bounds: dict, clamp: bool):
    """Each index component (indices[..., k], for operand dim index_map[k]), clamped into
    [0, bounds[d]] when asked, and whether all components of a vector were in that range."""
    starts, in_range = {}, None
    for k, d in enumerate(index_map):
        start = indices[..., k]
        ok = E.logical_and(E.greater_equal(start, 0), E.less_equal(start, bounds[d]))
        in_range = ok if in_range is None else E.logical_and(in_range, ok)
        starts[d] = E.clip(start, 0, max(bounds[d], 0)) if clamp else start
    return starts, in_range


def _placed(x, out_rank: int, dims: list[int]):
    """x (one axis per entry of the ascending `dims`) with unit axes elsewhere, so that it
    broadcasts against an array of rank out_rank."""
    shape = [1] * out_rank
    for i, d in enumerate(dims):
        shape[d] = shape_of(x)[i]
    return reshape(x, tuple(shape))


def _flat_positions(operand_shape, out_shape, starts, batch_dims, coords):
    """Sum over operand dims of (start + window coordinate) * stride, as an int64 array
    broadcast to out_shape. coords[d] is the output axis walking operand dim d (or None)."""
    rank = len(out_shape)
    flat = np.zeros((), np.int64)
    for d, size in enumerate(operand_shape):
        stride = math.prod(operand_shape[d + 1:])
        coord = None
        if d in starts:
            coord = _placed(starts[d], rank, batch_dims)
        if coords.get(d) is not None:
            walk = broadcasted_iota(dtypes.int64, out_shape, coords[d])
            coord = walk if coord is None else E.add(coord, walk)
        if coord is not None:
            flat = E.add(flat, E.multiply(coord, stride))
    return broadcast_to(astype(flat, dtypes.int64), tuple(out_shape))


def _gather_fill_value(dt, fill_value):
    if fill_value is not None:
        return fill_value
    if dtypes.is_inexact(dt):
        return np.nan
    if dt == dtypes.bool_:
        return True
    info = np.iinfo(dt)
    return info.min if info.min < 0 else info.max


def gather(operand, start_indices, dimension_numbers: GatherDimensionNumbers, slice_sizes, *,
           unique_indices=False, indices_are_sorted=False, mode=None, fill_value=None):
    """XLA's Gather: for each index vector (the last axis of start_indices), the slice of
    `slice_sizes` starting there, with the collapsed and batching dims dropped."""
    op = "lax.gather"
    x, indices = _operand_of(operand), _index_operand(start_indices, op)
    # A gather's default is JAX's: promise_in_bounds (clamped here), not fill.
    parsed = _mode(GatherScatterMode.PROMISE_IN_BOUNDS if mode is None else mode, op)
    dn = dimension_numbers
    shape, ishape = shape_of(x), shape_of(indices)
    slice_sizes = tuple(int(s) for s in slice_sizes)
    batch_shape = ishape[:-1]
    out_rank = len(batch_shape) + len(dn.offset_dims)
    check_gather(dn, shape, ishape, slice_sizes)
    window_dims = [d for d in range(len(shape))
                   if d not in dn.collapsed_slice_dims and d not in dn.operand_batching_dims]
    batch_out = [i for i in range(out_rank) if i not in dn.offset_dims]
    out_shape = [0] * out_rank
    for i, b in zip(batch_out, batch_shape):
        out_shape[i] = b
    for i, d in zip(dn.offset_dims, window_dims):
        out_shape[i] = slice_sizes[d]
    bounds = {d: shape[d] - slice_sizes[d] for d in range(len(shape))}
    starts, in_range = _starts(indices, dn.start_index_map, bounds, clamp=True)
    coords = dict(zip(window_dims, dn.offset_dims))
    coords.update({d: batch_out[j] for d, j in zip(dn.operand_batching_dims,
                                                    dn.start_indices_batching_dims)})
    if math.prod(out_shape) == 0 or math.prod(shape) == 0:
        return broadcast_to(astype(np.zeros((), aval_of(x).dtype), aval_of(x).dtype),
                            tuple(out_shape))
    flat = _flat_positions(shape, out_shape, starts, batch_out, coords)
    got = bind(P.gather, reshape(x, (-1,)), flat, axis=0)
    if parsed is not GatherScatterMode.FILL_OR_DROP or in_range is None:
        return got
    fill = astype(_gather_fill_value(aval_of(x).dtype, fill_value), aval_of(x).dtype)
    return E.where(_placed(in_range, out_rank, batch_out), got, fill)


def _operand_of(x):
    x = as_operand(x)
    if is_python_scalar(x):
        x = np.asarray(x)
    return x


# -- scatters --------------------------------------------------------------------------------

def _scatter(x, scatter_indices, updates, dn: ScatterDimensionNumbers, how: str, mode,
             op: str):
    x, indices = _operand_of(x), _index_operand(scatter_indices, op)
    updates = _updates_of(updates, aval_of(x).dtype, op)
    parsed = _mode(mode, op)
    shape, ishape, ushape = shape_of(x), shape_of(indices), shape_of(updates)
    check_scatter(dn, shape, ishape, ushape)
    window_dims = [d for d in range(len(shape)) if d not in dn.inserted_window_dims
                   and d not in dn.operand_batching_dims]
    sizes = {d: 1 for d in range(len(shape))}
    sizes.update({d: ushape[u] for d, u in zip(window_dims, dn.update_window_dims)})
    bounds = {d: shape[d] - sizes[d] for d in range(len(shape))}
    scatter_out = [i for i in range(len(ushape)) if i not in dn.update_window_dims]
    starts, in_range = _starts(indices, dn.scatter_dims_to_operand_dims, bounds,
                               clamp=parsed is GatherScatterMode.CLIP)
    coords = dict(zip(window_dims, dn.update_window_dims))
    coords.update({d: scatter_out[j] for d, j in zip(dn.operand_batching_dims,
                                                      dn.scatter_indices_batching_dims)})
    if math.prod(ushape) == 0 or math.prod(shape) == 0:
        return E.add(x, astype(np.zeros((), aval_of(x).dtype), aval_of(x).dtype))
    flat = _flat_positions(shape, ushape, starts, scatter_out, coords)
    if parsed is not GatherScatterMode.CLIP and in_range is not None:
        flat = E.where(_placed(in_range, len(ushape), scatter_out), flat, -1)
    return bind(P.scatter, x, reshape(flat, (-1,)), reshape(updates, (-1,)), mode=how)


def _updates_of(updates, dt, op: str):
    if is_python_scalar(updates):
        return astype(np.asarray(updates), dt)
    updates = as_operand(updates, "updates")
    if aval_of(updates).dtype != dt:
        if aval_of(updates).weak_type:
            return astype(updates, dt)
        raise TypeError(f"{op} requires operand and updates of the same dtype, got {dt} and "
                        f"{aval_of(updates).dtype}; convert the updates with "
                        f".astype({dt})")
    return updates


def scatter(operand, scatter_indices, updates, dimension_numbers, *, indices_are_sorted=False,
            unique_indices=False, mode=None):
    """Writes each update window at its index (the last duplicate wins here)."""
    return _scatter(operand, scatter_indices, updates, dimension_numbers, "set", mode,
                    "lax.scatter")


def scatter_add(operand, scatter_indices, updates, dimension_numbers, *,
                indices_are_sorted=False, unique_indices=False, mode=None):
    return _scatter(operand, scatter_indices, updates, dimension_numbers, "add", mode,
                    "lax.scatter_add")


def scatter_sub(operand, scatter_indices, updates, dimension_numbers, *,
                indices_are_sorted=False, unique_indices=False, mode=None):
    """operand minus every update at its position: an add of the negated updates."""
    return _scatter(operand, scatter_indices, E.negative(_operand_of(updates)),
                    dimension_numbers, "add", mode, "lax.scatter_sub")


def scatter_mul(operand, scatter_indices, updates, dimension_numbers, *,
                indices_are_sorted=False, unique_indices=False, mode=None):
    return _scatter(operand, scatter_indices, updates, dimension_numbers, "mul", mode,
                    "lax.scatter_mul")


def scatter_min(operand, scatter_indices, updates, dimension_numbers, *,
                indices_are_sorted=False, unique_indices=False, mode=None):
    return _scatter(operand, scatter_indices, updates, dimension_numbers, "min", mode,
                    "lax.scatter_min")


def scatter_max(operand, scatter_indices, updates, dimension_numbers, *,
                indices_are_sorted=False, unique_indices=False, mode=None):
    return _scatter(operand, scatter_indices, updates, dimension_numbers, "max", mode,
                    "lax.scatter_max")


def scatter_apply(operand, scatter_indices, func, dimension_numbers, *, update_shape=(),
                  indices_are_sorted=False, unique_indices=False, mode=None):
    """func applied to the operand's elements that update windows of `update_shape` cover,
    once per window covering each (as XLA applies it: func(func(x)) where two do). A scatter
    counts the windows at each element; a loop applies func where the count is not yet
    reached, as many times as the largest count (once, for unique indices)."""
    x = _operand_of(operand)
    counts = _scatter(broadcast_to(np.zeros((), np.int32), shape_of(x)), scatter_indices,
                      broadcast_to(np.ones((), np.int32), tuple(update_shape)),
                      dimension_numbers, "add", mode, "lax.scatter_apply")

    def apply_once(x_):
        applied = as_operand(func(x_))
        if shape_of(applied) != shape_of(x_) or aval_of(applied).dtype != aval_of(x_).dtype:
            raise TypeError(f"lax.scatter_apply: func must map the operand elementwise to its "
                            f"own dtype; got {aval_of(applied).str_short()} from "
                            f"{aval_of(x_).str_short()}")
        return applied

    if unique_indices:      # the caller's promise: one application, and no loop (so that
        return E.where(E.greater(counts, 0), apply_once(x), x)   # reverse mode works too)

    def more(state):
        return E.less(state[0], _max_count(counts))

    def step(state):
        i, x_ = state
        return E.add(i, np.int32(1)), E.where(E.less(i, counts), apply_once(x_), x_)
    return while_loop(more, step, (np.int32(0), x))[1]


def _max_count(counts):
    from .numpy._reductions import max as reduce_max
    return reduce_max(counts, initial=np.int32(0))
