"""NumPy's own functions on traced values: `np.sum(x, axis=-1)`, `np.sin(x)`, `a + x` for a
NumPy array `a`, `np.add.reduce(x)`...

NumPy hands a call that has a Tracer among its arguments to the Tracer's `__array_ufunc__`
(ufuncs and their methods, NEP 13) or `__array_function__` (the other functions, NEP 18).
Both run the `transpile.numpy` function of the same name (from `transpile.numpy.linalg` for
`numpy.linalg`'s), so existing NumPy code traces with fewer edits than JAX needs. A NumPy
function transpile.numpy lacks raises a TypeError naming it, and `out=` (a NumPy array
written in place, which a traced value cannot be) raises one saying to use the result.

Only traced values define these hooks: NumPy code outside `jit`, and EagerArrays, run NumPy
itself as before.
"""
from __future__ import annotations

import importlib
import inspect

import numpy as np

from ..core import Tracer

# NumPy's submodules whose functions have a transpile.numpy counterpart, by module name.
_COUNTERPART_MODULES = {"numpy": "", "numpy.linalg": ".linalg", "numpy.fft": ".fft"}

# NumPy functions that read only shapes and dtypes: where transpile.numpy has no function of
# that name, NumPy's own implementation works on tracers (it reads `.dtype` / `.shape`).
_METADATA_ONLY = frozenset({"result_type", "can_cast", "iscomplexobj", "isrealobj", "ndim",
                            "shape", "size"})

# What to write instead, for NumPy functions without a counterpart of the same name
# (fabs, fmod, divmod, float_power, put and place have one now: they dispatch to it).
_ALTERNATIVES = {
    "copyto": "x = tnp.where(mask, src, x) (traced arrays are immutable)",
    "putmask": "x = tnp.where(mask, values, x) (traced arrays are immutable)",
}

# ufunc keyword arguments transpile computes the same way at their default value only.
_UFUNC_DEFAULTS = {"casting": "same_kind", "order": "K", "subok": True, "signature": None}


def _transpile_numpy():
    return importlib.import_module(__package__)


def counterpart(func):
    """The transpile.numpy function standing for NumPy's `func`, or None."""
    suffix = _COUNTERPART_MODULES.get(getattr(func, "__module__", None))
    if suffix is None:
        return None
    try:
        module = importlib.import_module(__package__ + suffix) if suffix \
            else _transpile_numpy()
    except ImportError:            # numpy.fft before transpile.numpy has an fft module
        return None
    return getattr(module, func.__name__, None)


def _qualified(func) -> str:
    module = getattr(func, "__module__", None) or "numpy"
    return f"{module}.{func.__name__}"


def unsupported(func, method: str = "") -> TypeError:
    """The error for a NumPy function (or a ufunc's `method`) with no transpile.numpy
    counterpart."""
    name = _qualified(func) + method
    missing = f"tnp.{func.__name__} has no {method}" if method else \
        f"transpile.numpy has no {func.__name__}"
    alternative = None if method else _ALTERNATIVES.get(func.__name__)
    hint = (f"write {alternative}" if alternative else
            "it is not supported under jit: compute it outside the jitted function (or pass "
            "its result in as an argument), or express it with transpile.numpy functions")
    return TypeError(f"{name} was called on a traced value, and {missing}: {hint}")


def _reject_out(func, out) -> None:
    outs = out if isinstance(out, tuple) else (out,)
    if any(o is not None for o in outs):
        name = _qualified(func)
        raise TypeError(f"{name}(..., out=...) cannot write a traced result into an array "
                        f"(this includes `a += x` with a NumPy array `a` and a traced `x`): "
                        f"drop out= and use the returned value, e.g. `a = a + x` or "
                        f"`y = tnp.{func.__name__}(...)`")


# ---------------------------------------------------------------------------------------------
# NEP 13: numpy ufuncs (np.sin(x), a + x with a NumPy `a`, np.add.reduce(x))

def array_ufunc(self, ufunc, method, *inputs, **kwargs):
    _reject_out(ufunc, kwargs.pop("out", None))
    fn = counterpart(ufunc)
    if fn is None:
        raise unsupported(ufunc)
    if method == "__call__":
        return _call_ufunc(ufunc, fn, inputs, kwargs)
    if method == "at":
        raise TypeError(f"{_qualified(ufunc)}.at(a, indices, b) updates `a` in place, and traced "
                        f"arrays are immutable: write a = a.at[indices].<set/add/multiply/min/"
                        f"max>(b), or tnp.{ufunc.__name__}.at(a, indices, b, inplace=False)")
    bound = getattr(fn, method, None) if method in ("reduce", "accumulate", "outer") else None
    if bound is None:
        raise unsupported(ufunc, f".{method}")
    return bound(*inputs, **kwargs)


def _call_ufunc(ufunc, fn, inputs, kwargs):
    where = kwargs.pop("where", True)
    if where is not True:
        raise TypeError(f"{_qualified(ufunc)}(..., where=mask) leaves the masked-out elements "
                        f"as they were in `out` (uninitialised without it): write "
                        f"tnp.where(mask, tnp.{ufunc.__name__}(...), fallback)")
    dtype = kwargs.pop("dtype", None)
    for name, default in _UFUNC_DEFAULTS.items():
        if name in kwargs and kwargs.pop(name) != default:
            raise TypeError(f"{_qualified(ufunc)}: {name}= is supported at its default "
                            f"({default!r}) only, on traced values")
    if dtype is not None:          # NumPy computes in `dtype`: cast the operands to it first
        tnp = _transpile_numpy()
        inputs = [tnp.asarray(x, dtype=dtype) for x in inputs]
    return fn(*inputs, **kwargs)


# ---------------------------------------------------------------------------------------------
# NEP 18: the other NumPy functions (np.sum(x), np.concatenate([a, x]), np.linalg.norm(x))

def array_function(self, func, types, args, kwargs):
    if not all(issubclass(t, (Tracer, np.ndarray)) for t in types):
        return NotImplemented         # another library's array type: let it answer
    if "out" in kwargs:
        _reject_out(func, kwargs["out"])
        kwargs = {k: v for k, v in kwargs.items() if k != "out"}
    fn = counterpart(func)
    if fn is not None:
        _check_arguments(func, fn, args, kwargs)
        return fn(*args, **kwargs)
    if func.__name__ in _METADATA_ONLY:
        return func._implementation(*args, **kwargs)
    raise unsupported(func)


def _check_arguments(func, fn, args, kwargs) -> None:
    """NumPy's arguments that the transpile.numpy function does not take (np.concatenate's
    `casting=`...): say so, with the signature that is there (tracing time only)."""
    try:
        signature = inspect.signature(fn)
    except (TypeError, ValueError):
        return
    try:
        signature.bind(*args, **kwargs)
    except TypeError as err:
        raise TypeError(f"{_qualified(func)} on a traced value runs transpile.numpy."
                        f"{func.__name__}{signature}, which cannot take these arguments: "
                        f"{err}") from None


def install() -> None:
    Tracer.__array_ufunc__ = array_ufunc
    Tracer.__array_function__ = array_function
