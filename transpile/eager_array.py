"""`EagerArray`: the NumPy array that eager `transpile.numpy` code returns, with JAX's `.at`.

Eagerly, transpile's functions compute on NumPy (DESIGN: "eager = NumPy"), but JAX code
updates arrays with `x.at[i].set(v)`, which a plain `numpy.ndarray` does not have. This
subclass adds that property (and JAX's `.aval` / `.weak_type`; `WeakEagerArray` holds the
weakly typed values JAX's rules make) and otherwise stays a NumPy array: it prints as NumPy's
`array(...)`, pickles, `np.asarray` of it is a plain ndarray view, and NumPy's own ufuncs
and methods keep the subclass, so `(x + 1).at[0].set(2)` works too.

`.at` is the same helper tracers use (transpile/numpy/_at.py); that module registers it here
when imported, so this low module imports nothing of transpile (tests/test_layering.py)
but the bottom-layer config.

Under JAX's dtype rules (transpile.config) the operators and ufuncs of eager arrays, and
their `astype`, are transpile.numpy's (registered by transpile/numpy/_eager_jax.py), so that
`eager_int32_array * 0.5` is float32 as in JAX. Under NumPy's rules (the default) nothing is
installed: eager arrays stay NumPy arrays at NumPy's speed.
"""
from __future__ import annotations

import operator
import threading
import weakref

import numpy as np

from .config import config

_index_update_helper = None
_jax_dispatch = None          # (ufunc_call, astype): transpile.numpy's, under JAX's rules
_jax_methods: dict = {}       # name -> method: jax.Array's where NumPy's differ (JAX's rules)
_reentry = threading.local()  # inside a dispatched call: NumPy's own ufuncs
# Indexing with traced values (`table[i]` under jit, `table` made by tnp outside it): the list
# of active traces (core.active_traces, empty when none runs, so eager indexing pays one
# truth test) and the function that records the read; both registered by transpile.numpy.
_active_traces: list = []
_traced_getitem = None
_ndarray_getitem = np.ndarray.__getitem__
_aval_of = None               # core.aval_of, registered by core (a lower module's import)


def register_index_update_helper(helper_class) -> None:
    """`helper_class(array)` is what `array.at` returns (IndexUpdateHelper)."""
    global _index_update_helper
    _index_update_helper = helper_class


def register_aval_of(aval_of) -> None:
    """`aval_of(array)`: the ShapedArray that `EagerArray.aval` answers (core's)."""
    global _aval_of
    _aval_of = aval_of


def register_traced_indexing(active_traces: list, traced_getitem) -> None:
    """While `active_traces` is non-empty, `traced_getitem(array, key)` answers indexing
    first: a traced read, or NotImplemented when `key` holds no traced value."""
    global _active_traces, _traced_getitem
    _active_traces, _traced_getitem = active_traces, traced_getitem


def reject_sequence_index(key) -> None:
    """JAX's refusals, under JAX's rules, of indices NumPy reads otherwise: a list (NumPy's
    array index; JAX asks which was meant) and a float, complex or string entry (NumPy's
    IndexError), each a TypeError saying what to write instead."""
    if not config.jax_rules():
        return
    for position, k in enumerate(key if type(key) is tuple else (key,)):
        _reject_entry(position, k)
    if type(key) is not list:
        return
    unpack = any(k is None or k is Ellipsis or isinstance(k, (slice, list, tuple))
                 or (isinstance(k, np.ndarray) and k.ndim > 0) for k in key)
    fix = "arr[tuple(seq)]" if unpack else "arr[array(seq)]"
    raise TypeError("Using a non-tuple sequence for multidimensional indexing is not allowed; "
                    f"use `{fix}` instead of `arr[seq]` (a list index under JAX's rules)")


def _reject_entry(position: int, k) -> None:
    if isinstance(k, str):
        raise TypeError(f"JAX does not support string indexing; got {k!r} at position "
                        f"{position}")
    kind = np.dtype(k.dtype).kind if hasattr(k, "dtype") else (
        "f" if isinstance(k, float) else "c" if isinstance(k, complex) else "")
    if kind in ("f", "c"):
        raise TypeError(f"Indexer must have integer or boolean type, got indexer with type "
                        f"{np.dtype(k.dtype) if hasattr(k, 'dtype') else type(k).__name__} "
                        f"at position {position}; convert it, e.g. x[int(i)] or "
                        "x[i.astype(int)]")


