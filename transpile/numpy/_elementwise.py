"""Elementwise functions: thin wrappers that bind one primitive each."""
from __future__ import annotations

import numpy as np

from .. import dtypes
from .. import primitives as P
from ..core import aval_of, bind
from ._ufunc import ufunc
from ..base.operands import (as_bool, astype, beyond_int64_as, broadcast_operands,
                             check_ints_fit_loop, check_python_ints_fit, elementwise,
                             int_out_of_bounds, is_weak_int_tracer, operand, weak_flags,
                             weak_like, wrapped_python_int)


def _unary(prim_name: str, public: str):
    def fn(x):
        return elementwise(prim_name, x)
    fn.__name__ = fn.__qualname__ = public
    fn.__doc__ = f"Elementwise {public}, as numpy.{public}."
    return fn


def _binary(prim_name: str, public: str) -> ufunc:
    """A ufunc object: f(x, y) binds the primitive; f.outer/reduce/accumulate/at too."""
    return ufunc(public, prim_name)


negative = _unary("neg", "negative")
absolute = abs = _unary("abs", "absolute")
sign = _unary("sign", "sign")
exp = _unary("exp", "exp")
exp2 = _unary("exp2", "exp2")
expm1 = _unary("expm1", "expm1")
log = _unary("log", "log")
log2 = _unary("log2", "log2")
log10 = _unary("log10", "log10")
log1p = _unary("log1p", "log1p")
sqrt = _unary("sqrt", "sqrt")
sin = _unary("sin", "sin")
cos = _unary("cos", "cos")
tan = _unary("tan", "tan")
arcsin = _unary("asin", "arcsin")
arccos = _unary("acos", "arccos")
arctan = _unary("atan", "arctan")
sinh = _unary("sinh", "sinh")
cosh = _unary("cosh", "cosh")
tanh = _unary("tanh", "tanh")
floor = _unary("floor", "floor")
ceil = _unary("ceil", "ceil")
rint = _unary("round", "rint")
trunc = _unary("trunc", "trunc")
isnan = _unary("is_nan", "isnan")
isinf = _unary("is_inf", "isinf")
isfinite = _unary("is_finite", "isfinite")
invert = bitwise_not = bitwise_invert = _unary("not", "invert")
reciprocal = _unary("reciprocal", "reciprocal")
conjugate = conj = _unary("conj", "conjugate")

add = _binary("add", "add")
subtract = _binary("sub", "subtract")
multiply = _binary("mul", "multiply")
divide = true_divide = _binary("div", "divide")
def _floor_divide(x, y):
    q = elementwise("floor_div", x, y)
    if not dtypes.config.jax_rules() or not dtypes.is_int(aval_of(q).dtype):
        return q
    # JAX's integer division by zero (XLA's quotient -1, then floor's step toward -inf for
    # a nonzero signed dividend): -1 or -2 signed, the maximum unsigned. NumPy's is 0.
    dt = aval_of(q).dtype
    # A Python int operand divides as the value it wraps to in dt (uint8 // -256 divides by
    # 0 in JAX): test that value, not the int as written (fuzz seed 830272, --jax x64).
    x, y = (wrapped_python_int(v, dt) if type(v) is int else v for v in (x, y))
    if dt.kind == "u":
        by_zero = dt.type(np.iinfo(dt).max)
    else:
        by_zero = where(not_equal(x, 0), -2, -1)
        if not aval_of(q).weak_type:         # (Python ints: a weak quotient stays weak)
            by_zero = astype(by_zero, dt)
    return where(equal(y, 0), by_zero, q)


floor_divide = ufunc("floor_divide", "floor_div", fn=_floor_divide)
remainder = mod = _binary("rem", "remainder")
def _power(x, y):
    if type(y) is not int or type(x) in (bool, int, float, complex):
        return elementwise("pow", x, y)
    dt = aval_of(operand(x)).dtype
    if dt.kind not in "iu":
        return elementwise("pow", x, y)
    if y < 0:                  # NumPy (ValueError) and JAX (TypeError) both refuse it
        error = TypeError if dtypes.config.jax_rules() else ValueError
        raise error(f"power: integers cannot be raised to a negative power (got "
                    f"{dt.name} ** {y}); raise a float, e.g. x.astype(float) ** {y}")
    if not dtypes.config.jax_rules():
        return elementwise("pow", x, y)
    # JAX raises an integer array to a Python int with integer_pow: the exponent is exact,
    # not wrapped into x's dtype as other Python ints are (uint8 ** 257 is x ** 257, not x).
    info = np.iinfo(dt)
    if y <= info.max:
        return elementwise("pow", x, y)
    # x ** y modulo 2**bits: an even x gives 0 (y >= bits); odd x form a group of exponent
    # 2**(bits - 2), so only y modulo that matters, which fits dt.
    reduced = elementwise("pow", x, y % 2 ** (info.bits - 2))
    return where(equal(bitwise_and(x, 1), 0), dt.type(0), reduced)


