"""Bits packed into uint8 bytes and back: `packbits`, `unpackbits` (big or little bit order
within each byte), as static reshapes, shifts and sums."""
from __future__ import annotations

import numpy as np

from .. import dtypes
from ..core import aval_of
from . import _elementwise as E
from ..base.operands import astype, normalize_axis, operand, reshape, shape_of


def _along_last(a, axis):
    from ._shape import moveaxis
    a = operand(a)
    if axis is None:
        return reshape(a, (-1,)), 0, True
    ax = normalize_axis(axis, len(shape_of(a)))
    return moveaxis(a, ax, -1), ax, False


def _bit_weights(bitorder):
    if bitorder not in ("little", "big"):
        raise ValueError("'order' must be either 'little' or 'big'")
    weights = (1 << np.arange(8)).astype(np.uint8)
    return weights[::-1] if bitorder == "big" else weights


def packbits(a, axis=None, bitorder="big"):
    """Each group of 8 truth values along `axis` (zero-padded) as one uint8."""
    from ._manipulation import pad
    from ._reductions import sum as sum_
    from ._shape import moveaxis
    dt = aval_of(operand(a)).dtype
    if not (dtypes.is_int(dt) or dt == dtypes.bool_):
        raise TypeError("Expected an input array of integer or boolean data type")
    weights = _bit_weights(bitorder)
    x, ax, flat = _along_last(a, axis)
    bits = astype(E.not_equal(x, 0), np.uint8)
    n = shape_of(bits)[-1]
    if n % 8:
        bits = pad(bits, [(0, 0)] * (len(shape_of(bits)) - 1) + [(0, 8 - n % 8)])
    bits = reshape(bits, shape_of(bits)[:-1] + (shape_of(bits)[-1] // 8, 8))
    packed = astype(sum_(E.multiply(bits, weights), axis=-1), np.uint8)
    return packed if flat else moveaxis(packed, -1, ax)


def unpackbits(a, axis=None, count=None, bitorder="big"):
    """Each uint8 along `axis` as its 8 bits (0 or 1), optionally cut or padded to `count`."""
    from ._manipulation import pad
    from ._shape import moveaxis
    if aval_of(operand(a)).dtype != np.uint8:
        raise TypeError("Expected an input array of unsigned byte data type")
    weights = _bit_weights(bitorder)
    x, ax, flat = _along_last(a, axis)
    bits = astype(E.greater(E.bitwise_and(reshape(x, shape_of(x) + (1,)), weights), 0),
                  np.uint8)
    bits = reshape(bits, shape_of(bits)[:-2] + (-1,))
    if count is not None:
        n = shape_of(bits)[-1]
        if count > n:
            bits = pad(bits, [(0, 0)] * (len(shape_of(bits)) - 1) + [(0, count - n)])
        else:
            bits = bits[..., :count]
    return bits if flat else moveaxis(bits, -1, ax)
