"""Arrays made outside jit (an EagerArray: `TABLE = tnp.array([0, 9])` at module level)
indexed by traced values inside it, as JAX arrays are: `TABLE[i]` records a read of the
constant. NumPy itself would ask the traced index for its value; EagerArray.__getitem__ asks
`traced_getitem` first while a trace is active (transpile/eager_array.py)."""
from __future__ import annotations

from ..core import Tracer, active_traces
from ..eager_array import register_traced_indexing
from ..strength import marked
from ._shape import getitem


def _holds_tracer(key) -> bool:
    parts = key if isinstance(key, (tuple, list)) else (key,)
    return any(isinstance(k, Tracer) or (isinstance(k, slice) and any(
        isinstance(b, Tracer) for b in (k.start, k.stop, k.step))) for k in parts)


def traced_getitem(array, key):
    """`array[key]` recorded into the trace (the array a constant), as on a jit argument;
    NotImplemented when `key` holds no traced value (NumPy indexes it as usual)."""
    if not _holds_tracer(key):
        return NotImplemented
    return marked(getitem(array, key))


def install() -> None:
    register_traced_indexing(active_traces, traced_getitem)
