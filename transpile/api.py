"""`jit`, `make_ir` and `Lowered`: the public entry points.

A call to a jitted function computes a cache key from the argument structure,
shapes, dtypes and static values; a hit goes straight to the loaded binary, a
miss traces, optimises, compiles (or finds the binary on disk) and records why.
"""
from __future__ import annotations

import collections
import contextlib
import dataclasses
import functools
import inspect
import operator
import os
import threading
import time
import weakref
from itertools import compress

import numpy as np

from . import backends, dtypes, logs
from .config import config as _config
from .core import ShapedArray, Tracer, _state as _trace_state, active_traces, aval_of
from .core import foreign_to_host, is_foreign_array
from .device_array import DeviceArray
from .eager_array import EagerArray, WeakEagerArray, as_weak
from .errors import describe_function
from .ir import IR, ClosedIR
from .pytree import LEAF, tree_flatten, tree_leaf_paths, tree_unflatten
from .stable_repr import stable_repr
from .tracing import trace_flat

_PY_SCALAR_KEYS = {float: "f64~", int: "i64~", bool: "bool", complex: "c128~"}
# NumPy arrays as arguments: an EagerArray (eager_array.py) is one, with the same cache keys.
_HOST_ARRAYS = frozenset((np.ndarray, EagerArray))
# Arrays passed on other paths: device arrays, and weak eager values (JAX's rules), which trace
# as weakly typed and so take their own cache keys.
_OTHER_ARRAYS = frozenset((DeviceArray, WeakEagerArray))


@dataclasses.dataclass
class CacheInfo:
    hits: int = 0            # calls answered from memory
    misses: int = 0          # calls that traced
    disk_hits: int = 0       # traces whose binary was found on disk
    disk_misses: int = 0     # traces that ran the compiler
    entries: int = 0         # specialisations held in memory


DEFAULT_MEMORY_ENTRIES = 64


def memory_entry_limit() -> int:
    """How many specialisations one function keeps in memory (TRANSPILE_MEMORY_CACHE_SIZE)."""
    value = os.environ.get("TRANSPILE_MEMORY_CACHE_SIZE", "")
    try:
        return max(1, int(value)) if value.strip() else DEFAULT_MEMORY_ENTRIES
    except ValueError:
        logs.warn_once("bad-memory-size", f"transpile: TRANSPILE_MEMORY_CACHE_SIZE={value!r} is "
                       f"not an integer; using {DEFAULT_MEMORY_ENTRIES}")
        return DEFAULT_MEMORY_ENTRIES


class _FunctionCache:
    """Specialisations of one Python function under one jit configuration, least recently
    used first. An evicted entry's module is unloaded once no running call holds it."""

    def __init__(self):
        self.entries: collections.OrderedDict = collections.OrderedDict()
        self.info = CacheInfo()
        self.last_description: dict | None = None
        # The dispatch fast path (see _add_fast_path): the argument types, then the (shape,
        # dtype) of each array argument -> a runner. Emptied whenever `entries` changes (an
        # insert may evict), so it never holds an entry the memory cache has let go of. Fast
        # hits do not refresh an entry's LRU position: one called only that way keeps the
        # position of its last general-path call, and after an eviction takes the general
        # path again.
        self.fast: dict = {}
        # Held while tracing and compiling: threads first-calling one signature wait for the
        # first to finish instead of compiling it again. Re-entrant for nested jit calls.
        self.lock = threading.RLock()

    def insert(self, key, entry, fun) -> None:
        self.fast.clear()
        self.entries[key] = entry
        limit = memory_entry_limit()
        while len(self.entries) > limit:
            old_key, _ = self.entries.popitem(last=False)
            logs.cache(f"evicted a specialisation of {describe_function(fun)} from memory "
                       f"(limit {limit} per function): {_short_key(old_key)}")
        self.info.entries = len(self.entries)


def _short_key(key) -> str:
    text = repr(key)
    return text if len(text) <= 120 else text[:117] + "..."


_caches: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def _fresh_locks_in_forked_child() -> None:
    """A fork while another thread was compiling copies its held lock into the child, where
    no thread will ever release it: the child starts with fresh locks instead."""
    for per_fun in list(_caches.values()):
        for cache in per_fun.values():
            cache.lock = threading.RLock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_fresh_locks_in_forked_child)


