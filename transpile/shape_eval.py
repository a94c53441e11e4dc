"""`ShapeDtypeStruct` and `eval_shape`: a function's output shapes and dtypes, by tracing
alone (nothing is compiled or computed), as `jax.eval_shape`."""
from __future__ import annotations

import numpy as np

from . import dtypes
from .eager_array import as_weak
from .pytree import tree_map, tree_unflatten


class ShapeDtypeStruct:
    """A shape and a dtype standing for an array: an argument of eval_shape, jit(f).lower and
    make_jaxpr, and what they return. As JAX's, it is a pytree leaf (a dataclass would be a
    node of its fields here), immutable, and equal to another with the same shape and dtype;
    `weak_type` says whether it stands for a weakly typed value."""
    __slots__ = ("shape", "dtype", "weak_type")

    def __init__(self, shape, dtype, *, weak_type=False):
        object.__setattr__(self, "shape", tuple(int(d) for d in shape))
        object.__setattr__(self, "dtype", dtypes.canonicalize(dtype))
        object.__setattr__(self, "weak_type", bool(weak_type))

    ndim = property(lambda self: len(self.shape))
    size = property(lambda self: int(np.prod(self.shape)))

    def __setattr__(self, name, value):
        raise AttributeError(f"ShapeDtypeStruct is immutable: cannot set '{name}'; make a "
                             "new one")

    def __eq__(self, other):
        return isinstance(other, ShapeDtypeStruct) and (self.shape, self.dtype, self.weak_type) \
            == (other.shape, other.dtype, other.weak_type)

    def __hash__(self):
        return hash((self.shape, self.dtype, self.weak_type))

    def __repr__(self):
        weak = ", weak_type=True" if self.weak_type else ""
        return f"ShapeDtypeStruct(shape={self.shape}, dtype={self.dtype.name}{weak})"


def _placeholder(x):
    # A zero-strided view: the right shape and dtype for tracing, with no memory behind it.
    if _describes_array(x):
        zeros = np.broadcast_to(np.zeros((), dtypes.canonicalize(x.dtype)), tuple(x.shape))
        return as_weak(zeros) if getattr(x, "weak_type", False) else zeros
    return x


def with_placeholders(args, kwargs):
    """(args, kwargs) with every ShapeDtypeStruct-like leaf replaced by a placeholder array
    of its shape and dtype, for tracing alone (eval_shape, jit(f).lower, make_jaxpr)."""
    return (tree_map(_placeholder, args, is_leaf=_describes_array),
            tree_map(_placeholder, kwargs, is_leaf=_describes_array))


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
    lowered = Jitted(fun, backend="interpret").lower(*args, **kwargs)
    outs = [ShapeDtypeStruct(v.aval.shape, v.aval.dtype, weak_type=v.aval.weak_type)
            for v in lowered.ir.outvars]
    return tree_unflatten(lowered.out_tree, outs)
