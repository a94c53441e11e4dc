"""Binary elementwise functions as ufunc objects, as jax.numpy has them: `tnp.add(x, y)`
plus `tnp.add.outer`, `.reduce`, `.accumulate` and `.at`.

Calling one costs what the plain function did: `__call__` goes straight to `elementwise`.
`reduce` uses the fused reduction primitives where one exists (sum, prod, max, min, all,
any) and otherwise a log-depth pairwise fold of elementwise passes; `accumulate` is the
log-depth scan of `_cumulative`; `at` is a scatter. The methods need an associative
operation with an identity (NumPy's own rule for reducing empty arrays).
"""
from __future__ import annotations

import numpy as np

from .. import dtypes
from ..core import aval_of
from ..strength import marked
from ..base.operands import (as_bool, astype, elementwise, normalize_axes, normalize_axis, operand,
                             reshape, shape_of, strong_operand)

# How each ufunc reduces: (the fused reduction in _reductions, if any, its identity rule).
_REDUCTION = {"add": "sum", "multiply": "prod", "maximum": "max", "minimum": "min",
              "logical_and": "all", "logical_or": "any"}
_LOGICAL = {"logical_and", "logical_or", "logical_xor"}
_AT_MODE = {"add": "add", "multiply": "multiply", "minimum": "min", "maximum": "max"}


def _identity(name: str, dt):
    if name in ("add", "bitwise_or", "bitwise_xor", "logical_or", "logical_xor"):
        return False if dt == dtypes.bool_ else 0
    if name in ("multiply",):
        return True if dt == dtypes.bool_ else 1
    if name in ("logical_and", "bitwise_and"):
        return True if dt == dtypes.bool_ else (-1 if dt in dtypes.SIGNED
                                                else int(np.iinfo(dt).max))
    if name in ("maximum", "minimum"):
        from ._cumulative import _extreme_identity
        return _extreme_identity(dt, largest=name == "maximum")
    raise NotImplementedError(f"{name}.reduce/accumulate: transpile supports these methods for "
                              "associative ufuncs only (add, multiply, maximum, minimum, "
                              "logical_and/or/xor, bitwise_and/or/xor)")