power = pow = ufunc("power", "pow", fn=_power)
maximum = _binary("max", "maximum")
minimum = _binary("min", "minimum")
arctan2 = _binary("atan2", "arctan2")
equal = _binary("eq", "equal")
not_equal = _binary("ne", "not_equal")
less = _binary("lt", "less")
less_equal = _binary("le", "less_equal")
greater = _binary("gt", "greater")
greater_equal = _binary("ge", "greater_equal")
bitwise_and = _binary("and", "bitwise_and")
bitwise_or = _binary("or", "bitwise_or")
bitwise_xor = _binary("xor", "bitwise_xor")
left_shift = _binary("shift_left", "left_shift")
right_shift = _binary("shift_right", "right_shift")


def positive(x):
    x = operand(x)
    aval = aval_of(x)
    if not dtypes.config.jax_rules():     # JAX's positive takes booleans too
        dtypes.ufunc_loop("positive", [aval.dtype], [aval.weak_type])   # booleans are refused
    return x


def square(x):
    x = operand(x)
    aval = aval_of(x)
    # NumPy squares booleans in int8; otherwise square is x * x in x's own dtype.
    (loop,), _ = dtypes.ufunc_loop("square", [aval.dtype], [aval.weak_type])
    x = x if loop == aval.dtype else astype(x, loop)
    return multiply(x, x)


def round(x, decimals: int = 0):
    """Round half to even, as numpy.round: scale by a power of ten, rint, scale back.

    As NumPy, integers with negative decimals go through float64 and are cast back, and
    negative decimals divide by 10**-decimals (multiplying by 0.1 would not be exact)."""
    x = operand(x)
    dt = aval_of(x).dtype
    decimals = int(decimals)
    if dt == dtypes.bool_ and decimals == 0 and not dtypes.config.jax_rules():
        return rint(x)        # NumPy's float16 rint of booleans
    if dt == dtypes.bool_ and dtypes.config.jax_rules():
        raise ValueError("data type bool not inexact: jnp.round refuses booleans, as JAX; "
                         "cast to an integer or float dtype first")
    if dtypes.is_int(dt) and decimals < 0 and dtypes.config.jax_rules():
        # JAX refuses it; computing it through its float (float32 without x64) would round
        # 2801280549 to 2801280512 where NumPy's float64 gives 2801280500.
        raise NotImplementedError("integer np.round not implemented for decimals < 0 (as in "
                                  "JAX): round a float copy, x.astype(float)")
    if dt == dtypes.bool_:
        raise TypeError("round of booleans with decimals: NumPy refuses it; cast to an "
                        "integer or float dtype first")
    if dtypes.is_int(dt):
        if decimals >= 0:
            return x
        return astype(_round_scaled(astype(x, dtypes.float64), decimals), dt)
    if decimals == 0:
        return rint(x)
    if dtypes.config.jax_rules() and _scale_overflows(dt, decimals):
        return x        # JAX's: every value already has fewer digits (NumPy's gives NaN)
    return _round_scaled(x, decimals)


def _scale_overflows(dt, decimals: int) -> bool:
    """Is 10**decimals beyond the largest finite value of `dt` (of its parts if complex)?"""
    from ._dtype_api import finfo
    import math
    return decimals > math.log10(float(finfo(dt).max))


def _round_scaled(x, decimals: int):
    if decimals >= 0:
        scale = _power_of_ten(decimals)
        return divide(rint(multiply(x, scale)), scale)
    scale = _power_of_ten(-decimals)
    return multiply(rint(divide(x, scale)), scale)


def _power_of_ten(n: int) -> float:
    """10.0**n computed as NumPy's round does (exact up to 1e22, then repeated products)."""
    if n < 9:
        return float(10 ** n)
    value = 1e9
    for _ in range(n - 9):
        value *= 10.0
    return value


around = round


def logical_not(x):
    return invert(as_bool(x))


def _logical_operands(x, y):
    """Both operands as booleans. NumPy's binary logical ufuncs convert a Python int to a C
    long first: one outside int64 raises OverflowError, whatever the other operand."""
    if dtypes.config.jax_rules():   # JAX: a Python int wraps into its partner's dtype first
        x, y = check_python_ints_fit("and", [x, y])
        return tuple(as_bool(v) for v in _jax_promoted_scalars([x, y]))
    for v in (x, y):
        if type(v) is int and not -2**63 <= v < 2**63:
            raise int_out_of_bounds(v, dtypes.int64)
    return as_bool(x), as_bool(y)


