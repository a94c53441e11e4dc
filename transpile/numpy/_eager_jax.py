"""Eager arrays under JAX's dtype rules: NumPy's ufuncs and operators on an EagerArray run
the transpile.numpy function of the same name (eager_array.py installs the hook only while
transpile.config selects JAX's rules)."""
from __future__ import annotations

import numpy as np

from ..eager_array import register_jax_dispatch
from ..base.operands import astype


def _ufunc_call(ufunc, inputs):
    from .. import numpy as tnp
    fn = getattr(tnp, ufunc.__name__, None)
    if fn is None or not callable(fn):
        return NotImplemented
    return fn(*inputs)


def _sort_method(self, axis=-1, kind=None, order=None, *, stable=True, descending=False):
    """jax.Array.sort: a sorted copy (NumPy's ndarray.sort sorts in place, returns None)."""
    from ._sorting import sort
    return sort(self.view(np.ndarray), axis, kind, order, stable=stable, descending=descending)


register_jax_dispatch(_ufunc_call, astype, {"sort": _sort_method})
