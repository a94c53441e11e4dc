"""`disable_jit()`: a context manager under which jitted functions run eagerly, as in JAX.

It swaps `Jitted.__call__` for the eager call while active, so the compiled path pays
nothing for the feature when it is not in use. It is process-wide (not per thread). The
function sees its array arguments as EagerArrays (zero-copy views with JAX's `.at`), so code
that updates an argument with `x.at[i].set(v)` runs eagerly as it does compiled.
"""
from __future__ import annotations

import contextlib
import threading

_lock = threading.Lock()
_depth = 0
_compiled_call = None


def _eager_call(self, *args, **kwargs):
    """The function on EagerArray views of its NumPy-array arguments (static ones as given),
    so `x.at[...]` on an argument works as it does under jit; array results are EagerArrays."""
    from .eager_results import eager_tree
    static_nums, static_names = self._sig.static_nums, self._sig.static_names
    args = [x if i in static_nums else eager_tree(x) for i, x in enumerate(args)]
    kwargs = {k: x if k in static_names else eager_tree(x) for k, x in kwargs.items()}
    return eager_tree(self.fun(*args, **kwargs))


def jit_disabled() -> bool:
    """Is a `disable_jit()` block active (JAX's `config.disable_jit.value`)?"""
    return _depth > 0


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
