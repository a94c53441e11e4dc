"""Pickling jitted functions, so that they cross process boundaries as functions do.

A decorated module-level function is that module's attribute: it pickles by name, as pickle
does plain functions (the receiver imports the module). Anything else is rebuilt from the
function and the jit options, so it pickles as the pickler pickles functions: by reference,
by value under cloudpickle for a script's `__main__` (how Dask and joblib send it), and with
pickle's own error for lambdas and local functions.
"""
from __future__ import annotations

import collections
import sys
import uuid

# Jitted objects by the token of the object they were pickled from. A function pickled by
# value arrives as a new object with every task; mapping it back to one Jitted keeps its
# compiled entries, so a Dask worker traces once, not once per task.
_by_token: collections.OrderedDict = collections.OrderedDict()
_BY_TOKEN_MAX = 256


def reduce_jitted(jitted):
    """`Jitted.__reduce__`."""
    if _is_module_attribute(jitted):
        return jitted.__qualname__
    sig = jitted._sig
    return (_receive, (_sending_token(jitted), jitted.fun, tuple(sorted(sig.static_nums)),
                       tuple(sorted(sig.static_names)), jitted._backend_arg))


def _is_module_attribute(obj) -> bool:
    module = sys.modules.get(getattr(obj, "__module__", None) or "")
    qualname = getattr(obj, "__qualname__", "")
    if module is None or module.__name__ in ("__main__", "__mp_main__") or "<" in qualname:
        return False
    target = module
    for part in qualname.split("."):
        target = getattr(target, part, None)
    return target is obj


def _sending_token(jitted) -> str:
    token = jitted.__dict__.get("_token")
    if token is None:
        token = jitted._token = uuid.uuid4().hex
        _remember(token, jitted)      # unpickled in this same process: the object itself
    return token


def _remember(token, jitted) -> None:
    _by_token[token] = jitted
    while len(_by_token) > _BY_TOKEN_MAX:
        _by_token.popitem(last=False)


def _receive(token, fun, static_argnums, static_argnames, backend):
    """Unpickling: the Jitted already made for `token`, or a new one around `fun`."""
    from .api import Jitted
    jitted = _by_token.get(token)
    if jitted is None:
        jitted = Jitted(fun, static_argnums, static_argnames, backend)
        jitted._token = token
        _remember(token, jitted)
    return jitted