def _function_cache(fun, config) -> _FunctionCache:
    try:
        per_fun = _caches.setdefault(fun, {})
    except TypeError:          # not weak-referenceable: the cache lives with this jit object
        per_fun = {}
    return per_fun.setdefault(config, _FunctionCache())


# ---------------------------------------------------------------------------------------------
# Argument handling

class _Signature:
    """Which parameters are static, and their names, resolved from the function signature."""

    def __init__(self, fun, static_argnums, static_argnames):
        try:
            params = list(inspect.signature(fun).parameters.values())
            known = True
        except (TypeError, ValueError):
            params, known = [], False
        positional = [p.name for p in params
                      if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        self.var_positional = any(p.kind == p.VAR_POSITIONAL for p in params)
        self.positional_names = positional
        nums = set()
        for n in _as_tuple(static_argnums):
            if not isinstance(n, int):
                raise TypeError(f"static_argnums must be ints, got {n!r}")
            nums.add(n % len(positional) if n < 0 and positional else n)
        names = set(_as_tuple(static_argnames))
        for name in names:
            if not isinstance(name, str):
                raise TypeError(f"static_argnames must be strings, got {name!r}")
        if known:                    # as JAX, when jit is applied rather than at a call
            check_argnums(params, _as_tuple(static_argnums), "static_argnums")
            check_argnames(params, _as_tuple(static_argnames), "static_argnames")
        # As in JAX, a static name also covers the argument when it is passed by position.
        nums |= {positional.index(n) for n in names if n in positional}
        names |= {positional[i] for i in nums if i < len(positional)}
        self.static_nums, self.static_names = frozenset(nums), frozenset(names)

    def arg_name(self, i: int) -> str:
        return self.positional_names[i] if i < len(self.positional_names) else f"args[{i}]"


def check_argnums(params, argnums: tuple, what: str) -> None:
    """JAX's check: every index names a positional parameter (any does, given *args)."""
    if not argnums or any(p.kind == p.VAR_POSITIONAL for p in params):
        return
    count = sum(p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) for p in params)
    if -min(argnums) > count or max(argnums) >= count:
        raise ValueError(f"Jitted function has {what}={argnums}, but only accepts {count} "
                         f"positional arguments.")


def check_argnames(params, argnames: tuple, what: str) -> None:
    """JAX's check: every name is a parameter that can be passed by keyword (any name can,
    given **kwargs, except the positional-only ones)."""
    names = set(argnames)
    positional_only = {p.name for p in params if p.kind == p.POSITIONAL_ONLY} & names
    if positional_only:
        raise ValueError(f"Jitted function has invalid argnames {positional_only} in {what}. "
                         f"These are positional-only")
    if any(p.kind == p.VAR_KEYWORD for p in params):
        return
    unknown = names - {p.name for p in params
                       if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)}
    if unknown:
        raise ValueError(f"Jitted function has invalid argnames {unknown} in {what}. Function "
                         f"does not take these args.")


def _as_tuple(x) -> tuple:
    if x is None:
        return ()
    return tuple(x) if isinstance(x, (tuple, list, set, frozenset)) else (x,)


def _leaf_key(x, name: str):
    t = type(x)
    if t in _HOST_ARRAYS:
        return (x.shape, x.dtype.char)
    key = _PY_SCALAR_KEYS.get(t)
    if key is not None:
        if t is int and not -2**63 <= x < 2**63:
            raise _int_out_of_range(x, name)
        return key
    if isinstance(x, np.generic):
        _check_numpy_scalar(x, name)
        return ((), x.dtype.char)
    if t is DeviceArray:
        return (x.shape, x.dtype.char)
    if t is WeakEagerArray:          # JAX's weak value: traced weakly typed, keyed apart
        return (x.shape, x.dtype.char + "~")
    if is_foreign_array(x):          # another library's array (JAX's): as its host copy
        return _leaf_key(foreign_to_host(x), name)
    raise _bad_argument(x, name)


class ArgumentOverflowError(OverflowError, ValueError):
    """A Python int argument that no supported dtype holds (a ValueError, as NumPy's is)."""


