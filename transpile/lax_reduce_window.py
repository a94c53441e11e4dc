"""jax.lax.reduce_window: any reducer, base and window dilation, padding strings, pytrees.

No primitive of its own: each operand is dilated and padded (one `lax.pad`, interior
padding for the base dilation), and each offset in the window contributes
one strided slice of it, folded into the accumulator by the reducer applied elementwise to
whole slices, as `lax.reduce` applies its computation. Fusion turns the slices into one loop
over the output that reads every window's elements from the padded input (a 3 x 3 max pool is
one pass with nine loads per output), which is the direct kernel; differentiation and vmap
see only slices, pads and elementwise operations, so they need no rule of their own.

Each output is the initial value folded with the window's elements of the operand, in window
order (row-major offsets; XLA's order is unspecified, and row-major is what its CPU code does
without padding), as XLA computes ReduceWindow on CPU: positions on padding or on a
base-dilation hole are skipped (they are not the initial value folded in), and a 0-d operand
comes back unchanged. The monoids (add, mul, max, min) pad with their identity instead and
fold the initial value in once, at the end, unless it is the identity.
"""
from __future__ import annotations

import itertools
import operator

import numpy as np

from .core import aval_of
from .lax_conv import padtype_to_pads
from . import numpy as tnp
from .numpy import _elementwise as E
from .base.operands import astype, broadcast_to, operand as as_operand
from .pytree import tree_flatten, tree_unflatten

from .lax_ops import mul as _lax_mul, pad as _lax_pad  # noqa: E402

__all__ = ["reduce_window"]

# The binary functions reduce_window recognises as monoids, by identity, and the value each
# ignores.
_COMBINERS = {E.maximum: ("max", -np.inf), E.minimum: ("min", np.inf), E.add: ("add", 0),
              E.multiply: ("mul", 1), operator.add: ("add", 0), operator.mul: ("mul", 1),
              max: ("max", -np.inf), min: ("min", np.inf),
              tnp.maximum: ("max", -np.inf), tnp.minimum: ("min", np.inf),
              tnp.add: ("add", 0), tnp.multiply: ("mul", 1)}
_COMBINERS[_lax_mul] = ("mul", 1)      # lax.mul: multiply with JAX's out_dtype=


def _identity_of(kind, dtype):
    """The identity of the combination in the operand's dtype (min/max of an integer type
    are its limits)."""
    neutral = dict((k, v) for k, v in _COMBINERS.values())[kind]
    if np.issubdtype(dtype, np.integer) and kind in ("max", "min"):
        info = np.iinfo(dtype)
        return info.min if kind == "max" else info.max
    if dtype == np.bool_ and kind in ("max", "min"):
        return kind == "min"
    return neutral


def _combine(kind):
    return {"max": E.maximum, "min": E.minimum, "add": E.add, "mul": E.multiply}[kind]


def _monoid_kind(computation):
    # (transpile.lax's eager wrapper of lax.mul keeps the function as __wrapped__)
    return _COMBINERS.get(getattr(computation, "__wrapped__", computation), (None,))[0]


def _per_axis(values, ndim, what, default=1):
    """One positive integer per axis; JAX's TypeError wording for zero or negative ones."""
    if values is None:
        return (default,) * ndim
    values = tuple(operator.index(v) for v in values)
    if any(v < 1 for v in values):
        raise TypeError(f"reduce_window {what} must have every element be strictly "
                        f"positive, got {values}. Give each axis a size or step of at "
                        "least 1.")
    if len(values) != ndim:
        raise ValueError(f"reduce_window: {what} needs {ndim} positive integers (one per "
                         f"axis of the operand), got {values}")
    return values


def _check_inits(xs, inits):
    shapes = [aval_of(i).shape for i in inits]
    if any(shapes):
        raise TypeError(f"reduce_window expected init_values to be scalars but init_values "
                        f"have shapes {shapes}. Pass one scalar per operand.")
    if len({aval_of(x).shape for x in xs}) != 1:
        raise ValueError(f"reduce_window: the operands must share one shape, got "
                         f"{[aval_of(x).shape for x in xs]}")