class EagerArray(np.ndarray):
    """A numpy.ndarray with `.at[...]` (functional updates, as on JAX arrays), indexable with
    traced values under jit. Nothing else differs; no `__array_finalize__`, so views and
    results cost what NumPy's do."""
    __slots__ = ()

    @property
    def at(self):
        if _index_update_helper is None:
            raise RuntimeError("EagerArray.at needs transpile.numpy: import transpile")
        return _index_update_helper(self)

    def __getitem__(self, key):
        # As a JAX array made outside jit, indexable with a traced integer inside it (NumPy
        # itself would ask the tracer for its value).
        jax_rules = config._token      # JAX's rules (read cheaply): JAX's index checks
        if jax_rules:
            reject_sequence_index(key)
        if _active_traces:
            result = _traced_getitem(self, key)
            if result is not NotImplemented:
                return result
        result = _ndarray_getitem(self, key)
        if jax_rules and isinstance(result, np.generic):
            return np.asarray(result).view(type(self))   # JAX's element: a 0-d array
        return result

    # JAX's abstract value of an array: its shape, dtype and weak type (`x.aval.weak_type`,
    # what `jax.dtypes.is_weakly_typed` reads). Weak eager values are WeakEagerArrays.
    weak_type = False

    @property
    def aval(self):
        if _aval_of is None:
            raise RuntimeError("EagerArray.aval needs transpile.core: import transpile")
        return _aval_of(self)

    def block_until_ready(self) -> "EagerArray":
        """JAX's: wait until computed. CPU results are complete when returned: returns self."""
        return self

    def devices(self) -> set:
        """JAX's `Array.devices()`: the set of devices holding the array. An eager array
        lives in host memory: the CPU device (`tp.devices('cpu')[0]`)."""
        from .device_array import Device      # on call: device_array loads the CUDA runtime
        return {Device("cpu")}

    @property
    def device(self):
        """JAX's `Array.device`: the one device the array is on (the CPU)."""
        return next(iter(self.devices()))

    def unsafe_buffer_pointer(self) -> int:
        """JAX's: the address of the array's first element (views share their base's)."""
        return self.__array_interface__["data"][0]

    def delete(self) -> None:
        """JAX's `Array.delete()`: mark the buffer deleted, so that `is_deleted()` says so on
        this array and every view of it. NumPy owns the memory: it is freed when the last
        reference goes, not here (freeing it under live views would be unsafe)."""
        _deleted_buffers.add(_buffer_owner(self))

    def is_deleted(self) -> bool:
        """JAX's: has `delete()` been called on this array or another view of its buffer?"""
        return _buffer_owner(self) in _deleted_buffers

    def __repr__(self):
        return repr(self.view(np.ndarray))

    def __str__(self):
        return str(self.view(np.ndarray))


class _IdentitySet:
    """Objects held weakly, compared by identity (ndarrays are unhashable)."""

    def __init__(self):
        self._refs: dict = {}

    def add(self, obj) -> None:
        key = id(obj)
        self._refs[key] = weakref.ref(obj, lambda _ref, key=key: self._refs.pop(key, None))

    def __contains__(self, obj) -> bool:
        ref = self._refs.get(id(obj))
        return ref is not None and ref() is obj


_deleted_buffers = _IdentitySet()


def _buffer_owner(array: np.ndarray) -> np.ndarray:
    """The array at the end of NumPy's chain of views that ends at `array`: the one that owns
    the memory, or wraps a foreign buffer."""
    while isinstance(array.base, np.ndarray):
        array = array.base
    return array


class WeakEagerArray(EagerArray):
    """An EagerArray whose dtype is weak, as JAX's `jnp.asarray(1.0)` or `lax.abs(2.0)`: made
    only under JAX's dtype rules, where an operation's abstract result is weak
    (rules/impl.py: eager_apply), and read back by `aval_of`, so that it promotes as a Python
    scalar would (`lax.abs(2.0) * float16_array` stays float16, as in JAX). Views and slices
    keep the class, as JAX's keep the weak type; `.view(EagerArray)` makes it strong."""
    __slots__ = ()
    weak_type = True


def as_weak(x) -> WeakEagerArray:
    """`x` (a NumPy array or scalar) as a weakly typed eager array (a view where it can)."""
    return np.asarray(x).view(WeakEagerArray)


# `a += x` on a JAX array rebinds `a` to a new array (JAX arrays are immutable). An eager
# array does the same where updating in place cannot be right: under JAX's dtype rules
# (where `int32_array += 0.5` is float32, and other names for the old array must not
# change), and whenever `x` is traced (a NumPy buffer cannot hold a traced value; gymnax's
# `reward = jnp.array(0); reward += hit` under jit). NumPy's rules keep NumPy's in-place update.
_NUMPY_OPERANDS = (np.ndarray, np.generic, int, float, complex, bool)
_INPLACE_OPERATORS = {
    "__iadd__": operator.add, "__isub__": operator.sub, "__imul__": operator.mul,
    "__itruediv__": operator.truediv, "__ifloordiv__": operator.floordiv,
    "__imod__": operator.mod, "__ipow__": operator.pow, "__imatmul__": operator.matmul,
    "__iand__": operator.and_, "__ior__": operator.or_, "__ixor__": operator.xor,
    "__ilshift__": operator.lshift, "__irshift__": operator.rshift,
}