def _int_out_of_range(x, name: str) -> ArgumentOverflowError:
    return ArgumentOverflowError(
        f"Argument '{name}' is the Python int {x}, outside int64's range: pass a NumPy array "
        "of an unsigned dtype (for values up to 2**64-1), a float, or mark it static")


def _check_numpy_scalar(x, name: str) -> None:
    if x.dtype.newbyteorder("=") not in dtypes.SUPPORTED:
        raise TypeError(f"Argument '{name}' is a NumPy scalar of type {type(x).__name__} "
                        f"(dtype {x.dtype}), which transpile cannot compile; supported dtypes: "
                        + ", ".join(map(str, dtypes.SUPPORTED)))


def _bad_argument(x, name: str) -> Exception:
    t = type(x).__name__
    if isinstance(x, np.ma.MaskedArray):      # JAX's ValueError: the mask would be lost
        return ValueError(f"Argument '{name}': numpy masked arrays are not supported as jit "
                          "arguments; pass np.ma.getdata(x) or np.ma.filled(x, value)")
    if hasattr(x, "__next__") or t.endswith("iterator") or inspect.isgenerator(x):
        hint = "iterators are consumed while tracing; pass a list, a tuple or an array"
    elif isinstance(x, (str, bytes)):
        hint = "strings are not arrays; mark the argument static with static_argnames"
    else:
        hint = ("pass a NumPy array, a Python number, or a list/tuple/dict of them; mark "
                "other values static with static_argnames")
    return TypeError(f"Argument '{name}' of type {t} is not a valid transpile type: {hint}")


def _check_array_leaf(x, name):
    if type(x) in _HOST_ARRAYS and x.dtype.newbyteorder("=") not in dtypes.SUPPORTED:
        kind = "object or string" if x.dtype.kind in "OSUV" else str(x.dtype)
        raise TypeError(f"Argument '{name}' is an array of dtype {x.dtype} ({kind} data), which "
                        "transpile cannot compile; supported dtypes: "
                        + ", ".join(map(str, dtypes.SUPPORTED)))


def _static_key(value, name: str):
    try:
        hash(value)
    except TypeError:
        raise TypeError(f"Static argument '{name}' has unhashable type {type(value).__name__}; "
                        "static arguments must be hashable (use a tuple instead of a list, or "
                        "make it a traced argument)") from None
    return ("static", type(value), value)


def _aval_for_leaf(x, name: str) -> ShapedArray:
    if type(x) is int and not -2**63 <= x < 2**63:
        raise _int_out_of_range(x, name)
    if isinstance(x, np.generic):
        _check_numpy_scalar(x, name)
    if type(x) is DeviceArray:
        return ShapedArray(x.shape, x.dtype)
    if is_foreign_array(x):
        return aval_of(foreign_to_host(x))
    return aval_of(x)


# ---------------------------------------------------------------------------------------------