def reduce_window(operand, init_value, computation, window_dimensions, window_strides=None,
                  padding="VALID", base_dilation=None, window_dilation=None):
    """Reduce each window of `operand` (an array or a pytree of same-shaped arrays) with
    `computation`, starting from `init_value` (a scalar, or the matching pytree of them)."""
    flat, tree = tree_flatten(operand)
    inits, init_tree = tree_flatten(init_value)
    if tree != init_tree or not flat:
        raise ValueError(f"reduce_window: operand and init_value must have the same tree "
                         f"structure with at least one array, got {tree} and {init_tree}")
    xs = [_as_operand(x) for x in flat]
    inits = [_as_operand(i) for i in inits]
    _check_inits(xs, inits)
    shape = aval_of(xs[0]).shape
    window = _per_axis(window_dimensions, len(shape), "window_dimensions")
    strides = _per_axis(window_strides, len(shape), "window_strides")
    dilation = _per_axis(window_dilation, len(shape), "window_dilation")
    base = _per_axis(base_dilation, len(shape), "base_dilation")
    effective = [(w - 1) * d + 1 for w, d in zip(window, dilation)]
    if isinstance(padding, str):      # JAX: from the undilated operand and dilated window
        padding = padtype_to_pads(shape, effective, strides, padding)
    padding = [(operator.index(lo), operator.index(hi)) for lo, hi in padding]
    if len(padding) != len(shape):
        raise ValueError(f"reduce_window: padding needs {len(shape)} (low, high) pairs, got "
                         f"{padding}")
    kind = _monoid_kind(computation) if len(xs) == 1 else None
    if not shape:                     # XLA gives a 0-d operand back as it is, init unused
        return tree_unflatten(tree, xs)
    config = [(lo, hi, b - 1) for (lo, hi), b in zip(padding, base)]
    sizes = [lo + hi + n + max(n - 1, 0) * interior
             for n, (lo, hi, interior) in zip(shape, config)]
    out_shape = tuple(max(0, (s - e) // st + 1)
                      for s, e, st in zip(sizes, effective, strides))
    slices = [tuple(slice(o * d, o * d + (n - 1) * st + 1, st)
                    for o, d, n, st in zip(offset, dilation, out_shape, strides))
              for offset in itertools.product(*(range(w) for w in window))]
    if 0 in out_shape:
        out = [tnp.zeros(out_shape, aval_of(x).dtype) for x in xs]
    elif kind is not None:
        out = [_monoid_fold(kind, xs[0], inits[0], config, slices)]
    else:
        _check_init_dtypes(xs, inits)
        padded = [_lax_pad(x, np.zeros((), aval_of(x).dtype), config) for x in xs]
        inside = _spread_like_pad(np.ones(shape, bool), config)
        out = _general_fold(computation, tree, padded, inits, slices,
                            [inside[index] for index in slices], out_shape)
    return tree_unflatten(tree, out)


def _as_operand(x):
    return as_operand(x, "reduce_window operand")


def _spread_like_pad(mask, config):
    """A NumPy boolean array as `lax.pad(mask, False, config)` spreads and pads it: which
    positions of the padded, base-dilated operand hold its elements."""
    for axis, (lo, hi, interior) in enumerate(config):
        n = mask.shape[axis]
        spread = np.zeros(mask.shape[:axis] + (n + max(n - 1, 0) * interior,)
                          + mask.shape[axis + 1:], bool)
        spread[(slice(None),) * axis + (slice(None, None, interior + 1),)] = mask
        widths = [(0, 0)] * mask.ndim
        widths[axis] = (max(lo, 0), max(hi, 0))
        spread = np.pad(spread, widths)
        keep = slice(-min(lo, 0), spread.shape[axis] + min(hi, 0))
        mask = spread[(slice(None),) * axis + (keep,)]
    return mask


def _monoid_fold(kind, x, init, config, slices):
    """Padding and dilation holes hold the monoid's identity, so they drop out; the
    initial value joins once, and only where it is not the identity."""
    dtype = aval_of(x).dtype
    combine = _combine(kind)
    padded = _lax_pad(x, np.asarray(_identity_of(kind, dtype), dtype), config)
    result = padded[slices[0]]
    for index in slices[1:]:
        result = combine(result, padded[index])
    if not _is_identity(init, kind, dtype):
        result = combine(result, astype(init, dtype))
    return astype(result, dtype)


def _check_init_dtypes(xs, inits):
    operand_dtypes = [aval_of(x).dtype for x in xs]
    init_dtypes = [aval_of(i).dtype for i in inits]
    if operand_dtypes != init_dtypes:      # JAX's check: the computation sees both types
        raise TypeError(f"reduce_window got inconsistent dtypes for operands and init_values:"
                        f" got operand dtypes {operand_dtypes} and init_value dtypes "
                        f"{init_dtypes}. Give each init_value its operand's dtype.")


def _general_fold(computation, tree, padded, inits, slices, insides, out_shape):
    """acc = init; acc = computation(acc, element) for each offset of the window, in order,
    on whole slices; where the offset falls on padding or a dilation hole the accumulator
    is kept (XLA skips those positions: they are not init values folded in)."""
    acc = list(inits)
    for index, inside in zip(slices, insides):
        result = computation(tree_unflatten(tree, acc),
                             tree_unflatten(tree, [x[index] for x in padded]))
        leaves, out_tree = tree_flatten(result)
        if out_tree != tree:
            raise ValueError(f"reduce_window output must have the same tree structure as "
                             f"the operands {tree} vs. {out_tree}. Return from the "
                             "computation what it is given.")
        new = [astype(as_operand(v), aval_of(x).dtype) for v, x in zip(leaves, padded)]
        acc = new if inside.all() else [E.where(inside, n, a) for n, a in zip(new, acc)]
    return [broadcast_to(a, out_shape) for a in acc]


def _is_identity(value, kind, dtype) -> bool:
    if hasattr(value, "aval"):
        return False
    return bool(np.asarray(value, dtype) == np.asarray(_identity_of(kind, dtype), dtype))
