"""Elementwise functions: thin wrappers that bind one primitive each."""
from __future__ import annotations

from .. import dtypes
from .. import primitives as P
from ..core import aval_of, bind
from ._ufunc import ufunc
from ._util import as_bool, astype, broadcast_operands, elementwise, operand


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

add = _binary("add", "add")
subtract = _binary("sub", "subtract")
multiply = _binary("mul", "multiply")
divide = true_divide = _binary("div", "divide")
floor_divide = _binary("floor_div", "floor_divide")
remainder = mod = _binary("rem", "remainder")
power = pow = _binary("pow", "power")
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
    """Round half to even, as numpy.round."""
    x = operand(x)
    if decimals == 0 or not dtypes.is_float(aval_of(x).dtype):
        if decimals < 0 and dtypes.is_int(aval_of(x).dtype):
            scale = 10 ** -decimals
            return multiply(floor_divide(add(x, scale // 2), scale), scale)
        return x if dtypes.is_int(aval_of(x).dtype) else rint(x)
    scale = 10.0 ** decimals
    return divide(rint(multiply(x, scale)), scale)


around = round


def logical_not(x):
    return invert(as_bool(x))


def _logical_and(x, y):
    return bitwise_and(as_bool(x), as_bool(y))


logical_and = ufunc("logical_and", fn=_logical_and)


def _logical_or(x, y):
    return bitwise_or(as_bool(x), as_bool(y))


logical_or = ufunc("logical_or", fn=_logical_or)


def _logical_xor(x, y):
    return bitwise_xor(as_bool(x), as_bool(y))


logical_xor = ufunc("logical_xor", fn=_logical_xor)


def where(condition, x=None, y=None):
    """Choose x where condition holds, else y (the three-argument form of numpy.where)."""
    if x is None or y is None:
        raise TypeError("tnp.where(condition) (the one-argument form) has a data-dependent "
                        "output shape, which cannot be compiled; pass both x and y")
    pred, x, y = broadcast_operands("where", [as_bool(condition), operand(x), operand(y)])
    return bind(P.select, pred, x, y)


def clip(a, a_min=None, a_max=None):
    if a_min is None and a_max is None:
        raise ValueError("clip: one of a_min or a_max must be given")
    out = operand(a)
    if a_min is not None:
        out = maximum(out, a_min)
    if a_max is not None:
        out = minimum(out, a_max)
    return out