class Jitted:
    """A function compiled on first call for each new signature (see `jit`)."""

    def __init__(self, fun, static_argnums=(), static_argnames=(), backend=None):
        if not callable(fun):
            raise TypeError(f"jit expects a callable, got {type(fun).__name__}")
        self.fun = fun
        self._sig = _Signature(fun, static_argnums, static_argnames)
        self._backend_arg = backend            # as given: a receiving process resolves its own
        self._backend_name = backends.resolve_name(backend)
        self._bind_cache()
        with contextlib.suppress(AttributeError):    # partial objects have no __name__
            functools.update_wrapper(self, fun, updated=())

    def _bind_cache(self) -> None:
        """Select the cache for the dtype rules in force (transpile.config): code traced under
        NumPy's rules and under JAX's (x64 on or off) never share an entry."""
        self._config_token = _config.token()
        key = (self._sig.static_nums, self._sig.static_names, self._backend_name)
        if self._config_token:
            key += (self._config_token,)
        self._cache = _function_cache(self.fun, key)
        self._entries, self._info = self._cache.entries, self._cache.info   # hot-path aliases
        self._fast = self._cache.fast

    # -- the hot path --------------------------------------------------------------------------
    def __call__(self, *args, **kwargs):
        if active_traces and _trace_state.stack:   # jit inside jit: inline into the trace
            return self.fun(*args, **kwargs)
        if self._config_token is not _config._token:    # the dtype rules were switched
            self._bind_cache()
        node = self._fast.get(tuple(map(type, args))) if self._fast and not kwargs else None
        if node is not None:                 # arrays and numbers only: see _add_fast_path
            run = node.get(tuple(map(_SHAPE_DTYPE, compress(args, node.is_array))))
            if run is not None:
                result = run(args)
                if result is not None:
                    self._info.hits += 1
                    return result
        key, leaves = self._key(args, kwargs)
        entry = self._entries.get(key)
        if entry is None:
            entry = self._miss(key, args, kwargs)
        else:
            self._info.hits += 1
            try:
                self._entries.move_to_end(key)     # least recently used goes first
            except KeyError:                       # evicted by another thread meanwhile
                pass
            if not kwargs and not self._sig.static_nums:
                _add_fast_path(self._fast, entry, args)
        return entry(leaves)

    def _key(self, args, kwargs):
        static_nums, leaves, parts = self._sig.static_nums, [], []
        for i, x in enumerate(args):
            if i in static_nums:
                parts.append(_static_key(x, self._sig.arg_name(i)))
                continue
            t = type(x)
            if t is np.ndarray or t is DeviceArray or t is EagerArray:
                leaves.append(x)
                parts.append((x.shape, x.dtype.char))
            elif t in _PY_SCALAR_KEYS:
                if t is int and not -2**63 <= x < 2**63:
                    raise _int_out_of_range(x, self._sig.arg_name(i))
                leaves.append(x)
                parts.append(_PY_SCALAR_KEYS[t])
            else:
                parts.append(self._tree_key(x, self._sig.arg_name(i), leaves))
        for name in sorted(kwargs) if kwargs else ():
            x = kwargs[name]
            if name in self._sig.static_names:
                parts.append((name, _static_key(x, name)))
            else:
                parts.append((name, self._tree_key(x, name, leaves)))
        return tuple(parts), leaves

    @staticmethod
    def _tree_key(x, name, leaves):
        flat, treedef = tree_flatten(x)
        for leaf in flat:
            _check_array_leaf(leaf, name)
        keys = tuple(_leaf_key(leaf, name) for leaf in flat)
        leaves.extend(flat)
        return (treedef, keys)

    # -- the slow path -------------------------------------------------------------------------
    def _miss(self, key, args, kwargs):
        with self._cache.lock:
            entry = self._cache.entries.get(key)    # another thread may have built it meanwhile
            if entry is not None:
                self._cache.info.hits += 1
                return entry
            return self._build_entry(key, args, kwargs)

    def _build_entry(self, key, args, kwargs):
        info = self._cache.info
        info.misses += 1
        started = time.perf_counter()
        lowered = self._lower(args, kwargs)
        traced = time.perf_counter()
        executable, from_disk = lowered.compile_with_status(first_call=True)
        done = time.perf_counter()
        if from_disk:
            info.disk_hits += 1
        elif executable.compiled:
            info.disk_misses += 1
        logs.compiles(f"traced {describe_function(self.fun)} in {1e3 * (traced - started):.1f} ms, "
                      f"{'loaded from disk' if from_disk else 'compiled'} in "
                      f"{1e3 * (done - traced):.1f} ms; reason: {self._reason(lowered)}")
        entry = _Entry(executable, lowered.out_tree, lowered.in_avals,
                       _weak_outputs(lowered.ir))
        self._cache.insert(key, entry, self.fun)
        self._cache.last_description = lowered.description
        return entry

    def _reason(self, lowered) -> str:
        old, new = self._cache.last_description, lowered.description
        if old is None:
            return "first call"
        changes = []
        for name in sorted(set(old) | set(new), key=str):
            before, after = old.get(name, "absent"), new.get(name, "absent")
            if before != after:
                what = "static" if str(name).startswith("static ") else "new shape/dtype for"
                label = str(name).removeprefix("static ")
                changes.append(f"{what} '{label}': {before} → {after}")
        return "; ".join(changes) or "new argument structure"

    def _lower(self, args, kwargs) -> "Lowered":
        spec = _TraceSpec()
        pos = [spec.static(x, self._sig.arg_name(i)) if i in self._sig.static_nums
               else spec.dynamic(x, self._sig.arg_name(i)) for i, x in enumerate(args)]
        kw = {name: spec.static(kwargs[name], name) if name in self._sig.static_names
              else spec.dynamic(kwargs[name], name) for name in sorted(kwargs)}
        out_tree = []

        def flat_fun(tracers):
            it = iter(tracers)
            out = self.fun(*[_rebuild(p, it) for p in pos],
                           **{k: _rebuild(p, it) for k, p in kw.items()})
            out_leaves, tree = tree_flatten(out)
            out_tree.append(tree)
            return [_check_output(o, i) for i, o in enumerate(out_leaves)]

        trace, ir = trace_flat(flat_fun, list(zip(spec.avals, spec.names)), self.fun)
        return Lowered(ir, trace.consts, out_tree[0], spec.avals, self.fun, self._backend_name,
                       spec.description, self._dynamic_tree(args, kwargs), spec.names)

    def _dynamic_tree(self, args, kwargs):
        """The structure of the non-static arguments, as `Compiled` is called with them."""
        return tree_flatten(_dynamic_arguments(self._sig, args, kwargs))[1]

    # -- public helpers --------------------------------------------------------------------------
    def lower(self, *args, **kwargs) -> "Lowered":
        """The traced program for these arguments; ShapeDtypeStructs may stand for arrays
        (JAX's ahead-of-time `jit(f).lower(jax.ShapeDtypeStruct(shape, dtype))`)."""
        from .shape_eval import with_placeholders
        if self._config_token is not _config._token:
            self._bind_cache()
        return self._lower(*with_placeholders(args, kwargs))

    def cache_info(self) -> CacheInfo:
        return dataclasses.replace(self._cache.info)

    def clear_cache(self) -> None:
        with self._cache.lock:
            self._cache.fast.clear()
            self._cache.entries.clear()
            self._cache.info.entries = 0

    def __repr__(self):
        return f"<transpile.jit of {describe_function(self.fun)}>"

    def __reduce__(self):       # by reference where possible; see transpile/pickling.py
        from .pickling import reduce_jitted
        return reduce_jitted(self)

    def __get__(self, obj, objtype=None):   # methods: bind like a function would
        return self if obj is None else functools.partial(self, obj)