def _jax_promoted_scalars(xs):
    """JAX promotes a logical op's operands to one dtype before testing them against zero, so
    a weak Python float takes its partner's precision first: 1e-40 with a float16 array is
    0.0, hence False (NumPy tests the Python value itself). A weak traced value (a Python
    float handed to jit) does the same: 1e-320 with a float32 array is False under x64."""
    avals = [aval_of(operand(v)) for v in xs]
    joined = dtypes.result_type([a.dtype for a in avals], [a.weak_type for a in avals])
    return [astype(operand(v), joined) if type(v) is float or a.weak_type else v
            for v, a in zip(xs, avals)]


def _logical_and(x, y):
    return bitwise_and(*_logical_operands(x, y))


logical_and = ufunc("logical_and", fn=_logical_and)


def _logical_or(x, y):
    return bitwise_or(*_logical_operands(x, y))


logical_or = ufunc("logical_or", fn=_logical_or)


def _logical_xor(x, y):
    return bitwise_xor(*_logical_operands(x, y))


logical_xor = ufunc("logical_xor", fn=_logical_xor)


def _bound(name, old_spelling, new_spelling):
    if new_spelling is None:
        return old_spelling
    if old_spelling is not None:
        raise ValueError(f"clip: pass a_{name} or {name}, not both")
    return new_spelling


def where(condition, x=None, y=None, /, *, size=None, fill_value=None):
    """Choose x where condition holds, else y (numpy.where). The one-argument form is
    `nonzero(condition)`, with JAX's static `size=` and `fill_value=` (required under jit: the
    output shape must not depend on the values)."""
    if x is None and y is None:
        from ._sorting import nonzero
        return nonzero(condition, size=size, fill_value=fill_value)
    if x is None or y is None:
        raise ValueError("tnp.where: pass both x and y, or neither (the one-argument form, "
                         "nonzero(condition))")
    if size is not None or fill_value is not None:
        raise ValueError("size and fill_value arguments cannot be used in three-term where "
                         "function (they belong to the one-argument form, tnp.where(c, size=n))")
    pred, x, y = broadcast_operands("where", [as_bool(condition), operand(x), operand(y)])
    out = dtypes.result_type([aval_of(v).dtype for v in (x, y)], weak_flags([x, y]))
    return bind(P.select, pred, beyond_int64_as(x, out), beyond_int64_as(y, out))


def clip(a, a_min=None, a_max=None, *, min=None, max=None):     # noqa: A002 (NumPy's names)
    """numpy.clip (NumPy 2): one dtype for all three operands, Python-int bounds beyond an
    integer array's range dropped, NaN from any operand propagated. The bounds may also be
    given as `min=`/`max=` (NumPy 2.1's and JAX's names)."""
    a_min, a_max = _bound("min", a_min, min), _bound("max", a_max, max)
    a = operand(a)
    out = _clip(a, a_min, a_max)
    # JAX's clip is weakly typed when every operand is (a Python-number jit argument clipped
    # by Python numbers): the loop above computes in strong casts.
    given = [operand(v) for v in (a, a_min, a_max) if v is not None]
    if dtypes.config.jax_rules() and all(aval_of(v).weak_type for v in given):
        return weak_like(out, a)
    return out


def _clip(a, a_min, a_max):
    if dtypes.config.jax_rules() and any(
            v is not None and dtypes.is_complex(aval_of(operand(v)).dtype)
            for v in (a, a_min, a_max)):
        raise ValueError("clip: Complex values have no ordering and cannot be clipped "
                         "(as in JAX); clip the real and imaginary parts separately")
    if a_min is None and a_max is None:     # NumPy >= 2.1 and JAX: nothing to clip
        return positive(a) if aval_of(a).dtype != dtypes.bool_ else a
    # NumPy makes `a` an array first: a Python scalar is strong. JAX's clip keeps it weak.
    if aval_of(a).weak_type and not dtypes.config.jax_rules():
        a = astype(a, aval_of(a).dtype)
    dt = aval_of(a).dtype
    bounds = [b for b in (a_min, a_max) if b is not None]
    if dt == dtypes.uint64 and any(map(is_weak_int_tracer, bounds)):
        # int64 cannot hold uint64's top half: a negative Python-int argument (a lower bound
        # NumPy drops; an upper one it refuses) clips at 0, in uint64.
        a_min, a_max = (_non_negative_uint64(b) if is_weak_int_tracer(b) else b
                        for b in (a_min, a_max))
        return _clip(a, a_min, a_max)
    if dtypes.is_int(dt) and dt != dtypes.int64 and any(map(is_weak_int_tracer, bounds)):
        # A Python-int jit argument may lie outside a's range, where NumPy drops it: clip in
        # int64, exactly, then take NumPy's result dtype.
        out = dtypes.result_type([aval_of(v).dtype for v in [a] + bounds],
                                 weak_flags([a] + bounds))
        return astype(clip(astype(a, dtypes.int64), a_min, a_max), out)
    if dtypes.is_int(dt):           # as numpy's _clip: such a bound can never apply
        info = np.iinfo(dt)
        if type(a_min) is int and a_min <= info.min:
            a_min = None
        if type(a_max) is int and a_max >= info.max:
            a_max = None
    if a_min is None and a_max is None:
        return positive(a)
    if a_min is None:
        return minimum(a, a_max)
    if a_max is None:
        return maximum(a, a_min)
    return _clip_both(a, a_min, a_max)


