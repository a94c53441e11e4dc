"""`disable_jit()`: a context manager under which jitted functions run eagerly, as in JAX.

It swaps `Jitted.__call__` for the eager call while active, so the compiled path pays
nothing for the feature when it is not in use. It is process-wide (not per thread).
"""
from __future__ import annotations

import contextlib
import threading

_lock = threading.Lock()
_depth = 0
_compiled_call = None


def _eager_call(self, *args, **kwargs):
    return self.fun(*args, **kwargs)


@contextlib.contextmanager
def disable_jit(disable: bool = True):
    global _depth, _compiled_call
    if not disable:
        yield
        return
    from .api import Jitted
    with _lock:
        if _depth == 0:
            _compiled_call = Jitted.__call__
            Jitted.__call__ = _eager_call
        _depth += 1
    try:
        yield
    finally:
        with _lock:
            _depth -= 1
            if _depth == 0:
                Jitted.__call__ = _compiled_call