class _TraceSpec:
    """What tracing needs from the arguments: each dynamic leaf's aval and argument name,
    and a description of every argument (for the retrace reason in TRANSPILE_LOG)."""

    def __init__(self):
        self.avals, self.names, self.description = [], [], {}

    def static(self, x, name):
        _static_key(x, name)
        self.description[f"static {name}"] = stable_repr(x)
        return ("static", x)

    def dynamic(self, x, name):
        flat, treedef = tree_flatten(x)
        for leaf, path in zip(flat, tree_leaf_paths(x, name)):
            _check_array_leaf(leaf, name)
            if not (type(leaf) in _HOST_ARRAYS or type(leaf) in _PY_SCALAR_KEYS
                    or isinstance(leaf, np.generic) or type(leaf) in _OTHER_ARRAYS
                    or is_foreign_array(leaf)):
                raise _bad_argument(leaf, name)
            aval = _aval_for_leaf(leaf, path)
            self.avals.append(aval)
            self.names.append(name)
            self.description[path] = aval.str_short() + ("~" if aval.weak_type else "")
        return ("tree", treedef, len(flat))


def _dynamic_arguments(sig: _Signature, args, kwargs):
    """(positional, keyword) arguments without the static ones, keywords in sorted order (the
    order tracing takes their leaves in)."""
    return ([x for i, x in enumerate(args) if i not in sig.static_nums],
            {k: kwargs[k] for k in sorted(kwargs) if k not in sig.static_names})


def _rebuild(spec, it):
    if spec[0] == "static":
        return spec[1]
    _, treedef, n = spec
    return tree_unflatten(treedef, [next(it) for _ in range(n)])


def _check_output(o, i):
    if isinstance(o, (Tracer, np.ndarray, np.generic)) or type(o) in (bool, int, float, complex):
        return o
    raise TypeError(f"output {i} of the jitted function has type {type(o).__name__}; a jitted "
                    "function must return arrays, numbers, or tuples/lists/dicts of them")


