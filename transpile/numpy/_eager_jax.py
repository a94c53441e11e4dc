"""Eager arrays under JAX's dtype rules: NumPy's ufuncs and operators on an EagerArray run
the transpile.numpy function of the same name (eager_array.py installs the hook only while
transpile.config selects JAX's rules)."""
from __future__ import annotations

import sys

import numpy as np

from ..eager_array import register_jax_dispatch
from ..base.operands import astype


def _ufunc_call(ufunc, inputs):
    from .. import numpy as tnp
    fn = getattr(tnp, ufunc.__name__, None)
    if fn is None or not callable(fn):
        return NotImplemented
    return fn(*inputs)


def _sort_method(self, *args, **kwargs):
    """jax.Array.sort: a sorted copy. NumPy's own functions (np.sort, np.unique, ...) sort
    their private copies of an eager array with this method and read the copy afterwards,
    so for a caller inside NumPy it is NumPy's in-place sort."""
    if sys._getframe(1).f_globals.get("__name__", "").startswith("numpy."):
        return np.ndarray.sort(self, *args, **kwargs)
    return _sorted_copy(self, *args, **kwargs)


def _sorted_copy(self, axis=-1, kind=None, order=None, *, stable=True, descending=False):
    from ._sorting import sort
    return sort(self.view(np.ndarray), axis, kind, order, stable=stable, descending=descending)


register_jax_dispatch(_ufunc_call, astype, {"sort": _sort_method})
