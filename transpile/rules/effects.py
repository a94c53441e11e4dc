"""What effectful primitives do on concrete values. `debug_print` formats its values with
str.format and prints them; the eager path, the interpreter and compiled code (through a
callback, see backends/debug_callback.py) all print through `emit`, so they print alike.
"""
from __future__ import annotations

import sys

import numpy as np


def emit(fmt: str, treedef, values) -> None:
    from ..pytree import tree_unflatten
    args, kwargs = tree_unflatten(treedef, [np.asarray(v) for v in values])
    sys.stdout.write(fmt.format(*args, **kwargs) + "\n")


def debug_print_impl(avals, *values, fmt, treedef):
    emit(fmt, treedef, values)
    return []
