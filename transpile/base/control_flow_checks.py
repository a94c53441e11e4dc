"""The argument checks of lax's control flow, with JAX's messages: code (and JAX's own tests)
that catches these errors by their text ports unchanged. Each check runs before any tracing,
eagerly and under jit alike."""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np


def check_callable(what: str, **functions) -> None:
    """TypeError unless every named argument is callable ('lax.fori_loop: body_fun ...')."""
    for name, fn in functions.items():
        if not callable(fn):
            raise TypeError(f"{what}: {name} argument should be callable, got {fn!r}.")


def check_branches(branches) -> list:
    """lax.switch's branches: a non-empty sequence of callables."""
    branches = list(branches)
    if not branches:
        raise ValueError("Empty branch sequence: lax.switch needs at least one branch")
    if not all(callable(b) for b in branches):
        raise TypeError("lax.switch: branches argument should be a sequence of callables.")
    return branches


def check_predicate(pred) -> None:
    """lax.cond's predicate: a boolean or number scalar (an array of one element or a
    traced scalar included)."""
    if pred is None:
        raise TypeError("cond predicate is None: pass a boolean or number scalar")
    if isinstance(pred, (str, bytes, Sequence)):
        raise TypeError(f"Pred must be a scalar, got {pred} of type {type(pred)}")
    if callable(pred) or not _numeric(pred):
        raise TypeError(f"Pred type must be either boolean or number, got {pred}.")
    if np.ndim(pred) != 0:
        raise TypeError(f"Pred must be a scalar, got {pred} of shape {np.shape(pred)}.")


def check_index(index) -> None:
    """lax.switch's index: an integer scalar (a Python, NumPy or traced one)."""
    if callable(index) or isinstance(index, (str, bytes)):
        raise TypeError(f"Index type must be an integer, got {index}.")
    if np.ndim(index) != 0:
        raise TypeError(f"Branch index must be scalar, got {index} of shape "
                        f"{np.shape(index)}.")
    if not _numeric(index):
        raise TypeError(f"Index type must be an integer, got {index}.")


def _numeric(x) -> bool:
    """A Python number, or anything with a numeric dtype (NumPy values, tracers, eager
    arrays; bfloat16 included)."""
    if isinstance(x, (bool, int, float, complex)):
        return True
    dtype = getattr(x, "dtype", None)
    if dtype is None:
        return False
    dt = np.dtype(dtype)
    return dt.kind in "biufc" or dt.name == "bfloat16"


def check_scan_output(out):
    """lax.scan's body must return a (carry, y) pair."""
    if isinstance(out, (tuple, list)) and len(out) == 2:
        return out
    if hasattr(out, "dtype") and hasattr(out, "shape"):
        got = f"{np.dtype(out.dtype).name}[{','.join(map(str, out.shape))}]"
    else:
        got = type(out).__name__
    raise TypeError(f"scan body output must be a pair, got {got}.")


def check_cond_output(tree, avals, cond_fun_name: str = "") -> None:
    """lax.while_loop's cond_fun must give one boolean scalar: JAX's TypeError otherwise,
    naming the structure (`tree`, a pytree's treedef) or the types (`avals`) it gave."""
    where = f" (cond_fun is {cond_fun_name})" if cond_fun_name else ""
    if tree.kind is not None or len(avals) != 1:
        raise TypeError(f"cond_fun must return a boolean scalar, but got pytree {tree}."
                        f"{where}")
    if avals[0].shape != () or np.dtype(avals[0].dtype) != np.bool_:
        raise TypeError("cond_fun must return a boolean scalar, but got output type(s) "
                        f"{list(avals)}.{where} Compare with a number (`x < n`) or use "
                        "jnp.any/jnp.all to make one boolean.")


def check_fori_bounds(lower_aval, upper_aval) -> None:
    """lax.fori_loop's bounds: two sized (strongly typed) bounds must share their dtype, as
    JAX requires; a Python int (weak) takes its partner's."""
    if lower_aval.weak_type or upper_aval.weak_type or lower_aval.dtype == upper_aval.dtype:
        return
    raise TypeError("lower and upper arguments to fori_loop must have equal types, got "
                    f"{np.dtype(lower_aval.dtype).name} and {np.dtype(upper_aval.dtype).name}"
                    "; cast one, e.g. upper.astype(lower.dtype), or pass a Python int")

