"""`EagerArray`: the NumPy array that eager `transpile.numpy` code returns, with JAX's `.at`.

Eagerly, transpile's functions compute on NumPy (DESIGN: "eager = NumPy"), but JAX code
updates arrays with `x.at[i].set(v)`, which a plain `numpy.ndarray` does not have. This
subclass adds that one property and otherwise stays a NumPy array: it prints as NumPy's
`array(...)`, pickles, `np.asarray` of it is a plain ndarray view, and NumPy's own ufuncs
and methods keep the subclass, so `(x + 1).at[0].set(2)` works too.

`.at` is the same helper tracers use (transpile/numpy/_at.py); that module registers it here
when imported, so this low module imports nothing of transpile (tests/test_layering.py).
"""
from __future__ import annotations

import numpy as np

_index_update_helper = None
# Indexing with traced values (`table[i]` under jit, `table` made by tnp outside it): the list
# of active traces (core.active_traces, empty when none runs, so eager indexing pays one
# truth test) and the function that records the read; both registered by transpile.numpy.
_active_traces: list = []
_traced_getitem = None
_ndarray_getitem = np.ndarray.__getitem__


def register_index_update_helper(helper_class) -> None:
    """`helper_class(array)` is what `array.at` returns (IndexUpdateHelper)."""
    global _index_update_helper
    _index_update_helper = helper_class


def register_traced_indexing(active_traces: list, traced_getitem) -> None:
    """While `active_traces` is non-empty, `traced_getitem(array, key)` answers indexing
    first: a traced read, or NotImplemented when `key` holds no traced value."""
    global _active_traces, _traced_getitem
    _active_traces, _traced_getitem = active_traces, traced_getitem


class EagerArray(np.ndarray):
    """A numpy.ndarray with `.at[...]` (functional updates, as on JAX arrays), indexable with
    traced values under jit. Nothing else differs; no `__array_finalize__`, so views and
    results cost what NumPy's do."""
    __slots__ = ()

    @property
    def at(self):
        if _index_update_helper is None:
            raise RuntimeError("EagerArray.at needs transpile.numpy: import transpile")
        return _index_update_helper(self)

    def __getitem__(self, key):
        # As a JAX array made outside jit, indexable with a traced integer inside it (NumPy
        # itself would ask the tracer for its value).
        if _active_traces:
            result = _traced_getitem(self, key)
            if result is not NotImplemented:
                return result
        return _ndarray_getitem(self, key)

    def block_until_ready(self) -> "EagerArray":
        """JAX's: wait until computed. CPU results are complete when returned: returns self."""
        return self

    def __repr__(self):
        return repr(self.view(np.ndarray))

    def __str__(self):
        return str(self.view(np.ndarray))


def eager(x):
    """`x` with every plain ndarray in it (a tuple or list of results too) as an EagerArray:
    a view, no copy. NumPy scalars stay scalars, as NumPy's own functions return them."""
    t = type(x)
    if t is np.ndarray:
        return x.view(EagerArray)
    if t is list or t is tuple:
        return t(map(eager, x))
    return x