def _rebinding_inplace(name, binary):
    numpy_inplace = getattr(np.ndarray, name)

    def inplace(self, other):
        if config.jax_rules() or not isinstance(other, _NUMPY_OPERANDS):
            return binary(self, other)
        return numpy_inplace(self, other)

    inplace.__name__ = name
    return inplace


for _name, _binary in _INPLACE_OPERATORS.items():
    setattr(EagerArray, _name, _rebinding_inplace(_name, _binary))


def register_jax_dispatch(ufunc_call, astype, methods=None) -> None:
    """`ufunc_call(ufunc, inputs)` (NotImplemented where it has no equivalent),
    `astype(x, dtype)` and `methods` (name -> method, jax.Array's where NumPy's differ): what
    eager arrays use under JAX's dtype rules."""
    global _jax_dispatch, _jax_methods
    _jax_dispatch = (ufunc_call, astype)
    _jax_methods = dict(methods or {})
    _follow_config()


def _plain(x):
    return x.view(np.ndarray) if isinstance(x, EagerArray) else x


def _plain_keeping_weak(x):
    """An operand for transpile.numpy: a plain ndarray, but a weak value stays one (its
    type says so), so that it promotes as JAX's weak values do."""
    return x if type(x) is WeakEagerArray else _plain(x)


def _jax_array_ufunc(self, ufunc, method, *inputs, **kwargs):
    if method == "__call__" and not kwargs and not getattr(_reentry, "active", False):
        _reentry.active = True
        try:
            out = _jax_dispatch[0](ufunc, [_plain_keeping_weak(x) for x in inputs])
        finally:
            _reentry.active = False
        if out is not NotImplemented:
            return eager(out)
    if "out" in kwargs:
        kwargs["out"] = tuple(_plain(o) for o in kwargs["out"])
    return eager(getattr(ufunc, method)(*map(_plain, inputs), **kwargs))


def _jax_astype(self, dtype, *args, **kwargs):
    if args or kwargs:
        return np.ndarray.astype(self, dtype, *args, **kwargs)
    return eager(_jax_dispatch[1](self.view(np.ndarray), dtype))


def defers_to(other) -> bool:
    """Should an array operator return NotImplemented for `other`, so that Python asks
    `other`'s own (reflected) operator, as JAX's arrays do? Yes unless `other` is something
    arrays compute with: an array, a number, a list or tuple of them (exactly those types:
    a namedtuple defines its own operators), or an object NumPy can convert."""
    return not (isinstance(other, (np.ndarray, np.generic, bool, int, float, complex))
                or type(other) in (list, tuple) or hasattr(other, "__array__")
                or hasattr(other, "__jax_array__"))


def deferring(operator):
    """`operator` (a binary method) returning NotImplemented for operands it defers to."""
    def method(self, other):
        if defers_to(other):
            return NotImplemented
        return operator(self, other)
    method.__name__ = getattr(operator, "__name__", "operator")
    return method


OPERATOR_NAMES = ("add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "and", "or", "xor",
                  "lshift", "rshift", "matmul")
COMPARISON_NAMES = ("lt", "le", "gt", "ge", "eq", "ne")
_DEFERRING_METHODS = {name: deferring(getattr(np.ndarray, name)) for name in (
    [f"__{n}__" for n in OPERATOR_NAMES] + [f"__r{n}__" for n in OPERATOR_NAMES]
    + [f"__{n}__" for n in COMPARISON_NAMES])}


def _follow_config() -> None:
    """Install JAX's operators on EagerArray while JAX's rules are on; remove them after."""
    installed = {"__array_ufunc__": _jax_array_ufunc, "astype": _jax_astype,
                 **_DEFERRING_METHODS, **_jax_methods}
    if _jax_dispatch is not None and config.jax_rules():
        for name, method in installed.items():
            setattr(EagerArray, name, method)
    else:
        for name in installed:
            if name in EagerArray.__dict__:
                delattr(EagerArray, name)


config.on_change(_follow_config)


def eager(x):
    """`x` with every plain ndarray in it (a tuple or list of results too) as an EagerArray:
    a view, no copy. NumPy scalars stay scalars, as NumPy's own functions return them, but
    under JAX's dtype rules, where every result is an array (0-d for a scalar, with `.aval`
    and `.at`), they become 0-d EagerArrays."""
    t = type(x)
    if t is np.ndarray:
        return x.view(EagerArray)
    if t is list or t is tuple:
        return t(map(eager, x))
    if config._token and isinstance(x, np.generic):
        return np.asarray(x).view(EagerArray)
    return x
