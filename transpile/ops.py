"""`transpile.ops`: jax.ops' segment reductions, the scatter form of a group-by that graph
networks and particle codes use (`segment_sum(messages, receivers, num_nodes)`).

Each is a scatter into `num_segments` rows initialised with the reduction's identity; ids
outside [0, num_segments) are dropped, as JAX drops them. `num_segments` must be given under
jit (it fixes the result's shape); eagerly it defaults to max(segment_ids) + 1.
"""
from __future__ import annotations

import numpy as np

from . import numpy as tnp
from .core import Tracer


def _num_segments(segment_ids, num_segments, what):
    if num_segments is not None:
        return int(num_segments)
    if isinstance(segment_ids, Tracer):
        raise ValueError(f"{what}: num_segments is required when segment_ids is traced "
                         f"(it fixes the result's shape); pass num_segments=<int>")
    ids = np.asarray(segment_ids)
    return int(ids.max()) + 1 if ids.size else 0


def _identity(what, dtype):
    if what in ("segment_sum",):
        return 0
    if what == "segment_prod":
        return 1
    low = what == "segment_max"
    if np.issubdtype(dtype, np.floating):
        return -np.inf if low else np.inf
    if dtype == np.bool_:
        return not low
    info = np.iinfo(dtype)
    return info.min if low else info.max


_UPDATES = {"segment_sum": "add", "segment_prod": "multiply", "segment_max": "max",
            "segment_min": "min"}


def _segment(what, data, segment_ids, num_segments):
    data, segment_ids = tnp.asarray(data), tnp.asarray(segment_ids)
    n = _num_segments(segment_ids, num_segments, what)
    rows = data.shape[len(segment_ids.shape):]
    out = tnp.full((n, *rows), _identity(what, np.dtype(data.dtype)), dtype=data.dtype)
    # .at[] counts negative indices from the end (as JAX's does); a negative segment id is
    # out of range instead, so it is moved past the end where mode="drop" discards it.
    segment_ids = tnp.where(segment_ids < 0, n, segment_ids)
    return getattr(out.at[segment_ids], _UPDATES[what])(data, mode="drop")


def segment_sum(data, segment_ids, num_segments=None, indices_are_sorted=False,
                unique_indices=False, bucket_size=None, mode=None):
    """Row sums of `data` grouped by `segment_ids` (the sorted/unique/bucket hints are
    accepted and unused, as they change only how JAX schedules the scatter)."""
    return _segment("segment_sum", data, segment_ids, num_segments)


def segment_prod(data, segment_ids, num_segments=None, indices_are_sorted=False,
                 unique_indices=False, bucket_size=None, mode=None):
    return _segment("segment_prod", data, segment_ids, num_segments)


def segment_max(data, segment_ids, num_segments=None, indices_are_sorted=False,
                unique_indices=False, bucket_size=None, mode=None):
    """Empty segments hold the dtype's lowest value (-inf for floats), as JAX's."""
    return _segment("segment_max", data, segment_ids, num_segments)


def segment_min(data, segment_ids, num_segments=None, indices_are_sorted=False,
                unique_indices=False, bucket_size=None, mode=None):
    """Empty segments hold the dtype's highest value (inf for floats), as JAX's."""
    return _segment("segment_min", data, segment_ids, num_segments)
