"""jax.nn's elementwise activation functions, each a few `transpile.numpy` operations (so they
trace under `jit` and run eagerly alike), with JAX's formulas and default parameters.

Dtypes follow transpile's NumPy rules: a float operand keeps its dtype (Python-number
parameters are weak), an integer operand of a function that needs floats computes in float64
(JAX's default float is float32 without x64).
"""
from __future__ import annotations

import math

from .. import numpy as tnp
from ..core import aval_of
from ..numpy._inexact import as_inexact
from ..base.operands import operand

_SELU_ALPHA = 1.6732632423543772848170429916717
_SELU_SCALE = 1.0507009873554804934193349852946


def _constant(value, x):
    """`value` rounded to x's dtype, as JAX's `np.array(value).astype(x.dtype)`."""
    return aval_of(x).dtype.type(value)


def identity(x):
    return tnp.asarray(x)


def _relu_values(x):
    return tnp.maximum(x, 0)


def _relu6_values(x):
    return tnp.minimum(tnp.maximum(x, 0), 6.0)


def _gated(values, inside):
    """`values` with JAX's custom derivative: the tangent where `inside(x)`, else 0 (so
    0 at the kinks, where maximum/minimum would split a tie in half)."""
    from ..autodiff.custom import custom_jvp     # autodiff names nn only lazily
    fun = custom_jvp(values)

    def rule(primals, tangents):
        x, = primals
        t, = tangents
        return fun(x), tnp.where(inside(x), t, tnp.zeros_like(t))
    fun.defjvp(rule)
    return fun


def relu(x):
    """max(x, 0), whose derivative is 0 at 0, as JAX's (a custom_jvp there)."""
    return _gated(_relu_values, lambda v: v > 0)(x)


def relu6(x):
    """min(max(x, 0), 6), whose derivative is 0 at 0 and 6, as JAX's."""
    return _gated(_relu6_values, lambda v: (v > 0) & (v < 6))(x)


def sigmoid(x):
    x = as_inexact(x)
    return tnp.divide(1, tnp.add(1, tnp.exp(tnp.negative(x))))


def softplus(x):
    return tnp.logaddexp(x, 0)


def sparse_plus(x):
    """0 below -1, x above 1, (x + 1)^2 / 4 between."""
    x = operand(x)
    return tnp.where(x <= -1.0, 0.0, tnp.where(x >= 1.0, x, (x + 1.0) ** 2 / 4))


def soft_sign(x):
    x = operand(x)
    return x / (tnp.abs(x) + 1)


def sparse_sigmoid(x):
    return 0.5 * tnp.clip(operand(x) + 1.0, 0.0, 2.0)


def silu(x):
    x = as_inexact(x)
    return x * sigmoid(x)


swish = silu


def mish(x):
    x = as_inexact(x)
    return x * tnp.tanh(softplus(x))


def log_sigmoid(x):
    return -softplus(-operand(x))


def squareplus(x, b=4):
    x = operand(x)
    return (x + tnp.sqrt(tnp.square(x) + b)) / 2


def elu(x, alpha=1.0):
    x = operand(x)
    positive = x > 0
    # expm1 sees only the non-positive part, so a large positive x cannot overflow it.
    return tnp.where(positive, x, alpha * tnp.expm1(tnp.where(positive, 0.0, x)))


def leaky_relu(x, negative_slope=1e-2):
    x = operand(x)
    return tnp.where(x >= 0, x, negative_slope * x)


def hard_tanh(x):
    x = operand(x)
    return tnp.where(x > 1, 1, tnp.where(x < -1, -1, x))


def celu(x, alpha=1.0):
    x = operand(x)
    return tnp.maximum(x, 0.0) + alpha * tnp.expm1(tnp.minimum(x, 0.0) / alpha)


def selu(x):
    return _SELU_SCALE * elu(x, _SELU_ALPHA)


def gelu(x, approximate=True):
    """x * Phi(x): with `approximate`, Phi by the tanh formula; else exactly, by erfc."""
    from ..lax_special import erfc
    x = as_inexact(x)
    if approximate:
        inner = _constant(math.sqrt(2 / math.pi), x) * (x + 0.044715 * (x ** 3))
        return x * (0.5 * (1.0 + tnp.tanh(inner)))
    return 0.5 * x * erfc(-x * _constant(math.sqrt(0.5), x))


def glu(x, axis=-1):
    """The first half of x along `axis` gated by the sigmoid of the second half."""
    first, second = tnp.split(operand(x), 2, axis=axis)
    return first * sigmoid(second)


def hard_sigmoid(x):
    return relu6(operand(x) + 3.0) / 6.0


def hard_silu(x):
    x = operand(x)
    return x * hard_sigmoid(x)


hard_swish = hard_silu


def log1mexp(x):
    """log(1 - exp(-x)) for x >= 0, by the form that stays accurate on each side of log 2."""
    x = as_inexact(x)
    return tnp.where(x < math.log(2.0), tnp.log(-tnp.expm1(-x)), tnp.log1p(-tnp.exp(-x)))


tanh = tnp.tanh