class _Entry:
    """A compiled specialisation: marshal arguments, run, rebuild the output structure."""
    __slots__ = ("run", "out_tree", "in_dtypes", "device_inputs", "weak_outputs")

    def __init__(self, executable, out_tree, in_avals, weak_outputs=()):
        self.run = executable
        self.out_tree = out_tree
        self.in_dtypes = [a.dtype for a in in_avals]
        self.device_inputs = getattr(executable, "device_inputs", False)
        self.weak_outputs = weak_outputs

    def __call__(self, leaves):
        if self.device_inputs:        # the CUDA executable places each leaf itself
            return tree_unflatten(self.out_tree, self.run(leaves))
        arrays = list(map(_as_input, leaves, self.in_dtypes))
        outs = self.run(arrays)
        if self.weak_outputs:
            outs = [as_weak(o) if w else o for o, w in zip(outs, self.weak_outputs)]
        return tree_unflatten(self.out_tree, outs)


def _weak_outputs(ir) -> tuple:
    """Which outputs are weakly typed, under JAX's dtype rules (whose results carry their
    weak types, compiled as eager: jit(lambda x: x * 2)(weak) is weak); () where none is."""
    weak = tuple(v.aval.weak_type for v in ir.outvars) if dtypes.config._token else ()
    return weak if any(weak) else ()


# -- the dispatch fast path: a call whose positional arguments are all C-contiguous arrays and
# Python numbers, with types, shapes and dtypes seen before, skips the general key, argument
# checks and output plan; that work was done once, when its runner was made. Two lookups:
# the arguments' types (a tuple built in C), then the arrays' (shape, dtype) pairs.
_SHAPE_DTYPE = operator.attrgetter("shape", "dtype")
_FAST_NUMBERS = frozenset(_PY_SCALAR_KEYS)


class _FastNode(dict):
    """(shape, dtype) of each array argument -> runner, for one tuple of argument types."""
    __slots__ = ("is_array",)


def _add_fast_path(fast: dict, entry: "_Entry", args) -> None:
    """Register `entry` for calls shaped like `args` (a hit of the general path), if eligible:
    every argument a native-byte-order ndarray of the traced dtype or a Python number, and
    outputs that need no plan."""
    types = tuple(map(type, args))
    if entry.weak_outputs or len(args) != len(entry.in_dtypes) or not all(
            t in _FAST_NUMBERS or (t in _HOST_ARRAYS and x.dtype == d and x.dtype.isnative)
            for t, x, d in zip(types, args, entry.in_dtypes)):
        return
    node = fast.get(types)
    if node is None:
        node = _FastNode()
        node.is_array = [t in _HOST_ARRAYS for t in types]
    array_key = tuple(map(_SHAPE_DTYPE, compress(args, node.is_array)))
    make = getattr(entry.run, "plain_runner", None)
    if array_key in node or make is None:
        return
    single = entry.out_tree == LEAF
    numbers = not all(node.is_array)
    run = make(single, entry.in_dtypes if numbers else None)
    if run is None:
        return
    out_tree = entry.out_tree
    if single:
        node[array_key] = run
    elif out_tree.kind is tuple and all(child == LEAF for child in out_tree.children):
        def as_tuple(arrays):                # `return a, b`: no tree to walk
            outs = run(arrays)
            return None if outs is None else tuple(outs)
        node[array_key] = as_tuple
    else:
        def unflattened(arrays):
            outs = run(arrays)
            return None if outs is None else tree_unflatten(out_tree, outs)
        node[array_key] = unflattened
    fast[types] = node


def _as_input(x, dtype):
    if type(x) in _HOST_ARRAYS and x.dtype == dtype and x.flags.c_contiguous:
        return x
    # np.array, not np.ascontiguousarray: the latter turns 0-d values into shape (1,).
    return np.array(x, dtype=dtype, order="C")


