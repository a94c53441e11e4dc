"""More of NumPy's math: libm-backed ufuncs, and compositions with NumPy's own formulas."""
from __future__ import annotations

import numpy as np

from .. import dtypes, dtypes_jax
from ..core import aval_of
from . import _elementwise as E
from ._dtype_api import finfo
from ._elementwise import _binary, _unary
from ..precision import check_precision
from ._ufunc import ufunc
from ..base.operands import astype, elementwise, operand, weak_flags

arcsinh = _unary("asinh", "arcsinh")
arccosh = _unary("acosh", "arccosh")
arctanh = _unary("atanh", "arctanh")
cbrt = _unary("cbrt", "cbrt")
signbit = _unary("signbit", "signbit")
hypot = _binary("hypot", "hypot")
copysign = _binary("copysign", "copysign")
fmax = _binary("fmax", "fmax")
fmin = _binary("fmin", "fmin")
def _complex_operands(x, y) -> bool:
    return any(dtypes.is_complex(aval_of(operand(v)).dtype) for v in (x, y))


def _lexicographic_max(x, y):
    """The larger of two complex values by real part, then imaginary part (lax.max's order
    on complex numbers)."""
    from ._complex import imag, real
    rx, ry = real(x), real(y)
    x_wins = E.logical_or(E.greater(rx, ry),
                          E.logical_and(E.equal(rx, ry), E.greater_equal(imag(x), imag(y))))
    return E.where(x_wins, x, y)


def _wrap_to(x, half_period):
    """x moved by whole periods into [-half_period, half_period)."""
    return E.subtract(E.remainder(E.add(x, half_period), 2 * half_period), half_period)


def _complex_logaddexp(x, y, base_log):
    """log(b**x + b**y) for complex x, y (JAX computes it; NumPy has no complex loop): the
    larger operand m factored out, m + log_b(1 + b**(x + y - 2m)), the imaginary part
    wrapped into (-pi/ln b, pi/ln b] as a principal logarithm's."""
    from ._complex import imag, real
    x, y = operand(x), operand(y)
    dt = dtypes.result_type([aval_of(x).dtype, aval_of(y).dtype], weak_flags([x, y]))
    x, y = astype(x, dt), astype(y, dt)
    m = _lexicographic_max(x, y)
    rest = E.subtract(E.add(x, y), E.multiply(m, 2))
    grown = E.log1p(E.exp(E.multiply(rest, base_log)))
    out = E.add(m, E.divide(grown, base_log) if base_log != 1 else grown)
    im = _wrap_to(imag(out), np.pi / base_log)
    return E.add(real(out), E.multiply(astype(im, dt), astype(1j, dt)))


def _logaddexp(x, y):
    if _complex_operands(x, y) and dtypes.config.jax_rules():
        return _complex_logaddexp(x, y, 1)
    return elementwise("logaddexp", x, y)


def _logaddexp2(x, y):
    if _complex_operands(x, y) and dtypes.config.jax_rules():
        return _complex_logaddexp(x, y, float(np.log(2)))   # a weak Python float
    return elementwise("logaddexp2", x, y)


logaddexp = ufunc("logaddexp", "logaddexp", _logaddexp)
logaddexp2 = ufunc("logaddexp2", "logaddexp2", _logaddexp2)
nextafter = _binary("nextafter", "nextafter")
asinh, acosh, atanh = arcsinh, arccosh, arctanh


def _float_ufunc_operand(x, name):
    """x in the float dtype the ufunc `name` computes in (NumPy's loop or JAX's inexact
    promotion: int16 -> float32 in both, not a Python float's float64)."""
    x = operand(x)
    aval = aval_of(x)
    (dt,), _ = dtypes.ufunc_loop(name, (aval.dtype,), (aval.weak_type,))
    return astype(x, dt)


def deg2rad(x):
    return E.multiply(_float_ufunc_operand(x, "deg2rad"), np.pi / 180.0)


def rad2deg(x):
    return E.multiply(_float_ufunc_operand(x, "rad2deg"), 180.0 / np.pi)


