"""Shape checks of `lax.gather` and the `lax.scatter` family's dimension numbers.

Each failure is a TypeError whose message begins with the words JAX (and XLA's shape
inference) use for the same problem, in the same order of checks, so code and tests written
against JAX's errors keep matching; transpile's own hint on the fix follows those words.
"""
from __future__ import annotations

import math


def _fail(message: str, fix: str):
    raise TypeError(f"{message} {fix}")


def _sorted(dims, op: str, name: str):
    dims = tuple(dims)
    if list(dims) != sorted(dims):
        _fail(f"{name} in {op} op must be sorted; got {dims}.",
              f"List {name} in ascending order.")


def _unique(dims, op: str, name: str):
    dims = tuple(dims)
    if len(set(dims)) != len(dims):
        _fail(f"{name} in {op} op must not repeat; got: {dims}.",
              f"Name each dimension at most once in {name}.")


def _in_range(dims, rank: int, op: str, name: str):
    for d in dims:
        if not 0 <= d < rank:
            _fail(f"Invalid {name} set in {op} op; valid range is [0, {rank}); got: {d}.",
                  f"Every entry of {name} must name an existing dimension.")


def _disjoint(dims1, dims2, op: str, name1: str, name2: str):
    if set(dims1) & set(dims2):
        _fail(f"{name1} and {name2} in {op} op must be disjoint; got: {tuple(dims1)} and "
              f"{tuple(dims2)}.", f"A dimension is either in {name1} or in {name2}.")


def _index_map_ok(index_map, rank: int, what: str, name: str):
    """Each index component addresses an operand dim (JAX says 'domain', as XLA does)."""
    for i, d in enumerate(index_map):
        if not 0 <= d < rank:
            _fail(f"Invalid {what}; domain is [0, {rank}), got: {i}->{d}.",
                  f"Each entry of {name} must be an operand dimension.")


def _index_vector_length(op_title: str, name: str, index_map, ishape, end: str):
    vector_dim = len(ishape) - 1
    if len(index_map) != ishape[vector_dim]:
        _fail(f"{op_title} op has {len(index_map)} elements in {name} and the bound of "
              f"dimension index_vector_dim={vector_dim} of indices is {ishape[vector_dim]}. "
              f"These two numbers must be equal{end}",
              f"The last axis of the indices (shape {tuple(ishape)}) holds one start per "
              f"entry of {name}.")


def _batching_pairs(op: str, op_title: str, operand_dims, index_dims, index_name: str,
                    shape, ishape):
    """The batching dims of operand and indices: valid, distinct, paired and equally long."""
    _unique(index_dims, op, index_name)
    _in_range(index_dims, len(ishape), op, index_name)
    if len(ishape) - 1 in index_dims:
        _fail(f"{op_title} op cannot have the index vector dimension as a batching "
              f"dimension; got {tuple(index_dims)}.",
              "The last axis of the indices is the index vector.")
    if len(operand_dims) != len(index_dims):
        _fail(f"{op_title} op requires equal numbers of operand_batching_dims and "
              f"{index_name}, got {tuple(operand_dims)} and {tuple(index_dims)}.",
              "Batching dims pair up one to one.")
    operand_batch = tuple(shape[d] for d in operand_dims)
    index_batch = tuple(ishape[d] for d in index_dims)
    if operand_batch != index_batch:
        _fail(f"{op_title} op requires operand batching dimensions and indices batching "
              f"dimensions to have the same shape, got {operand_batch} and {index_batch}.",
              "Paired batching dims must have equal sizes.")
    return operand_batch


def check_gather(dn, shape, ishape, slice_sizes):
    """XLA's gather shape inference, in JAX's order of checks."""
    rank, out_rank = len(shape), len(dn.offset_dims) + len(ishape) - 1
    _sorted(dn.offset_dims, "gather", "offset_dims")
    _unique(dn.offset_dims, "gather", "offset_dims")
    for i, d in enumerate(dn.offset_dims):
        if not 0 <= d < out_rank:
            _fail(f"Offset dimension {i} in gather op is out of bounds; got {d}, but should "
                  f"have been in [0, {out_rank})",
                  "offset_dims are output dimensions: there are len(offset_dims) + the "
                  "batch dims of the indices.")
    _index_vector_length("Gather", "start_index_map", dn.start_index_map, ishape, ".")
    _index_map_ok(dn.start_index_map, rank, "start_index_map", "start_index_map")
    _unique(dn.start_index_map, "gather", "start_index_map")
    _sorted(dn.collapsed_slice_dims, "gather", "collapsed_slice_dims")
    _in_range(dn.collapsed_slice_dims, rank, "gather", "collapsed_slice_dims")
    _unique(dn.collapsed_slice_dims, "gather", "collapsed_slice_dims")
    _unique(dn.operand_batching_dims, "gather", "operand_batching_dims")
    _sorted(dn.operand_batching_dims, "gather", "operand_batching_dims")
    _in_range(dn.operand_batching_dims, rank, "gather", "operand_batching_dims")
    _disjoint(dn.collapsed_slice_dims, dn.operand_batching_dims, "gather",
              "collapsed_slice_dims", "operand_batching_dims")
    _disjoint(dn.start_index_map, dn.operand_batching_dims, "gather", "start_index_map",
              "operand_batching_dims")
    _batching_pairs("gather", "Gather", dn.operand_batching_dims,
                    dn.start_indices_batching_dims, "start_indices_batching_dims", shape,
                    ishape)
    _check_slice_sizes(dn, shape, ishape, slice_sizes)


