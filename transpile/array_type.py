"""`transpile.Array`: the abstract type of every array transpile hands you, as `jax.Array`.

JAX code asks `isinstance(x, jax.Array)` to tell arrays from Python numbers and lists. The
objects transpile hands out are of several classes: NumPy arrays and `EagerArray`s (eager and
compiled CPU results), `Tracer`s (inside jit, grad, vmap), and the CUDA backend's
`DeviceArray`. `Array` is an abstract base class they are registered with, so the check is
True for each of them and False for Python scalars, lists and NumPy scalars (JAX says False
for `np.float32(1)` too: a NumPy scalar is not a JAX array). Nothing derives from it; it has
no methods of its own.
"""
from __future__ import annotations

import abc

import numpy as np

from .core import Tracer
from .device_array import DeviceArray


class Array(abc.ABC):
    """Any array transpile hands you: a NumPy array or EagerArray, a Tracer, a DeviceArray.
    For `isinstance`/`issubclass` checks and annotations only (it cannot be instantiated)."""
    __slots__ = ()

    def __new__(cls, *args, **kwargs):
        raise TypeError("transpile.Array is an abstract type for isinstance checks; make "
                        "arrays with transpile.numpy.asarray(...) or device_put(...)")


# np.ndarray covers EagerArray (its subclass) and NumPy arrays captured or returned as is.
for _concrete in (np.ndarray, Tracer, DeviceArray):
    Array.register(_concrete)