@dataclasses.dataclass
class Lowered:
    """A traced specialisation: its IR, its generated source, and how to compile it."""
    ir: IR
    consts: list
    out_tree: object
    in_avals: list
    fun: object
    backend: str
    description: dict
    in_tree: object = None       # the dynamic arguments' structure (see Compiled)
    in_names: list = dataclasses.field(default_factory=list)   # each leaf's argument name

    @functools.cached_property
    def _backend(self):
        return backends.get(self.backend)

    @functools.cached_property
    def _prepared(self):
        return self._backend.prepare(self.ir, self.consts, self.fun, self.signature,
                                     self.leaf_paths)

    @property
    def leaf_paths(self) -> list:
        """Each traced leaf's Python path ("params['w']", "xs[0]"), in the order of the
        avals: the generated source names its buffers after them."""
        paths = [str(p) for p in self.description if not str(p).startswith("static ")]
        return paths if len(paths) == len(self.in_avals) else list(self.in_names)

    @property
    def source(self) -> str:
        return self._prepared.source

    @property
    def signature(self) -> str:
        return ", ".join(f"{name}: {desc}" for name, desc in self.description.items())

    def compile_with_status(self, first_call: bool = False):
        """(executable, found_on_disk). `first_call`: for the jitted function's own call,
        which the CPU backend may answer while the module builds (backends/overlapped_build.py)."""
        return self._backend.compile(self._prepared, first_call=first_call)

    def compile(self) -> "Compiled":
        """JAX's `Lowered.compile()`: a `Compiled`, callable with the arguments `lower` was
        given, static ones left out."""
        executable, _ = self.compile_with_status()
        return Compiled(executable, self)

    def as_text(self, dialect: str | None = None, *, debug_info: bool = False) -> str:
        """The lowered program as text: transpile's IR (JAX's default, StableHLO, has no
        equivalent here: `dialect=None` or "stablehlo" give the IR), or with `dialect="hlo"`
        or "c" the generated source that is compiled (XLA's HLO is JAX's lowest level)."""
        if dialect in (None, "stablehlo", "ir"):
            return str(self.ir)
        if dialect in ("hlo", "c", "cuda"):
            return self.source
        raise ValueError(f"as_text: unknown dialect {dialect!r}; use None (the IR) or 'hlo' "
                         "(the generated source)")

    def export(self, directory: str, name: str | None = None):
        """Write this specialisation as a standalone C library (NAME.c, NAME.h, the runtime
        headers, a Makefile) into `directory`; see `transpile.export`."""
        from .export import export
        return export(self, directory, name)


class Compiled:
    """JAX's `Compiled`: one specialisation, called with the dynamic arguments `lower` got
    (the same structure, shapes and dtypes; static arguments left out). `.as_text()` is the
    generated source; the executable's attributes (`source_path`...) read through."""

    def __init__(self, executable, lowered: Lowered):
        self._executable, self._lowered = executable, lowered
        self._entry = _Entry(executable, lowered.out_tree, lowered.in_avals)

    def __call__(self, *args, **kwargs):
        leaves, tree = tree_flatten((list(args), {k: kwargs[k] for k in sorted(kwargs)}))
        if tree != self._lowered.in_tree:
            raise TypeError(f"Compiled function called with arguments structured as {tree}, "
                            f"but it was lowered for {self._lowered.in_tree} (static arguments "
                            "are left out of the call)")
        self._check_types(leaves)
        return self._entry(leaves)

    def _check_types(self, leaves) -> None:
        lowered = self._lowered
        mismatches = []
        for leaf, aval, name in zip(leaves, lowered.in_avals, lowered.in_names):
            got = _aval_for_leaf(leaf, name)
            if (got.shape, got.dtype) != (aval.shape, aval.dtype):
                mismatches.append(f"Argument '{name}' compiled with {aval.str_short()} and "
                                  f"called with {got.str_short()}")
        if mismatches:
            raise TypeError("Argument types differ from the types for which this computation "
                            "was compiled: " + "; ".join(mismatches))

    def as_text(self) -> str:
        return self._lowered.source

    @property
    def in_avals(self):
        return list(self._lowered.in_avals)

    def __getattr__(self, name):
        if name.startswith("_"):         # not yet set (copy, pickle): no recursion
            raise AttributeError(name)
        return getattr(self._executable, name)

    def __repr__(self):
        return f"<transpile Compiled {describe_function(self._lowered.fun)}>"


# jax.jit's arguments that change nothing here, with why (README: jit's arguments).
_ACCEPTED_JIT_OPTIONS = {
    # NumPy inputs are never aliased nor overwritten: donation is a hint JAX may ignore too.
    "donate_argnums": None, "donate_argnames": None,
    "keep_unused": False,    # every argument is passed to the compiled code either way
    "inline": False,         # jit inside jit is always inlined into the outer trace
}