def _non_negative_uint64(k):
    return astype(where(less(k, 0), 0, k), dtypes.uint64)


def _clip_both(x, lo, hi):
    lo, hi = operand(lo), operand(hi)
    given = [aval_of(v) for v in (x, lo, hi)]      # before broadcasting: NumPy's loop choice
    x, lo, hi = broadcast_operands("clip", [x, lo, hi])
    avals = [aval_of(v) for v in (x, lo, hi)]
    loop, _ = dtypes.ufunc_loop("clip", [v.dtype for v in avals], weak_flags([x, lo, hi]))
    check_ints_fit_loop([x, lo, hi], loop)   # a bound beyond the far end: NumPy raises
    x, lo, hi = (v if aval_of(v).dtype == d and not aval_of(v).weak_type else astype(v, d)
                 for v, d in zip((x, lo, hi), loop))
    scalar_bounds = _numpy_loop_has_scalar_bounds(*given)
    if dtypes.is_float(loop[0]):
        return _clip_float(x, lo, hi, scalar_bounds)
    return _clip_values(x, lo, hi, scalar_bounds)


def _clip_values(x, lo, hi, scalar_bounds):
    # NumPy keeps x on a tie with scalar bounds and takes the bound with array bounds (its
    # two loops); only the sign of a zero can tell.
    if scalar_bounds:
        out = where(less(x, lo), lo, x)
        out = where(greater(out, hi), hi, out)
    else:
        out = where(greater(x, lo), x, lo)
        out = where(less(out, hi), out, hi)
    if dtypes.is_float(aval_of(out).dtype):
        for v in (lo, hi, x):
            out = where(isnan(v), v, out)
    return out


def _clip_float(x, lo, hi, scalar_bounds):
    """Floating-point clip: NumPy's values, and JAX's derivative (jnp.clip is
    minimum(maximum(x, lo), hi) there, so a tie with a bound splits the derivative in
    half between x and the bound). Outside differentiation this is `_clip_values`."""
    from ..autodiff.custom import custom_jvp     # autodiff names numpy only lazily
    clipped = custom_jvp(_clip_values, nondiff_argnums=(3,))
    clipped.defjvp(_clip_jvp)
    return clipped(x, lo, hi, scalar_bounds)


def _clip_jvp(scalar_bounds, primals, tangents):
    x, lo, hi = primals
    tx, t_lo, t_hi = tangents

    def share(a, out, b):           # 1 where `a` is the result, halved where `b` ties it
        return divide(where(equal(a, out), 1.0, 0.0), where(equal(b, out), 2.0, 1.0))
    raised = maximum(x, lo)
    lowered = minimum(raised, hi)
    t_raised = add(multiply(tx, share(x, raised, lo)), multiply(t_lo, share(lo, raised, x)))
    t_out = add(multiply(t_raised, share(raised, lowered, hi)),
                multiply(t_hi, share(hi, lowered, raised)))
    return _clip_values(x, lo, hi, scalar_bounds), t_out


def _numpy_loop_has_scalar_bounds(x, lo, hi) -> bool:
    """Does NumPy's clip run its scalar-bounds loop (x kept on a tie) or its array loop (the
    bound taken)? Bounds of one element (before broadcasting) are scalars to the loop when x
    has more. When all three have one element, NumPy's choice follows its iterator's strides
    (ranks, casts and buffering all change it); 0-d bounds are then taken as scalars, and the
    sign of such a zero result is a documented difference (README)."""
    if lo.size != 1 or hi.size != 1:
        return False
    return x.size != 1 or (lo.ndim == 0 and hi.ndim == 0)