radians, degrees = deg2rad, rad2deg


def sinc(x):
    # NumPy's formula: a tiny stand-in for 0 makes sin(y)/y evaluate to exactly 1 there. At 0
    # itself the value comes from sinc's Maclaurin series, whose derivatives (JAX's) are
    # the series' coefficients: sinc''(0) = -pi**2/3 and so on, where the stand-in has none.
    x = operand(x)
    at_zero = E.equal(x, 0)
    y = E.multiply(np.pi, E.where(at_zero, 1.0e-20, x))
    return E.where(at_zero, _sinc_series(0, E.multiply(np.pi, x)), E.divide(E.sin(y), y))


def _sinc_series(k: int, z):
    """The k-th derivative at 0 of sin(z)/z, shaped like z, differentiable to any order."""
    from ..autodiff.custom import custom_jvp     # autodiff names numpy only lazily
    term = custom_jvp(_sinc_series_value, nondiff_argnums=(0,))
    term.defjvp(_sinc_series_jvp)
    return term(k, z)


def _sinc_series_value(k: int, z):
    coefficient = 0.0 if k % 2 else (-1.0) ** (k // 2) / (k + 1)
    return E.add(E.multiply(z, 0.0), coefficient)      # z's shape and dtype


def _sinc_series_jvp(k, primals, tangents):
    (z,), (tz,) = primals, tangents
    return _sinc_series(k, z), E.multiply(_sinc_series(k + 1, z), tz)


def heaviside(x1, x2):
    x1, x2 = operand(x1), operand(x2)
    avals = [aval_of(x1), aval_of(x2)]
    (dt1, dt2), out = dtypes.ufunc_loop("heaviside", [a.dtype for a in avals],
                                        weak_flags([x1, x2]))
    x1, x2 = astype(x1, dt1), astype(x2, dt2)
    step = E.where(E.less(x1, 0), 0, E.where(E.greater(x1, 0), 1, x2))
    return astype(E.where(E.isnan(x1), x1, step), out)


def nan_to_num(x, copy=True, nan=0.0, posinf=None, neginf=None):
    x = operand(x)
    dt = aval_of(x).dtype
    if not dtypes.is_float(dt):
        return x
    info = finfo(dt)                   # NumPy's, or ml_dtypes' for bfloat16
    big = info.max if posinf is None else posinf
    small = info.min if neginf is None else neginf
    x = E.where(E.isnan(x), astype(nan, dt), x)
    x = E.where(E.logical_and(E.isinf(x), E.greater(x, 0)), astype(big, dt), x)
    return E.where(E.logical_and(E.isinf(x), E.less(x, 0)), astype(small, dt), x)


def isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    # NumPy 2's definition: |a - b| <= atol + rtol * |b|, with b promoted to at least a float.
    a, b = operand(a), operand(b)
    bdt = aval_of(b).dtype
    if not dtypes.is_float(bdt):
        b = astype(b, np.result_type(bdt, 1.0))
    close = E.less_equal(E.abs(E.subtract(a, b)), E.add(atol, E.multiply(rtol, E.abs(b))))
    result = E.logical_or(E.logical_and(close, E.isfinite(b)), E.equal(a, b))
    if equal_nan:
        result = E.logical_or(result, E.logical_and(E.isnan(a), E.isnan(b)))
    return result


def allclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    from ._reductions import all
    return all(isclose(a, b, rtol, atol, equal_nan))


def array_equal(a1, a2, equal_nan=False):
    from ._reductions import all
    a1, a2 = operand(a1), operand(a2)
    if aval_of(a1).shape != aval_of(a2).shape:
        return np.bool_(False)
    same = E.equal(a1, a2)
    # A complex value with a NaN in either part is NaN (isnan's reading, NumPy's and JAX's).
    if equal_nan and any(dtypes.is_inexact(aval_of(a).dtype) for a in (a1, a2)):
        same = E.logical_or(same, E.logical_and(E.isnan(a1), E.isnan(a2)))
    return all(same)


def array_equiv(a1, a2):
    from ._reductions import all
    a1, a2 = operand(a1), operand(a2)
    try:
        np.broadcast_shapes(aval_of(a1).shape, aval_of(a2).shape)
    except ValueError:
        return np.bool_(False)
    return all(E.equal(a1, a2))


# --- 1-d convolution ------------------------------------------------------------------------

def _correlate_full(a, v):
    """Full cross-correlation, out[k] = sum_j a[k + j - (m-1)] * v[j], as m shifted slices.

    Summed in increasing j, the order NumPy's own loop uses. 16-bit floats are summed in
    float32 and rounded once, as NumPy's float16 dot and XLA's CPU convolution do."""
    dtype = aval_of(a).dtype
    if dtypes.is_half(dtype):
        return astype(_correlate_full(astype(a, dtypes.float32), astype(v, dtypes.float32)),
                      dtype)
    from ._manipulation import pad
    n, m = aval_of(a).shape[0], aval_of(v).shape[0]
    padded = pad(a, (m - 1, m - 1))
    length = n + m - 1
    total = None
    for j in range(m):
        term = E.multiply(padded[j:j + length], v[j])
        total = term if total is None else E.add(total, term)
    return total


def _mode_window(full, n, m, mode):
    length = n + m - 1
    if mode == "full":
        return full
    if mode == "same":
        size = max(n, m)
        start = (length - size) // 2
        return full[start:start + size]
    if mode == "valid":
        size = max(n, m) - min(n, m) + 1
        start = min(n, m) - 1
        return full[start:start + size]
    raise ValueError(f"mode must be one of 'full', 'same' or 'valid', got {mode!r}")


def _check_1d(a, v, name, preferred_element_type=None):
    a, v = operand(a), operand(v)
    for arg, what in ((a, "a"), (v, "v")):
        if len(aval_of(arg).shape) != 1:
            raise ValueError(f"{name}: '{what}' must be 1-d, got shape {aval_of(arg).shape}")
        if aval_of(arg).shape[0] == 0:
            raise ValueError(f"{name}: '{what}' cannot be empty")
    dt = _operand_dtype(a, v, preferred_element_type)
    return astype(a, dt), astype(v, dt)


def _operand_dtype(a, v, preferred_element_type):
    """The dtype the products are summed in: `preferred_element_type` when given (JAX's
    argument); else NumPy's promotion, or under JAX's rules JAX's promotion made inexact
    (JAX's convolve of two int32 arrays is float32)."""
    if preferred_element_type is not None:
        return dtypes.canonicalize(preferred_element_type)
    pair = [aval_of(a).dtype, aval_of(v).dtype]
    if not dtypes.config.jax_rules():
        return np.result_type(*pair)
    return dtypes_jax.to_inexact(dtypes.result_type(pair, [False, False]), False)[0]


def correlate(a, v, mode="valid", *, precision=None, preferred_element_type=None):
    """NumPy's and JAX's correlate; JAX's `precision` changes nothing on the CPU (products
    are summed in the operands' dtype)."""
    check_precision(precision, "correlate")
    a, v = _check_1d(a, v, "correlate", preferred_element_type)
    n, m = aval_of(a).shape[0], aval_of(v).shape[0]
    if m > n:   # NumPy swaps the operands and reverses the result
        return _mode_window(_correlate_full(v, a), m, n, mode)[::-1]
    return _mode_window(_correlate_full(a, v), n, m, mode)


def convolve(a, v, mode="full", *, precision=None, preferred_element_type=None):
    """NumPy's and JAX's convolve (`precision` as in `correlate`)."""
    check_precision(precision, "convolve")
    a, v = _check_1d(a, v, "convolve", preferred_element_type)
    if aval_of(v).shape[0] > aval_of(a).shape[0]:
        a, v = v, a
    n, m = aval_of(a).shape[0], aval_of(v).shape[0]
    return _mode_window(_correlate_full(a, v[::-1]), n, m, mode)
