"""`ShapeDtypeStruct` and `eval_shape`: a function's output shapes and dtypes, by tracing
alone (nothing is compiled or computed), as `jax.eval_shape`."""
from __future__ import annotations

import dataclasses

import numpy as np

from . import dtypes
from .pytree import tree_map, tree_unflatten


@dataclasses.dataclass(frozen=True)
class ShapeDtypeStruct:
    shape: tuple
    dtype: np.dtype

    def __init__(self, shape, dtype):
        object.__setattr__(self, "shape", tuple(int(d) for d in shape))
        object.__setattr__(self, "dtype", dtypes.canonicalize(dtype))

    ndim = property(lambda self: len(self.shape))
    size = property(lambda self: int(np.prod(self.shape)))

    def __repr__(self):
        return f"ShapeDtypeStruct(shape={self.shape}, dtype={self.dtype.name})"


def _placeholder(x):
    # A zero-strided view: the right shape and dtype for tracing, with no memory behind it.
    if _describes_array(x):
        return np.broadcast_to(np.zeros((), dtypes.canonicalize(x.dtype)), tuple(x.shape))
    return x


def _describes_array(x) -> bool:
    """A ShapeDtypeStruct, or any other object with a shape and a dtype that is not itself an
    array (JAX's abstract values, jax.ShapeDtypeStruct), as jax.eval_shape accepts."""
    if isinstance(x, ShapeDtypeStruct):
        return True
    from .core import Tracer
    return hasattr(x, "shape") and hasattr(x, "dtype") and \
        not isinstance(x, (np.ndarray, np.generic, Tracer))


def eval_shape(fun, *args, **kwargs):
    """A pytree of ShapeDtypeStruct with the structure of fun(*args, **kwargs)'s result."""
    from .api import Jitted
    args = tree_map(_placeholder, args, is_leaf=_describes_array)
    kwargs = tree_map(_placeholder, kwargs, is_leaf=_describes_array)
    lowered = Jitted(fun, backend="interpret").lower(*args, **kwargs)
    outs = [ShapeDtypeStruct(v.aval.shape, v.aval.dtype) for v in lowered.ir.outvars]
    return tree_unflatten(lowered.out_tree, outs)
