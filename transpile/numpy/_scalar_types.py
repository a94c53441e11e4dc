"""`tnp.float32`, `tnp.int32`, ...: scalar types that are both dtypes and constructors, as
JAX's are. `tnp.float32(x)` converts x (a Python number, an array, or a traced value) to an
array of that dtype (0-d for a scalar); `tnp.float32` still works wherever NumPy takes a dtype
(`x.astype(tnp.float32)`, `dtype=tnp.int32`, `np.dtype(tnp.float32)`), because NumPy reads a
type's `dtype` attribute, and it compares equal to `np.float32` and `np.dtype('float32')`.
"""
from __future__ import annotations

import numpy as np

from .. import dtypes
from ..base.operands import astype


class _ScalarMeta(type):
    """The metaclass: a scalar type is a class whose call builds an array."""

    dtype: np.dtype

    def __call__(cls, x):
        from ._creation import asarray
        if type(x) is int:      # straight to the dtype: jnp.uint32(2654435761) needs no int64
            return asarray(x, dtype=cls.dtype)
        return astype(asarray(x), cls.dtype)

    def __eq__(cls, other):
        if cls is other:
            return True
        if isinstance(other, str) or other is None:
            return False          # as JAX: only dtypes and types compare equal
        try:
            return np.dtype(other) == cls.dtype
        except TypeError:
            return False

    def __ne__(cls, other):
        return not cls == other

    def __hash__(cls):
        return hash(cls.dtype)          # so tables keyed by np.dtype find it

    def __instancecheck__(cls, instance):
        return isinstance(instance, cls.dtype.type)

    def __repr__(cls):
        return f"<class 'transpile.numpy.{cls.__name__}'>"


def _scalar_type(name: str, dtype: np.dtype) -> type:
    return _ScalarMeta(name, (), {"dtype": dtype, "__module__": "transpile.numpy",
                                  "__qualname__": name,
                                  "__doc__": f"The {dtype} scalar type: a dtype, and a "
                                             f"constructor of {dtype} arrays."})


bool_ = _scalar_type("bool_", dtypes.bool_)
int8, int16, int32, int64 = (_scalar_type(f"int{b}", np.dtype(f"int{b}"))
                             for b in (8, 16, 32, 64))
uint8, uint16, uint32, uint64 = (_scalar_type(f"uint{b}", np.dtype(f"uint{b}"))
                                 for b in (8, 16, 32, 64))
float16 = _scalar_type("float16", dtypes.float16)
float32 = _scalar_type("float32", dtypes.float32)
float64 = _scalar_type("float64", dtypes.float64)
complex64 = _scalar_type("complex64", dtypes.complex64)
complex128 = _scalar_type("complex128", dtypes.complex128)


def bfloat16_type() -> type:
    """`tnp.bfloat16` (ml_dtypes' bfloat16, as JAX's): made on first use, since it needs
    ml_dtypes imported (an ImportError naming `pip install ml_dtypes` when it is missing)."""
    return _scalar_type("bfloat16", dtypes.require_bfloat16())


def four_bit_type(name: str) -> type:
    """`tnp.int4` / `tnp.uint4` (ml_dtypes' 4-bit integers, as JAX names them). transpile
    computes on no 4-bit arrays; the names exist so that code listing JAX's dtypes (as JAX's
    own tests do) imports, and converting to them raises TypeError naming the dtype."""
    try:
        import ml_dtypes
    except ImportError:
        raise ImportError(f"{name} needs the ml_dtypes package (as JAX uses): "
                          "pip install ml_dtypes") from None
    return _scalar_type(name, np.dtype(getattr(ml_dtypes, name)))