def jit(fun=None, *, static_argnums=(), static_argnames=(), backend=None,
        donate_argnums=None, donate_argnames=None, keep_unused=False, inline=False,
        device=None):
    """Compile `fun` on first call per signature, as `jax.jit`.

    Usable as `jit(f)`, `@jit`, `@jit(static_argnames=...)` and
    `@partial(jit, static_argnames=...)`. `donate_argnums`/`donate_argnames` are checked as
    JAX checks them and otherwise ignored (inputs are never overwritten), `keep_unused` and
    `inline` are accepted (transpile does both anyway), `device` picks the backend of a
    `tp.devices()` entry.
    """
    options = dict(static_argnums=static_argnums, static_argnames=static_argnames,
                   backend=backend, donate_argnums=donate_argnums,
                   donate_argnames=donate_argnames, keep_unused=keep_unused, inline=inline,
                   device=device)
    if fun is None:
        return functools.partial(jit, **options)
    if device is not None:
        backend = _backend_of_device(device, backend)
    jitted = Jitted(fun, static_argnums, static_argnames, backend)
    _check_donation(jitted, donate_argnums, donate_argnames)
    return jitted


def _backend_of_device(device, backend):
    from .device_array import backend_of_device
    chosen = backend_of_device(device)
    if backend is not None and backends.resolve_name(backend) != chosen:
        raise ValueError(f"jit: device={device!r} and backend={backend!r} disagree; pass one")
    return chosen


def _check_donation(jitted: Jitted, donate_argnums, donate_argnames) -> None:
    try:
        params = list(inspect.signature(jitted.fun).parameters.values())
    except (TypeError, ValueError):
        return
    check_argnums(params, _as_tuple(donate_argnums), "donate_argnums")
    check_argnames(params, _as_tuple(donate_argnames), "donate_argnames")
    both = set(_as_tuple(donate_argnames)) & set(_as_tuple(jitted._sig.static_names))
    if both:
        raise ValueError(f"static_argnames and donate_argnames cannot intersect. Argument "
                         f"names {both} appear in both static_argnames and donate_argnames")


def make_ir(fun, static_argnums=(), static_argnames=()):
    """`make_ir(f)(*args)` returns the IR `jit` would compile, before optimisation."""
    jitted = Jitted(fun, static_argnums, static_argnames, backend="interpret")

    @functools.wraps(fun)
    def ir_of(*args, **kwargs) -> IR:
        return jitted._lower(args, kwargs).ir
    return ir_of


def make_jaxpr(fun, static_argnums=(), axis_env=None, return_shape=False):
    """`jax.make_jaxpr`: `make_jaxpr(f)(*args)` is the traced IR with its constants (a
    ClosedIR: `.jaxpr`, `.consts`, `.eqns`, each equation's `.primitive`; its str is jaxpr-like);
    with `return_shape=True`, also the output's ShapeDtypeStructs (a pytree)."""
    if axis_env:
        raise NotImplementedError("make_jaxpr: axis_env (named axes, for pmap/vmap "
                                  "collectives) is not supported")
    jitted = Jitted(fun, static_argnums, (), backend="interpret")

    @functools.wraps(fun)
    def jaxpr_of(*args, **kwargs):
        from .shape_eval import with_placeholders
        lowered = jitted._lower(*with_placeholders(args, kwargs))
        closed = ClosedIR(lowered.ir, list(lowered.consts))
        if not return_shape:
            return closed
        from .shape_eval import ShapeDtypeStruct
        shapes = [ShapeDtypeStruct(v.aval.shape, v.aval.dtype, weak_type=v.aval.weak_type)
                  for v in lowered.ir.outvars]
        return closed, tree_unflatten(lowered.out_tree, shapes)
    return jaxpr_of


def block_until_ready(x):
    """Wait for device arrays anywhere in `x` (CPU results are already computed); return `x`."""
    device = [leaf for leaf in tree_flatten(x)[0] if type(leaf) is DeviceArray]
    if device:
        device[0].block_until_ready()      # one device-wide synchronisation covers them all
    return x
