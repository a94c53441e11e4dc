"""Python operators and ndarray-style methods on tracers, in terms of the tnp functions."""
from __future__ import annotations

from ..core import Tracer
from ..eager_array import deferring
from ..strength import strong_results
from . import _elementwise as E
from . import _complex as CX, _cumulative as C, _manipulation as M, _matmul, _matrices as X
from . import _indexing as I, _reductions as R, _sorting as SO, _shape as S, _statistics as ST
from . import _constant_indexing, _protocols
from ._at import IndexUpdateHelper
from ._ufunc import ufunc
from ..base.operands import astype, reshape


def _swap(fn):
    return lambda self, other: fn(other, self)


_BINARY = {
    "add": E.add, "sub": E.subtract, "mul": E.multiply, "truediv": E.divide,
    "floordiv": E.floor_divide, "mod": E.remainder, "pow": E.power, "and": E.bitwise_and,
    "or": E.bitwise_or, "xor": E.bitwise_xor, "lshift": E.left_shift, "rshift": E.right_shift,
    "matmul": _matmul.matmul,
}
_COMPARE = {"lt": E.less, "le": E.less_equal, "gt": E.greater, "ge": E.greater_equal,
            "eq": E.equal, "ne": E.not_equal}
_UNARY = {"neg": E.negative, "pos": E.positive, "abs": E.absolute, "invert": E.invert}


def _reshape_method(self, *shape, order="C"):
    return reshape(self, shape[0] if len(shape) == 1 else shape, order)


def _transpose_method(self, *axes):
    # x.transpose(), x.transpose(None), x.transpose((1, 0)) and x.transpose(1, 0), as NumPy's.
    if len(axes) == 1 and (axes[0] is None or isinstance(axes[0], (tuple, list))):
        axes = axes[0]
    return S.transpose(self, axes or None)


_METHODS = {
    "astype": astype, "reshape": _reshape_method, "transpose": _transpose_method,
    "sum": R.sum, "prod": R.prod, "mean": R.mean, "max": R.max, "min": R.min,
    "argmax": R.argmax, "argmin": R.argmin, "all": R.all, "any": R.any,
    "squeeze": S.squeeze, "ravel": S.ravel, "flatten": S.ravel, "clip": E.clip,
    "dot": _matmul.dot, "round": E.round, "__getitem__": S.getitem,
    "var": ST.var, "std": ST.std, "ptp": ST.ptp, "cumsum": C.cumsum, "cumprod": C.cumprod,
    "trace": X.trace, "diagonal": X.diagonal, "swapaxes": M.swapaxes, "repeat": M.repeat,
    "copy": M.copy, "take": I.take, "sort": SO.sort, "argsort": SO.argsort,
    "searchsorted": SO.searchsorted, "nonzero": SO.nonzero, "conj": CX.conj,
    "conjugate": CX.conjugate,
}


def _more_methods():
    """jax.Array's methods built on the functions added for issue #19 (imported here, on
    install, to keep the table above on the long-standing modules)."""
    from ._functional import choose
    from ._insert_delete import compress
    from ._ordering import argpartition

    def view(self, dtype=None, type=None):   # noqa: A002 (NumPy's names)
        if type is not None:
            raise NotImplementedError("view(type=...) is not supported; pass only a dtype")
        if dtype is None:
            return self
        from ._view import view as view_as
        return view_as(self, dtype)

    def compress_method(self, condition, axis=None, *, size=None, fill_value=0, out=None):
        return compress(condition, self, axis, size=size, fill_value=fill_value, out=out)

    def choose_method(self, choices, out=None, mode="raise"):
        return choose(self, choices, out, mode)
    return {"argpartition": argpartition, "compress": compress_method,
            "choose": choose_method, "view": view}


def _plain(fn):
    """Methods must be functions (descriptors): ufunc objects give theirs."""
    return fn.as_function() if isinstance(fn, ufunc) else fn


def install() -> None:
    # Operators return NotImplemented for operands they do not compute with (any object
    # but arrays, numbers and lists of them), so that the object's own operator runs, as
    # with JAX's tracers.
    for name, fn in _BINARY.items():
        fn = _plain(fn)
        setattr(Tracer, f"__{name}__", deferring(fn))
        setattr(Tracer, f"__r{name}__", deferring(_swap(fn)))
    for name, fn in _COMPARE.items():
        setattr(Tracer, f"__{name}__", deferring(_plain(fn)))
    for name, fn in _UNARY.items():
        setattr(Tracer, f"__{name}__", fn)
    # NumPy's x ** 2, x ** -1, x ** 0.5 shortcuts:
    Tracer.__pow__ = deferring(CX.power_operator)
    for name, fn in {**_METHODS, **_more_methods()}.items():   # methods, like functions,
        setattr(Tracer, name, strong_results(fn))                # return strong values
    _eager_ptp()
    _jax_array_methods()
    Tracer.T = property(lambda self: S.transpose(self))
    Tracer.mT = property(lambda self: M.swapaxes(self, -1, -2))
    Tracer.real = property(strong_results(CX.real))
    Tracer.imag = property(strong_results(CX.imag))
    Tracer.itemsize = property(lambda self: self.dtype.itemsize)
    Tracer.nbytes = property(lambda self: self.size * self.dtype.itemsize)
    Tracer.at = property(lambda self: IndexUpdateHelper(self))
    # copy.copy / copy.deepcopy of a traced array: a copy in the trace (as jax.Array's), not
    # a rebuilt Tracer object that would belong to no trace.
    Tracer.__copy__ = lambda self: M.copy(self)
    Tracer.__deepcopy__ = lambda self, memo: M.copy(self)
    _protocols.install()            # NumPy's functions and ufuncs on tracers (_protocols.py)
    _constant_indexing.install()    # EagerArray constants indexed by tracers


def _round_method(self, ndigits=None):
    """`round(x, n)` on an array, as jax.Array's: `tnp.round(x, n)`, an array."""
    return E.round(self, 0 if ndigits is None else ndigits)


def _jax_array_methods():
    """jax.Array's spellings that NumPy's ndarray lacks, on tracers and eager arrays:
    `round(x, n)`, and `searchsorted(..., method=)` (JAX's algorithm choice: validated, then
    the one search transpile has)."""
    from ..eager_array import EagerArray
    Tracer.__round__ = strong_results(_round_method)
    EagerArray.__round__ = strong_results(_round_method)
    EagerArray.searchsorted = strong_results(
        lambda self, v, side="left", sorter=None, *, method=None:
        SO.searchsorted(self, v, side, sorter, method=method))


def _eager_ptp():
    """NumPy 2 dropped ndarray.ptp; jax.Array keeps it, so eager arrays get it back."""
    from ..eager_array import EagerArray
    if not hasattr(EagerArray, "ptp"):
        EagerArray.ptp = strong_results(ST.ptp)
