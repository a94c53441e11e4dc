"""jax.lax.reduce_precision: round floats to a narrower format, kept in their own dtype.

XLA's ReducePrecision on the bits: the mantissa is rounded to `mantissa_bits` (to nearest,
ties to even, by adding a bias and truncating; a carry into the exponent is the correct
rounding up), then exponents beyond `exponent_bits`' range become a signed infinity (too
large) or a signed zero (too small: the narrow format's subnormals are flushed too). NaNs
stay the NaNs they were. Derivatives pass straight through (derivative 1: the operation is
the identity up to rounding). JAX declares the operation linear and rounds the tangent too;
here the tangent program must stay transposable for grad, and rounding bits is not a linear
operation transpile can transpose, so tangents and cotangents keep their full precision.
"""
from __future__ import annotations

import numpy as np

from . import dtypes
from .core import aval_of
from .numpy import _elementwise as E
from .base.operands import operand as as_operand
from .lax_special import bitcast_convert_type

__all__ = ["reduce_precision"]


def reduce_precision(operand, exponent_bits, mantissa_bits):
    """`operand` rounded to a float format with `exponent_bits` and `mantissa_bits`."""
    exponent_bits, mantissa_bits = int(exponent_bits), int(mantissa_bits)
    if exponent_bits < 1 or mantissa_bits < 0:
        raise ValueError(f"reduce_precision: exponent_bits must be at least 1 and "
                         f"mantissa_bits at least 0, got {exponent_bits} and {mantissa_bits}")
    x = as_operand(operand, "reduce_precision operand")
    if not dtypes.is_float(aval_of(x).dtype):
        raise TypeError(f"reduce_precision does not accept dtype {aval_of(x).dtype}: it "
                        "rounds floating-point operands; convert with astype first")
    from .autodiff.custom import custom_jvp     # autodiff builds on lax: imported when used
    rounded = custom_jvp(_reduce_bits, nondiff_argnums=(1, 2))
    rounded.defjvp(_reduce_jvp)
    return rounded(x, exponent_bits, mantissa_bits)


def _reduce_jvp(exponent_bits, mantissa_bits, primals, tangents):
    (x,), (t,) = primals, tangents
    return _reduce_bits(x, exponent_bits, mantissa_bits), t


def _format_of(dtype):
    """(exponent bits, mantissa bits, total bits) of a float dtype."""
    if dtypes.is_bfloat16(dtype):
        return 8, 7, 16
    info = np.finfo(dtype)
    return int(info.nexp), int(info.nmant), 8 * np.dtype(dtype).itemsize


def _reduce_bits(x, exponent_bits, mantissa_bits):
    dtype = aval_of(x).dtype
    src_exponent, src_mantissa, width = _format_of(dtype)
    uint = np.dtype(f"uint{width}").type
    bits = bitcast_convert_type(x, np.dtype(uint))
    if mantissa_bits < src_mantissa:
        bits = _round_mantissa(bits, uint, src_mantissa - mantissa_bits)
    if exponent_bits < src_exponent:
        bits = _clamp_exponent(bits, uint, width, src_exponent, src_mantissa, exponent_bits)
    return E.where(E.isnan(x), x, bitcast_convert_type(bits, dtype))


def _round_mantissa(bits, uint, dropped):
    """Round away the low `dropped` mantissa bits, to nearest, ties to even."""
    last_kept = 1 << dropped
    kept_bit = E.right_shift(E.bitwise_and(bits, uint(last_kept)), uint(dropped))
    biased = E.add(E.add(bits, kept_bit), uint((last_kept >> 1) - 1))
    return E.bitwise_and(biased, uint(~(last_kept - 1) & _all_ones(uint)))


def _clamp_exponent(bits, uint, width, src_exponent, src_mantissa, exponent_bits):
    """Exponents above the narrow format's range: a signed infinity; below it: a signed 0."""
    exponent_mask = ((1 << src_exponent) - 1) << src_mantissa
    bias, narrow_bias = (1 << (src_exponent - 1)) - 1, (1 << (exponent_bits - 1)) - 1
    exponent = E.bitwise_and(bits, uint(exponent_mask))
    overflows = E.greater(exponent, uint((bias + narrow_bias) << src_mantissa))
    underflows = E.less_equal(exponent, uint((bias - narrow_bias) << src_mantissa))
    signed_zero = E.bitwise_and(bits, uint(1 << (width - 1)))
    signed_inf = E.bitwise_or(signed_zero, uint(exponent_mask))
    return E.where(overflows, signed_inf, E.where(underflows, signed_zero, bits))


def _all_ones(uint):
    return int(np.iinfo(uint).max)