def _check_slice_sizes(dn, shape, ishape, slice_sizes):
    rank = len(shape)
    if len(slice_sizes) != rank:
        _fail(f"Gather op must have one slice size for every input dimension; got: "
              f"len(slice_sizes)={len(slice_sizes)}, input_shape.rank={rank}",
              f"Pass {rank} slice sizes.")
    if rank != len(dn.offset_dims) + len(dn.collapsed_slice_dims) + len(
            dn.operand_batching_dims):
        _fail("All components of the offset index in a gather op must either be a offset "
              f"dimension or explicitly collapsed/batching; got len(slice_sizes)={rank}, "
              f"output_slice_sizes={tuple(dn.offset_dims)}, collapsed_slice_dims="
              f"{tuple(dn.collapsed_slice_dims)}, operand_batching_dims="
              f"{tuple(dn.operand_batching_dims)}.",
              "Every operand dim needs an offset dim in the output unless it is collapsed "
              "or batching.")
    # With no index vectors at all there is no slice to take, so JAX checks no sizes.
    if math.prod(ishape) != 0:
        for d, size in enumerate(slice_sizes):
            if not 0 <= size <= shape[d]:
                _fail(f"Slice size at index {d} in gather op is out of range, must be "
                      f"within [0, {shape[d]} + 1), got {size}.",
                      f"The operand has shape {tuple(shape)}.")
    for i, d in enumerate(dn.collapsed_slice_dims):
        if slice_sizes[d] != 1:
            _fail(f"Gather op can only collapse slice dims with bound 1, but bound is "
                  f"{slice_sizes[d]} for index {d} at position {i}.",
                  "Give collapsed dims slice size 1, or make the dim an offset dim.")
    for i, d in enumerate(dn.operand_batching_dims):
        if slice_sizes[d] > 1:
            _fail(f"Gather op can only have operand batching dims with bound 0/1, but "
                  f"bound is {slice_sizes[d]} for index {d} at position {i}.",
                  "Give batching dims slice size 1.")


def check_scatter(dn, shape, ishape, ushape):
    """XLA's scatter shape inference, in JAX's order of checks."""
    rank, urank = len(shape), len(ushape)
    expected_urank = len(ishape) - 1 + len(dn.update_window_dims)
    if urank != expected_urank:
        _fail(f"Updates tensor must be of rank {expected_urank}; got {urank}.",
              "The updates have the batch dims of the indices plus one axis per "
              "update_window_dims entry.")
    for name, dims, bound in (("update_window_dims", dn.update_window_dims, urank),
                              ("inserted_window_dims", dn.inserted_window_dims, rank),
                              ("operand_batching_dims", dn.operand_batching_dims, rank)):
        _sorted(dims, "scatter", name)
        _unique(dims, "scatter", name)
        _in_range(dims, bound, "scatter", name)
    _disjoint(dn.inserted_window_dims, dn.operand_batching_dims, "scatter",
              "inserted_window_dims", "operand_batching_dims")
    _disjoint(dn.scatter_dims_to_operand_dims, dn.operand_batching_dims, "scatter",
              "scatter_dims_to_operand_dims", "operand_batching_dims")
    operand_batch = _batching_pairs("scatter", "Scatter", dn.operand_batching_dims,
                                    dn.scatter_indices_batching_dims,
                                    "scatter_indices_batching_dims", shape, ishape)
    scatter_dims = [i for i in range(urank) if i not in dn.update_window_dims]
    updates_batch = tuple(ushape[scatter_dims[j]] for j in dn.scatter_indices_batching_dims)
    if operand_batch != updates_batch:
        _fail("Scatter op requires operand batching dimensions and updates batching "
              f"dimensions to have the same shape, got {operand_batch} and {updates_batch}.",
              "Paired batching dims must have equal sizes.")
    window = len(dn.update_window_dims) + len(dn.inserted_window_dims) + len(
        dn.operand_batching_dims)
    if rank != window:
        _fail(f"Scatter op has window of size {window}; doesn't match operand of rank "
              f"{rank}.", "Every operand dim is an update window dim, inserted or batching.")
    _index_vector_length("Scatter", "scatter_dims_to_operand_dims",
                         dn.scatter_dims_to_operand_dims, ishape, "")
    _index_map_ok(dn.scatter_dims_to_operand_dims, rank, "scatter_dims_to_operand_dims mapping",
                  "scatter_dims_to_operand_dims")
    _unique(dn.scatter_dims_to_operand_dims, "scatter", "scatter_dims_to_operand_dims")
    _check_update_bounds(dn, shape, ishape, ushape, scatter_dims)


def _check_update_bounds(dn, shape, ishape, ushape, scatter_dims):
    window_dims = [d for d in range(len(shape)) if d not in dn.inserted_window_dims
                   and d not in dn.operand_batching_dims]
    for d, u in zip(window_dims, dn.update_window_dims):
        if ushape[u] > shape[d]:
            _fail("Bounds of the window dimensions of updates must not exceed the bounds of "
                  f"the corresponding dimensions of operand. For dimension {u}, updates bound "
                  f"is {ushape[u]}, operand bound is {shape[d]}.",
                  f"Operand dim {d} is shorter than the update window.")
    for u, b in zip(scatter_dims, ishape[:-1]):
        if ushape[u] != b:
            _fail("Bounds of the scatter dimensions of updates must be the same as the bounds "
                  "of the corresponding dimensions of scatter indices. For scatter dimension "
                  f"{u}, updates bound is {ushape[u]}, indices bound is {b}.",
                  f"The updates' scatter dims must match the indices' batch dims "
                  f"{tuple(ishape[:-1])}.")