class ufunc:
    """A binary ufunc: callable as f(x, y), with NumPy's ufunc methods."""
    __slots__ = ("__name__", "__qualname__", "_prim", "_fn", "_public")
    nin, nout, nargs = 2, 1, 3

    def __init__(self, name: str, prim: str | None = None, fn=None, public=False):
        self.__name__ = self.__qualname__ = name
        self._prim, self._fn, self._public = prim, fn, public

    def __call__(self, x, y):
        out = self._fn(x, y) if self._fn is not None else elementwise(self._prim, x, y)
        return marked(out) if self._public else out

    def public(self) -> "ufunc":
        """The `transpile.numpy` one: as a function, its results are strong (strength.py);
        the library's own calls (and the operators) keep weak results weak."""
        return ufunc(self.__name__, self._prim, self._fn, public=True)

    def as_function(self):
        """A plain function doing the call, for use as a method (Tracer.__add__): a ufunc
        object is not a descriptor, so it would not receive `self`."""
        if self._fn is not None:
            return self._fn
        prim = self._prim

        def fn(x, y):
            return elementwise(prim, x, y)
        fn.__name__ = fn.__qualname__ = self.__name__
        return fn

    def __repr__(self):
        return f"<transpile ufunc '{self.__name__}'>"

    def __reduce__(self):
        return _by_name, (self.__name__,)

    @property
    def identity(self):
        try:
            return _identity(self.__name__, dtypes.int64)
        except NotImplementedError:
            return None

    def outer(self, a, b):
        a, b = strong_operand(a), strong_operand(b)     # NumPy makes both arrays first
        return self(reshape(a, shape_of(a) + (1,) * len(shape_of(b))), b)

    def _prepared(self, a, dtype):
        a = operand(a)
        if self.__name__ in _LOGICAL:
            a = as_bool(a)
        if dtype is None and self.__name__ in ("add", "multiply"):
            from ._reductions import _sum_dtype     # NumPy widens small integers, as sum does
            dtype = _sum_dtype(aval_of(a).dtype)
        return astype(a, dtype) if dtype is not None else a

    def reduce(self, a, axis=0, dtype=None, out=None, keepdims=False, initial=None,
               where=None):
        if out is not None:
            raise TypeError(f"{self.__name__}.reduce: out= is not supported")
        a = self._prepared(a, dtype)
        name = self.__name__
        if where is not None:
            a = _where_identity(name, a, where)
        if initial is not None and _is_empty_along(a, axis):
            return _filled_like_reduction(a, axis, keepdims, initial)
        fused = _REDUCTION.get(name)
        if fused is not None:
            from . import _reductions as R
            kwargs = {"dtype": dtype} if fused in ("sum", "prod") else {}
            result = getattr(R, fused)(a, axis=axis, keepdims=keepdims, **kwargs)
        else:
            _identity(name, aval_of(a).dtype)           # refuses non-associative ufuncs
            result = _pairwise_fold(self, a, axis, keepdims)
        return result if initial is None else self(result, initial)

    def accumulate(self, a, axis=0, dtype=None, out=None):
        if out is not None:
            raise TypeError(f"{self.__name__}.accumulate: out= is not supported")
        from ._cumulative import _scan
        a = self._prepared(a, dtype)
        if not shape_of(a):
            raise ValueError(f"{self.__name__}.accumulate: needs at least one dimension")
        ax = normalize_axis(axis, len(shape_of(a)))
        return _scan(a, ax, self, _identity(self.__name__, aval_of(a).dtype))

    def at(self, a, indices, b=None, *, inplace=True):
        """JAX's `ufunc.at` (inplace=False required): a scatter of b at indices."""
        if inplace:
            raise ValueError(f"{self.__name__}.at: transpile arrays are immutable; pass "
                             "inplace=False (as jax.numpy requires)")
        if self.__name__ not in _AT_MODE or b is None:
            raise NotImplementedError(f"{self.__name__}.at: supported for add, multiply, "
                                      "minimum and maximum with a value b")
        from ._scatter import scatter_update
        key = indices if isinstance(indices, tuple) else (indices,)
        return scatter_update(a, key, b, _AT_MODE[self.__name__])


def _is_empty_along(a, axis) -> bool:
    shape = shape_of(a)
    return any(shape[d] == 0 for d in normalize_axes(axis, len(shape)))


def _filled_like_reduction(a, axis, keepdims, value):
    """A reduction of nothing but `initial`: the value, in the reduced shape and a's dtype."""
    from ._creation import full
    shape = shape_of(a)
    axes = normalize_axes(axis, len(shape))
    out = tuple(1 if d in axes else n for d, n in enumerate(shape)) if keepdims else \
        tuple(n for d, n in enumerate(shape) if d not in axes)
    return full(out, value, aval_of(a).dtype)


def _where_identity(name, a, where):
    from ._elementwise import where as select
    return select(where, a, _identity(name, aval_of(a).dtype))


def _pairwise_fold(fn, a, axis, keepdims):
    """Combine the halves of each reduced axis until one element is left: log2(n) fused
    elementwise passes, no Python per element."""
    from ._manipulation import _pad_constant, _take_slice
    shape = shape_of(a)
    axes = normalize_axes(axis, len(shape))
    identity = _identity(fn.__name__, aval_of(a).dtype)
    for ax in axes:
        n = shape_of(a)[ax]
        if n == 0:
            widths = [(0, 0)] * len(shape)
            widths[ax] = (0, 1)
            a = _pad_constant(a, widths, identity)
            n = 1
        while n > 1:
            if n % 2:
                widths = [(0, 0)] * len(shape)
                widths[ax] = (0, 1)
                a, n = _pad_constant(a, widths, identity), n + 1
            a = fn(_take_slice(a, ax, 0, n // 2), _take_slice(a, ax, n // 2, n))
            n //= 2
    if keepdims:
        return a
    return reshape(a, tuple(d for i, d in enumerate(shape_of(a)) if i not in axes))


def _by_name(name):
    from .. import numpy as tnp
    return getattr(tnp, name)
