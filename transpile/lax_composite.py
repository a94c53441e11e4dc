"""jax.lax.composite: a function marked as one named operation of a compiler's library.

JAX emits a StableHLO `composite` op whose decomposition is the function, for compilers that
have a fused kernel by that name. transpile's compilers have none, so the decomposition is
what runs (traced into the caller, fused with it). Kept from JAX: the attributes (keyword
arguments) are static values, and a composite cannot be differentiated (JAX has no JVP rule
for it: define one with custom_jvp around the decomposition).
"""
from __future__ import annotations

import functools

from .core import Tracer
from .errors import UnexpectedTracerError

__all__ = ["composite"]


def composite(decomposition, name, version=0):
    """`decomposition` as the operation `name` (version `version`); call the result with the
    operands positionally and the attributes as keywords."""
    del version                                   # names a kernel's revision: no kernel here

    @functools.wraps(decomposition)
    def operation(*operands, **attributes):
        for key, value in attributes.items():
            if isinstance(value, Tracer):
                raise UnexpectedTracerError(
                    f"composite {name!r}: attribute {key}= is a traced value; attributes are "
                    "constants of the operation. Note: If you are passing jax arrays as "
                    "attributes, use numpy arrays instead.")
        from .autodiff.custom import custom_jvp    # autodiff builds on lax: imported when used
        undifferentiable = custom_jvp(lambda *xs: decomposition(*xs, **attributes))
        undifferentiable.defjvp(_no_jvp)
        return undifferentiable(*operands)
    return operation


def _no_jvp(primals, tangents):
    raise ValueError("JVP rule for composite not implemented. You can use `jax.custom_jvp` to "
                     "add support. See "
                     "https://docs.jax.dev/en/latest/_autosummary/jax.custom_jvp.html")
