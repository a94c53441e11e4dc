"""JAX's dtype checks of lax's binary operations, under JAX's dtype rules.

`jax.lax` does not promote: `lax.add(int32, float32)` -- or `lax.add(0, 0.0)`, whose Python
numbers are int64 and float64 with x64 -- is a TypeError, and `lax.rem`/`lax.lt` refuse
complex operands; `jax.numpy` is where promotion happens. transpile's lax functions are its
NumPy-style ones, which promote; under JAX's dtype rules each is wrapped here to refuse what
JAX refuses, with JAX's words first (code and JAX's own tests match them) and the fix after.
Under NumPy's rules (transpile's default) they keep promoting, as transpile.numpy does.
"""
from __future__ import annotations

import functools

import numpy as np

from . import dtypes
from .base.operands import operand
from .core import aval_of

# The kinds of dtype each position accepts (NumPy kind letters; bfloat16 counts as a float),
# and how JAX lists them in its message.
_NUMBER = ("iufc", "integer, floating, complexfloating")
_INT_OR_FLOAT = ("iuf", "integer, floating")
_ORDERED = ("iufb", "integer, floating, bool")
_ANY = ("iufcb", "integer, floating, complexfloating, bool")
_FLOAT = ("f", "floating")
_FLOAT_OR_COMPLEX = ("fc", "floating, complexfloating")
_INT = ("iu", "integer")

# lax name -> (JAX's primitive name, accepted kinds, the jax.numpy function that promotes)
BINARY_OPERATIONS = {
    "add": ("add", _NUMBER, "add"), "sub": ("sub", _NUMBER, "subtract"),
    "mul": ("mul", _NUMBER, "multiply"), "div": ("div", _NUMBER, "divide"),
    "rem": ("rem", _INT_OR_FLOAT, "remainder"), "max": ("max", _ANY, "maximum"),
    "min": ("min", _ANY, "minimum"), "atan2": ("atan2", _FLOAT_OR_COMPLEX, "arctan2"),
    "nextafter": ("nextafter", _FLOAT, "nextafter"),
    "eq": ("eq", _ANY, "equal"), "ne": ("ne", _ANY, "not_equal"),
    "lt": ("lt", _ORDERED, "less"), "le": ("le", _ORDERED, "less_equal"),
    "gt": ("gt", _ORDERED, "greater"), "ge": ("ge", _ORDERED, "greater_equal"),
    "shift_left": ("shift_left", _INT, "left_shift"),
    "shift_right_logical": ("shift_right_logical", _INT, "right_shift"),
    "shift_right_arithmetic": ("shift_right_arithmetic", _INT, "right_shift"),
}
# JAX's tip names the jax.numpy equivalent only for these (its table is keyed by name).
_TIPPED = {"add", "sub", "mul", "div", "max", "min", "atan2", "nextafter", "eq", "ne",
           "shift_left", "shift_right_logical", "shift_right_arithmetic"}


def _kind(dtype) -> str:
    return "f" if dtypes.is_bfloat16(dtype) else np.dtype(dtype).kind


def check_binary(name: str, x, y) -> None:
    """JAX's TypeErrors for lax.`name`(x, y): an operand of a kind the operation refuses
    (checked first, as JAX does), then operands of two different dtypes."""
    prim, (kinds, kind_names), equivalent = BINARY_OPERATIONS[name]
    found = [aval_of(operand(v)).dtype for v in (x, y)]
    for position, dtype in enumerate(found):
        if _kind(dtype) not in kinds:
            raise TypeError(f"{prim} does not accept dtype {np.dtype(dtype).name} at position "
                            f"{position}. Accepted dtypes at position {position} are subtypes "
                            f"of {kind_names}.")
    if found[0] != found[1]:
        tip = (f" (Tip: jnp.{equivalent} is a similar function that does automatic type "
               "promotion on inputs)." if name in _TIPPED else "")
        raise TypeError(f"lax.{prim} requires arguments to have the same dtypes, got "
                        f"{np.dtype(found[0]).name}, {np.dtype(found[1]).name}.{tip} Cast "
                        f"one operand (x.astype(y.dtype)) or use jnp.{equivalent}.")


def dtype_checked(name: str, operation):
    """`operation(x, y, ...)` that first checks its operands as JAX's lax.`name` does, while
    JAX's dtype rules are on (an `out_dtype=` argument, as JAX's mul takes, skips the check:
    it casts both operands first)."""
    @functools.wraps(operation)
    def checked(x, y, **kwargs):
        if dtypes.config._token and kwargs.get("out_dtype") is None:
            check_binary(name, x, y)
        return operation(x, y, **kwargs)
    # transpile.lax's own attribute (pickled by reference there); reduce_window recognises
    # the operation one `__wrapped__` below, past transpile.lax's eager-result wrapper too.
    checked.__name__ = checked.__qualname__ = name
    checked.__module__ = "transpile.lax"
    checked.__wrapped__ = getattr(operation, "__wrapped__", operation)
    return checked
