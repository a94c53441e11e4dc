"""`x.view(dtype)` on traced arrays: the same bytes read as another dtype, NumPy's and
JAX's `view`. Between dtypes of one width it is the `bitcast_convert_type` primitive.
Between widths the last axis grows or shrinks (NumPy's rule); the bytes are regrouped as
unsigned integers, little-endian as on the machines transpile compiles for: k narrow words
make one wide word by shifts and a sum of disjoint bits, and a wide word splits into k by
shifts and truncation. Complex values are their (real, imaginary) pairs of floats.
"""
from __future__ import annotations

import numpy as np

from .. import dtypes
from .. import primitives as P
from ..core import aval_of, bind
from ..base.iota import broadcasted_iota
from ..base.operands import astype, reshape, shape_of


def view(x, dtype):
    """`x`'s bytes as `dtype` (the last axis rescaled when the widths differ)."""
    src, dst = aval_of(x).dtype, dtypes.canonicalize(dtype)
    if src == dst:
        return x
    if _plain_width(src) and _plain_width(dst) and src.itemsize == dst.itemsize:
        return bind(P.bitcast_convert_type, x, new_dtype=dst)
    if dtypes.is_complex(dst):
        raise NotImplementedError(f"view: reading traced {src} data as {dst} is not supported "
                                  "(a complex value cannot be rebuilt exactly from traced "
                                  "parts); view it eagerly, or as a real dtype of that width")
    shape = shape_of(x)
    if not shape and src.itemsize == dst.itemsize:       # 0-d: viewed as one element
        return reshape(view(reshape(x, (1,)), dst), ())
    _check_view_shape(shape, src, dst)
    words = _regroup(_as_words(x), _word_width(src), dst.itemsize)
    if dst == dtypes.bool_:
        from ._elementwise import not_equal
        return not_equal(words, 0)
    return bind(P.bitcast_convert_type, words, new_dtype=dst)


def _plain_width(dt) -> bool:
    """Does the bitcast primitive take `dt` (neither bool nor complex)?"""
    return dt != dtypes.bool_ and not dtypes.is_complex(dt)


def _word_width(dt) -> int:
    """The width in bytes of the unsigned words `dt`'s data is read as (a complex value is
    two floats)."""
    return dt.itemsize // 2 if dtypes.is_complex(dt) else dt.itemsize


def _unsigned(width: int) -> np.dtype:
    return np.dtype(f"uint{8 * width}")


def _check_view_shape(shape, src, dst) -> None:
    if not shape:
        raise ValueError(f"view: a 0-d array of {src} cannot be viewed as {dst}: the widths "
                         f"differ ({src.itemsize} and {dst.itemsize} bytes)")
    if shape[-1] * src.itemsize % dst.itemsize:
        raise ValueError(f"view: the last axis ({shape[-1]} x {src.itemsize} bytes) does not "
                         f"divide into {dst} elements of {dst.itemsize} bytes")


def _as_words(x):
    """x's data as unsigned integers of its (real) width, complex parts interleaved."""
    dt = aval_of(x).dtype
    if dt == dtypes.bool_:
        return astype(x, dtypes.uint8)
    if dtypes.is_complex(dt):
        from ._complex import imag, real
        from ._shape import stack
        pairs = stack([real(x), imag(x)], axis=-1)
        shape = shape_of(x)
        x = reshape(pairs, shape[:-1] + (2 * shape[-1],))
    return bind(P.bitcast_convert_type, x, new_dtype=_unsigned(_word_width(dt)))


def _regroup(words, width: int, new_width: int):
    """Unsigned `width`-byte words as `new_width`-byte ones, last axis rescaled."""
    from ._elementwise import left_shift, right_shift
    shape = shape_of(words)
    if new_width == width:
        return words
    if new_width > width:
        k = new_width // width
        parts = astype(reshape(words, shape[:-1] + (shape[-1] // k, k)), _unsigned(new_width))
        shifts = _shifts(shape_of(parts), 8 * width, new_width)
        from ._reductions import sum as sum_
        return sum_(left_shift(parts, shifts), axis=-1, dtype=_unsigned(new_width))
    k = width // new_width
    column = reshape(words, shape + (1,))
    shifted = right_shift(column, _shifts(shape + (k,), 8 * new_width, width))
    return reshape(astype(shifted, _unsigned(new_width)), shape[:-1] + (shape[-1] * k,))


def _shifts(shape, bits: int, width: int):
    """bits * j along the last axis of `shape` (j the position there): each part's place."""
    position = broadcasted_iota(_unsigned(width), shape, len(shape) - 1)
    from ._elementwise import multiply
    return multiply(position, np.array(bits, _unsigned(width)))
