"""`jax.linear_transpose`: the transpose of a function its caller promises is linear.

For a linear function the transpose is its VJP, whatever the point: here it is the VJP at
zeros of the primals' shapes and dtypes (the primals may be ShapeDtypeStructs, as JAX
allows; only their shape and dtype are read). The cotangents come back in the primals'
dtypes, as JAX's do. Integer functions, which JAX transposes too, are not supported: reverse
mode gives integers no cotangent here (float0)."""
from __future__ import annotations

import numpy as np

from .. import dtypes
from ..core import ShapedArray, aval_of, ensure_operand
from ..pytree import tree_flatten, tree_unflatten
from ..shape_eval import _describes_array


def _aval(x) -> ShapedArray:
    """The shape and dtype of a primal: an array, a number, or a ShapeDtypeStruct (anything
    with .shape and .dtype that is not an array)."""
    if _describes_array(x):
        return ShapedArray(tuple(x.shape), dtypes.canonicalize(x.dtype))
    return aval_of(ensure_operand(x, "a primal of linear_transpose"))


def linear_transpose(fun, *primals, reduce_axes=()):
    """The transpose of the linear `fun` at primals of these shapes and dtypes: a function
    from a cotangent shaped as `fun`'s output to a tuple of cotangents shaped as `primals`."""
    from .api import vjp
    if reduce_axes:
        raise NotImplementedError("reduce_axes argument to transpose is deprecated")
    leaves, in_tree = tree_flatten(primals, is_leaf=_describes_array)
    in_avals = [_aval(x) for x in leaves]
    zeros = tree_unflatten(in_tree, [np.zeros(a.shape, a.dtype) for a in in_avals])
    out, pullback = vjp(fun, *zeros)
    out_leaves, out_tree = tree_flatten(out)
    out_avals = [aval_of(ensure_operand(o)) for o in out_leaves]
    _check_dtypes([a.dtype for a in in_avals], [a.dtype for a in out_avals])

    def transposed(out_cotangent):
        ct_leaves, ct_tree = tree_flatten(out_cotangent)
        if ct_tree != out_tree:
            raise TypeError(f"cotangent tree does not match function output, expected "
                            f"{out_tree} but got {ct_tree}")
        ct_avals = [aval_of(ensure_operand(c, "a cotangent")) for c in ct_leaves]
        # a Python number (weakly typed) may stand for a cotangent of any float dtype
        if any(c.shape != a.shape or (c.dtype != a.dtype and not c.weak_type)
               for c, a in zip(ct_avals, out_avals)):
            raise TypeError(f"cotangent type does not match function output, expected "
                            f"{[a.str_short() for a in out_avals]} but got "
                            f"{[c.str_short() for c in ct_avals]}")
        ct_leaves = [_in_dtype(c, a) for c, a in zip(ct_leaves, out_avals)]
        in_cts, _ = tree_flatten(pullback(tree_unflatten(out_tree, ct_leaves)))
        return tuple(tree_unflatten(in_tree, [_in_dtype(c, a) for c, a in
                                              zip(in_cts, in_avals)]))
    return transposed


def _check_dtypes(in_dtypes, out_dtypes):
    every = list(in_dtypes) + list(out_dtypes)
    if all(dtypes.is_inexact(d) for d in every):
        return
    if all(dtypes.is_int(d) for d in every):
        raise NotImplementedError("linear_transpose of an integer -> integer function is not "
                                  "supported by transpile: transpose a float version of it "
                                  "and round the result")
    raise TypeError("linear_transpose only supports [float or complex] -> [float or complex], "
                    "and integer -> integer functions, but got "
                    f"{[np.dtype(d) for d in in_dtypes]} -> {[np.dtype(d) for d in out_dtypes]}.")


def _in_dtype(ct, aval):
    """A cotangent in the dtype of `aval` (a zero for None: a primal the function ignores)."""
    from . import ops
    if ct is None:
        return ops.zeros(aval)
    ct = ensure_operand(ct)
    return ct if aval_of(ct).dtype == aval.dtype else ops.convert(ct, aval.dtype)
