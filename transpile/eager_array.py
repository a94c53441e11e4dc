"""`EagerArray`: the NumPy array that eager `transpile.numpy` code returns, with JAX's `.at`.

Eagerly, transpile's functions compute on NumPy (DESIGN: "eager = NumPy"), but JAX code
updates arrays with `x.at[i].set(v)`, which a plain `numpy.ndarray` does not have. This
subclass adds that one property and otherwise stays a NumPy array: it prints as NumPy's
`array(...)`, pickles, `np.asarray` of it is a plain ndarray view, and NumPy's own ufuncs
and methods keep the subclass, so `(x + 1).at[0].set(2)` works too.

`.at` is the same helper tracers use (transpile/numpy/_at.py); that module registers it here
when imported, so this low module imports nothing of transpile (tests/test_layering.py)
but the bottom-layer config.

Under JAX's dtype rules (transpile.config) the operators and ufuncs of eager arrays, and
their `astype`, are transpile.numpy's (registered by transpile/numpy/_eager_jax.py), so that
`eager_int32_array * 0.5` is float32 as in JAX. Under NumPy's rules (the default) nothing is
installed: eager arrays stay NumPy arrays at NumPy's speed.
"""
from __future__ import annotations

import threading

import numpy as np

from .config import config

_index_update_helper = None
_jax_dispatch = None          # (ufunc_call, astype): transpile.numpy's, under JAX's rules
_reentry = threading.local()  # inside a dispatched call: NumPy's own ufuncs
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

    def devices(self) -> set:
        """JAX's `Array.devices()`: the set of devices holding the array. An eager array
        lives in host memory: the CPU device (`tp.devices('cpu')[0]`)."""
        from .device_array import Device      # on call: device_array loads the CUDA runtime
        return {Device("cpu")}

    @property
    def device(self):
        """JAX's `Array.device`: the one device the array is on (the CPU)."""
        return next(iter(self.devices()))

    def __repr__(self):
        return repr(self.view(np.ndarray))

    def __str__(self):
        return str(self.view(np.ndarray))


def register_jax_dispatch(ufunc_call, astype) -> None:
    """`ufunc_call(ufunc, inputs)` (NotImplemented where it has no equivalent) and
    `astype(x, dtype)`: what eager arrays use under JAX's dtype rules."""
    global _jax_dispatch
    _jax_dispatch = (ufunc_call, astype)
    _follow_config()


def _plain(x):
    return x.view(np.ndarray) if isinstance(x, EagerArray) else x


def _jax_array_ufunc(self, ufunc, method, *inputs, **kwargs):
    if method == "__call__" and not kwargs and not getattr(_reentry, "active", False):
        _reentry.active = True
        try:
            out = _jax_dispatch[0](ufunc, [_plain(x) for x in inputs])
        finally:
            _reentry.active = False
        if out is not NotImplemented:
            return eager(out)
    if "out" in kwargs:
        kwargs["out"] = tuple(_plain(o) for o in kwargs["out"])
    return eager(getattr(ufunc, method)(*map(_plain, inputs), **kwargs))


def _jax_astype(self, dtype, *args, **kwargs):
    if args or kwargs:
        return np.ndarray.astype(self, dtype, *args, **kwargs)
    return eager(_jax_dispatch[1](self.view(np.ndarray), dtype))


def _follow_config() -> None:
    """Install JAX's operators on EagerArray while JAX's rules are on; remove them after."""
    if _jax_dispatch is not None and config.jax_rules():
        EagerArray.__array_ufunc__ = _jax_array_ufunc
        EagerArray.astype = _jax_astype
    else:
        for name in ("__array_ufunc__", "astype"):
            if name in EagerArray.__dict__:
                delattr(EagerArray, name)


config.on_change(_follow_config)


def eager(x):
    """`x` with every plain ndarray in it (a tuple or list of results too) as an EagerArray:
    a view, no copy. NumPy scalars stay scalars, as NumPy's own functions return them."""
    t = type(x)
    if t is np.ndarray:
        return x.view(EagerArray)
    if t is list or t is tuple:
        return t(map(eager, x))
    return x
