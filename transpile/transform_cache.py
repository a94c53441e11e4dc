"""Eager calls of a transformation (`grad(f)(x)`, `vmap(f)(xs)` outside any trace): the
transformed program is traced once per signature and replayed on later calls, as `jit`
keeps one trace per signature, so a training loop calling `grad(loss)(params, batch)` does
not trace `loss` again at every step.

An entry is keyed on
- the function and the transformation's parameters (argnums, in_axes...). A function a
  transformation returned (`grad(f)`, made again at every call of `vmap(grad(f))`) keys on
  what it is made of, not on its identity (`transformation_key`);
- the dtype rules in force (transpile.config), as jit's cache;
- the arguments: each traced leaf's shape and dtype (and weak type), each static leaf's
  value (a Python number or other hashable passed to the function as it is), the trees;
- the objects the function's closure cells and the globals its code names hold, by
  identity (the entry keeps them alive, so an identity is never reused): rebinding one
  (`scale = 3.0`, a new array assigned to a global) traces again rather than replaying a
  program that baked the old value in. A value mutated in place is not seen, as under jit.

A call whose arguments cannot be keyed (an unhashable static leaf) or whose trace fails
(the function needs a concrete value where the cached trace gives it a tracer) runs the
transformation's own eager path instead, every time for that signature.
"""
from __future__ import annotations

import collections
import threading
import weakref

import numpy as np

from .config import config as _config
from .core import aval_of, trace_context
from .eager_array import eager
from .errors import describe_function
from .pytree import tree_flatten, tree_unflatten
from .rules.impl import evaluate
from .tracing import Trace

# Per base function: at most this many signatures are kept (least recently used dropped).
ENTRY_LIMIT = 32

_MISSING = object()
_UNCACHEABLE = object()


class Uncacheable(Exception):
    """Raised while building an entry for a result the cache cannot replay (float0 leaves)."""


class _Entry:
    __slots__ = ("ir", "consts", "out_tree", "keep_alive")

    def __init__(self, ir, consts, out_tree, keep_alive):
        self.ir, self.consts, self.out_tree = ir, consts, out_tree
        self.keep_alive = keep_alive

    def __call__(self, inputs):
        results = evaluate(self.ir, self.consts, inputs)
        return tree_unflatten(self.out_tree, [eager(r) for r in results])


class CacheInfo:
    """Counters of one base function's eager-transformation cache (what tests read)."""

    def __init__(self):
        self.hits = self.misses = self.uncached = 0


_caches: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()
_lock = threading.RLock()


class _FunctionCache:
    def __init__(self):
        self.entries: collections.OrderedDict = collections.OrderedDict()
        self.info = CacheInfo()


def _cache_for(base):
    with _lock:
        try:
            return _caches.setdefault(base, _FunctionCache())
        except TypeError:           # not weak-referenceable: nothing is cached for it
            return None


def transformation_key(fun):
    """(base function, parameters): a transformed function keys on the function it
    transforms and its parameters (set by grad, vmap... as `__transpile_transform__`)."""
    spec = getattr(fun, "__transpile_transform__", None)
    if spec is None:
        return fun, ()
    inner, params = spec
    base, inner_params = transformation_key(inner)
    return base, (params, inner_params)


def cache_info(fun) -> CacheInfo:
    """The counters of `fun`'s eager-transformation cache (a fresh one if none)."""
    cache = _cache_for(transformation_key(fun)[0])
    return cache.info if cache is not None else CacheInfo()


def _guard(fun, keep: list) -> tuple:
    """Identities of what `fun`'s closure and named globals hold (appended to `keep`)."""
    ids = []
    seen = set()
    stack = [fun]
    while stack:
        f = stack.pop()
        if id(f) in seen:
            continue
        seen.add(id(f))
        spec = getattr(f, "__transpile_transform__", None)
        if spec is not None:
            stack.append(spec[0])
            continue
        func = getattr(f, "func", None)             # functools.partial
        if func is not None and hasattr(f, "keywords"):
            keep.extend((f.args, f.keywords))
            ids.append((id(f.args), id(f.keywords)))
            stack.append(func)
            continue
        for cell in getattr(f, "__closure__", None) or ():
            try:
                value = cell.cell_contents
            except ValueError:                      # an empty cell
                value = _MISSING
            keep.append(value)
            ids.append(id(value))
        code, glob = getattr(f, "__code__", None), getattr(f, "__globals__", None)
        if code is not None and glob is not None:
            for name in code.co_names:
                value = glob.get(name, _MISSING)
                if value is not _MISSING:
                    keep.append(value)
                    ids.append(id(value))
    return tuple(ids)


def _leaf_key(x, traced: bool):
    if traced:
        a = aval_of(x)
        return (a.shape, a.dtype.str, a.weak_type)
    try:
        hash(x)
    except TypeError:
        raise Uncacheable from None
    return (type(x), x)


def call(fun, params, args, kwargs, traced, build, fallback):
    """`fun` transformed, called eagerly on `args`/`kwargs`, through the cache.

    traced(leaves) -> the positions of the leaves of (args, kwargs) the program takes as
    inputs (the others are passed as they are); build(args, kwargs) runs the transformation
    under the trace this module opens (arguments as tracers where traced); fallback() runs
    the transformation's own eager path."""
    base, fun_params = transformation_key(fun)
    cache = _cache_for(base)
    if cache is None:
        return fallback()
    leaves, treedef = tree_flatten((args, kwargs))
    inputs = traced(leaves)
    keep: list = []
    try:
        wanted = set(inputs)
        key = (fun_params, params, _config.token(), treedef,
               tuple(_leaf_key(x, k in wanted) for k, x in enumerate(leaves)),
               _guard(fun, keep))
    except Uncacheable:
        cache.info.uncached += 1
        return fallback()
    try:
        with _lock:
            entry = cache.entries.get(key)
            if entry is not None:
                cache.entries.move_to_end(key)      # least recently used goes first
    except TypeError:               # a parameter or tree node that does not hash
        cache.info.uncached += 1
        return fallback()
    if entry is _UNCACHEABLE:
        cache.info.uncached += 1
        return fallback()
    if entry is not None:
        cache.info.hits += 1
        return entry([leaves[k] for k in inputs])
    cache.info.misses += 1
    try:
        entry = _build(fun, leaves, treedef, inputs, build, keep)
    except Exception:
        # Traced the cached way the function fails (it may need a concrete value of an
        # argument the transformation does not transform): its own eager path decides.
        result = fallback()
        _insert(cache, key, _UNCACHEABLE)
        return result
    _insert(cache, key, entry)
    return entry([leaves[k] for k in inputs])


def _insert(cache, key, entry):
    with _lock:
        cache.entries[key] = entry
        while len(cache.entries) > ENTRY_LIMIT:
            cache.entries.popitem(last=False)


def _build(fun, leaves, treedef, inputs, build, keep):
    trace = Trace(f"eager transformation of {describe_function(fun)}",
                  getattr(fun, "__name__", "f"))
    with trace_context(trace):
        full = list(leaves)
        for k in inputs:
            full[k] = trace.new_argument(aval_of(leaves[k]), f"argument {k}")
        args, kwargs = tree_unflatten(treedef, full)
        out = build(args, kwargs)
        out_leaves, out_tree = tree_flatten(out)
        for o in out_leaves:
            if isinstance(o, np.ndarray) and o.dtype.kind == "V":    # float0: no data
                raise Uncacheable
        ir = trace.to_ir(out_leaves)
    return _Entry(ir, list(trace.consts), out_tree, keep)
