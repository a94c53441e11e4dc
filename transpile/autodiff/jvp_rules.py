"""Forward-mode rules, one per primitive: `rule(primals, tangents, **params)` returns
(outputs, output tangents), lists in the primitive's output order. A tangent is a value of
its primal's shape and dtype, or None for a symbolic zero; rules apply only linear
primitives to tangents (so reverse mode can transpose them), with factors computed from
primals. Formulas follow JAX's (jax/_src/lax/lax.py), including where a derivative is split
between tied operands (max, min, reductions)."""
from __future__ import annotations

import math

import numpy as np

from .. import dtypes
from .. import primitives as P
from ..core import ShapedArray, Tracer, bind
from . import ops
from .control_flow import cond_jvp
from .linalg_rules import LINALG_JVP_RULES
from .spectral_rules import conv_jvp, fft_jvp
from .loops import for_loop_jvp, scan_jvp, while_jvp
from .evaluate import differentiating, linearizing

jvp_rules: dict[str, callable] = {}


def jvp_rule(name: str):
    rule = jvp_rules.get(name)
    if rule is None:
        raise NotImplementedError(f"Differentiation rule for '{name}' not implemented: "
                                  f"transpile cannot differentiate the primitive '{name}' "
                                  "(jvp, grad and the other autodiff transformations)")
    return rule


def not_differentiable(name: str, why: str):
    """A declared gap: differentiating `name` raises NotImplementedError saying why."""
    def rule(primals, tangents, **params):
        raise NotImplementedError(f"Differentiation rule for '{name}' not implemented "
                                  f"(jvp/grad): {why}")
    rule.declared_missing = why
    jvp_rules[name] = rule


def _single(rule):
    """Adapt `rule(primals, tangents, **params) -> (out, tangent)` to the list protocol."""
    def listed(primals, tangents, **params):
        out, t = rule(primals, tangents, **params)
        return [out], [t]
    listed.__name__ = rule.__name__
    return listed


# -- zero derivatives: piecewise constant, integer, boolean results ----------------------------

ZERO_DERIVATIVE = (
    "sign", "floor", "ceil", "round", "trunc", "not", "is_nan", "is_inf", "is_finite",
    "signbit", "floor_div", "nextafter", "eq", "ne", "lt", "le", "gt", "ge", "and", "or",
    "xor", "shift_left", "shift_right", "argmax", "argmin", "reduce_and", "reduce_or",
    "argsort", "bitcast_convert_type", "iota", "axis_index")


def _zero_rule(name):
    prim = P.get(name)

    def rule(primals, tangents, **params):
        out = bind(prim, *primals, **params)
        outs = list(out) if isinstance(out, (list, tuple)) else [out]
        return outs, [None] * len(outs)
    return rule


for _name in ZERO_DERIVATIVE:
    jvp_rules[_name] = _zero_rule(_name)


# -- elementwise unary ----------------------------------------------------------------------

def _defunary(name: str, tangent):
    """`tangent(t, x, out)`: the output tangent for input tangent t."""
    def rule(primals, tangents):
        x, = primals
        out = ops.unary(name, x)
        return out, tangent(tangents[0], x, out)
    jvp_rules[name] = _single(rule)


def _sqrt(x):
    return ops.unary("sqrt", x)


def _square(x):
    return ops.mul(x, x)


LN2, LN10 = math.log(2.0), math.log(10.0)
TWO_OVER_SQRT_PI = 2.0 / math.sqrt(math.pi)

_defunary("neg", lambda t, x, out: ops.neg(t))
def _abs_tangent(t, x, out):
    """JAX's: the sign's tangent for reals (+1 at 0); Re(t conj(x) / |x|) for complex."""
    if not dtypes.is_complex(ops.aval(x).dtype):
        return ops.select(ops.binary("ge", x, 0), t, ops.neg(t))
    magnitude = ops.convert(_replace_zero(out), ops.aval(x).dtype)
    return ops.unary("real", ops.mul(t, ops.div(ops.unary("conj", x), magnitude)))


_defunary("abs", _abs_tangent)
_defunary("exp", lambda t, x, out: ops.mul(t, out))
_defunary("exp2", lambda t, x, out: ops.mul(t, ops.mul(out, LN2)))
_defunary("expm1", lambda t, x, out: ops.mul(t, ops.add(out, 1)))
_defunary("log", lambda t, x, out: ops.div(t, x))
_defunary("log2", lambda t, x, out: ops.div(t, ops.mul(x, LN2)))
_defunary("log10", lambda t, x, out: ops.div(t, ops.mul(x, LN10)))
_defunary("log1p", lambda t, x, out: ops.div(t, ops.add(x, 1)))
_defunary("sqrt", lambda t, x, out: ops.mul(t, ops.div(0.5, out)))
_defunary("cbrt", lambda t, x, out: ops.mul(t, ops.div(1.0 / 3.0, _square(out))))
_defunary("reciprocal", lambda t, x, out: ops.mul(ops.neg(t), _square(out)))
_defunary("sin", lambda t, x, out: ops.mul(t, ops.unary("cos", x)))
_defunary("cos", lambda t, x, out: ops.mul(t, ops.neg(ops.unary("sin", x))))
_defunary("tan", lambda t, x, out: ops.mul(t, ops.add(1, _square(out))))
_defunary("asin", lambda t, x, out: ops.div(t, _sqrt(ops.sub(1, _square(x)))))
_defunary("acos", lambda t, x, out: ops.neg(ops.div(t, _sqrt(ops.sub(1, _square(x))))))
_defunary("atan", lambda t, x, out: ops.div(t, ops.add(1, _square(x))))
_defunary("sinh", lambda t, x, out: ops.mul(t, ops.unary("cosh", x)))
_defunary("cosh", lambda t, x, out: ops.mul(t, ops.unary("sinh", x)))
_defunary("tanh", lambda t, x, out: ops.mul(ops.add(t, ops.mul(t, out)), ops.sub(1, out)))
_defunary("asinh", lambda t, x, out: ops.div(t, _sqrt(ops.add(_square(x), 1))))
_defunary("acosh", lambda t, x, out: ops.div(t, _sqrt(ops.mul(ops.sub(x, 1), ops.add(x, 1)))))
_defunary("atanh", lambda t, x, out: ops.div(ops.div(t, ops.add(1, x)), ops.sub(1, x)))
_defunary("conj", lambda t, x, out: ops.unary("conj", t))
_defunary("real", lambda t, x, out: ops.unary("real", t))
_defunary("imag", lambda t, x, out: ops.unary("imag", t))
_defunary("erf", lambda t, x, out: ops.mul(t, ops.mul(TWO_OVER_SQRT_PI,
                                                      ops.unary("exp", ops.neg(_square(x))))))
_defunary("erfc", lambda t, x, out: ops.mul(t, ops.mul(-TWO_OVER_SQRT_PI,
                                                       ops.unary("exp", ops.neg(_square(x))))))
_defunary("erf_inv", lambda t, x, out: ops.mul(t, ops.mul(math.sqrt(math.pi) / 2,
                                                          ops.unary("exp", _square(out)))))
_defunary("lgamma", lambda t, x, out: ops.mul(t, ops.unary("digamma", x)))


def trigamma(x):
    """polygamma(1, x), digamma's derivative: the recurrence psi1(x) = 1/x^2 + psi1(x + 1)
    up to x + 10, then the asymptotic series (error below 1e-12 relative); below 1/2 the
    reflection psi1(x) = pi^2 / sin^2(pi x) - psi1(1 - x)."""
    small = ops.binary("lt", x, 0.5)
    z = ops.select(small, ops.sub(1.0, x), x)
    total = ops.full(0, ops.aval(z))
    for k in range(10):
        zk = ops.add(z, float(k))
        total = ops.add(total, ops.div(1.0, _square(zk)))
    z = ops.add(z, 10.0)
    inv = ops.div(1.0, z)
    inv2 = _square(inv)
    # 1/z + 1/(2z^2) + 1/(6z^3) - 1/(30z^5) + 1/(42z^7) - 1/(30z^9), in Horner form
    series = ops.mul(inv2, ops.add(1.0 / 6, ops.mul(inv2, ops.add(-1.0 / 30, ops.mul(
        inv2, ops.add(1.0 / 42, ops.mul(inv2, -1.0 / 30)))))))
    tail = ops.mul(inv, ops.add(ops.add(1.0, ops.mul(inv, 0.5)), series))
    positive = ops.add(total, tail)
    sine = ops.unary("sin", ops.mul(x, math.pi))
    reflected = ops.sub(ops.div(math.pi ** 2, _square(sine)), positive)
    return ops.select(small, reflected, positive)


_defunary("digamma", lambda t, x, out: ops.mul(t, trigamma(x)))


# -- elementwise binary ---------------------------------------------------------------------

def _defbinary(name: str, left, right):
    """`left(t, x, y, out)` / `right(...)`: each operand's contribution to the tangent."""
    def rule(primals, tangents):
        x, y = primals
        tx, ty = tangents
        out = ops.binary(name, x, y)
        target = ops.aval(out)
        integer_y = dtypes.is_int(ops.aval(y).dtype)
        # The derivatives are computed at the result's precision: an integer operand (whose
        # own tangent is zero) would otherwise compute x * x, log x... in its own dtype.
        x, y = (v if ops.aval(v).dtype == target.dtype else ops.convert(v, target.dtype)
                for v in (x, y))
        parts = []
        if tx is not None:
            lhs = left(tx, x, y, out, integer_y) if name == "pow" else left(tx, x, y, out)
            parts.append(ops.fit(lhs, target))
        if ty is not None:
            parts.append(ops.fit(right(ty, x, y, out), target))
        return out, parts[0] if len(parts) == 1 else ops.add(*parts)
    jvp_rules[name] = _single(rule)


def _where(pred, on_true, on_false):
    return ops.select(pred, on_true, on_false)


def _replace_zero(x):
    return _where(ops.binary("eq", x, 0), ops.full(1, ops.aval(x)), x)


def _pow_left(t, x, y, out, integer_y):
    # As JAX: y x ** (y - 1), its y == 0 case made 0 for an integer exponent (x ** 0, JAX's
    # integer_pow) but not for a floating-point one (0 * x ** -1: NaN at x = 0).
    if not isinstance(y, (Tracer, np.ndarray)):   # a literal exponent (x ** 2): y x ** (y - 1)
        if y == 0:
            return ops.mul(t, 0 * y) if integer_y else ops.mul(t, ops.mul(
                y, ops.binary("pow", x, y - 1)))
        lower = y - 1                      # the same Python or NumPy type as y
        power = x if lower == 1 else ops.binary("pow", x, lower)
        return ops.mul(t, power if y == 1 else ops.mul(y, power)) if lower != 0 \
            else ops.mul(t, y)
    jac = ops.mul(y, ops.binary("pow", x, ops.sub(y, 1)))
    if not integer_y:
        return ops.mul(t, jac)
    return ops.mul(t, _where(ops.binary("eq", y, 0), ops.full(0, ops.aval(jac)), jac))


def _pow_right(t, x, y, out):
    return ops.mul(t, ops.mul(ops.unary("log", _replace_zero(x)), out))


def _balanced_eq(a, out, b):
    """JAX's tie split for max/min: 1 where `a` is the result, halved where `b` ties it."""
    dt = ops.aval(out).dtype
    one, zero, two = ops.scalar(1, dt), ops.scalar(0, dt), ops.scalar(2, dt)
    return ops.div(_where(ops.binary("eq", a, out), one, zero),
                   _where(ops.binary("eq", b, out), two, one))


def _hypot_part(t, a, out):
    # At the origin JAX's hypot (max(|a|, |b|) times a factor that is 1 there) splits the
    # tie of max(|a|, |b|) in half, and |.|' is 1 at +-0: 1/2 for each operand.
    return ops.mul(t, _where(ops.binary("eq", out, 0), ops.scalar(0.5, ops.aval(out).dtype),
                             ops.div(a, out)))


def _replace_posinf(x):
    return _where(ops.binary("eq", x, math.inf), ops.full(0, ops.aval(x)), x)


def _logaddexp_part(exp_name):
    def part(t, a, b, out):
        return ops.mul(t, ops.unary(exp_name, ops.sub(_replace_posinf(a), _replace_posinf(out))))
    return part


def _fmax_pick(x, y, comparison):
    """jnp.fmax/fmin: x where it wins or y is NaN, else y (ties go to y)."""
    return ops.binary("or", ops.binary(comparison, x, y), ops.unary("is_nan", y))


def _deffchooser(name, comparison):
    def rule(primals, tangents):
        x, y = primals
        out = ops.binary(name, x, y)
        target = ops.aval(out)
        tx, ty = (ops.instantiate(t, target) for t in tangents)
        return out, ops.select(_fmax_pick(x, y, comparison), tx, ty)
    jvp_rules[name] = _single(rule)


def _copysign_left(t, x, y, out):
    flip = ops.binary("ne", ops.unary("signbit", x), ops.unary("signbit", y))
    return _where(flip, ops.neg(t), t)


def _atan2_denominator(x, y):
    return ops.add(_square(x), _square(y))


_defbinary("add", lambda t, x, y, o: t, lambda t, x, y, o: t)
_defbinary("sub", lambda t, x, y, o: t, lambda t, x, y, o: ops.neg(t))
_defbinary("mul", lambda t, x, y, o: ops.mul(t, y), lambda t, x, y, o: ops.mul(x, t))
_defbinary("div", lambda t, x, y, o: ops.div(t, y),
           lambda t, x, y, o: ops.div(ops.mul(ops.neg(t), o), y))
_defbinary("pow", _pow_left, _pow_right)
_defbinary("max", lambda t, x, y, o: ops.mul(t, _balanced_eq(x, o, y)),
           lambda t, x, y, o: ops.mul(t, _balanced_eq(y, o, x)))
_defbinary("min", lambda t, x, y, o: ops.mul(t, _balanced_eq(x, o, y)),
           lambda t, x, y, o: ops.mul(t, _balanced_eq(y, o, x)))
_defbinary("atan2", lambda t, x, y, o: ops.mul(t, ops.div(y, _atan2_denominator(x, y))),
           lambda t, x, y, o: ops.mul(t, ops.div(ops.neg(x), _atan2_denominator(x, y))))
_defbinary("hypot", lambda t, x, y, o: _hypot_part(t, x, o),
           lambda t, x, y, o: _hypot_part(t, y, o))
_defbinary("rem", lambda t, x, y, o: t,
           lambda t, x, y, o: ops.mul(ops.neg(t), ops.unary("floor", ops.div(x, y))))
_defbinary("logaddexp", _logaddexp_part("exp"),
           lambda t, x, y, o: _logaddexp_part("exp")(t, y, x, o))
_defbinary("logaddexp2", _logaddexp_part("exp2"),
           lambda t, x, y, o: _logaddexp_part("exp2")(t, y, x, o))
_deffchooser("fmax", "gt")
_deffchooser("fmin", "lt")


@_single
def copysign_jvp(primals, tangents):
    """Only the magnitude's operand has a derivative (the sign's is zero)."""
    x, y = primals
    out = ops.binary("copysign", x, y)
    if tangents[0] is None:
        return out, None
    return out, ops.fit(_copysign_left(tangents[0], x, y, out), ops.aval(out))


jvp_rules["copysign"] = copysign_jvp


# -- selection, casts, structure ----------------------------------------------------------

@_single
def select_jvp(primals, tangents):
    pred, a, b = primals
    out = ops.select(pred, a, b)
    ta, tb = (ops.instantiate(t, ops.aval(v)) for t, v in zip(tangents[1:], (a, b)))
    return out, ops.select(pred, ta, tb)


@_single
def convert_element_type_jvp(primals, tangents, *, new_dtype, weak_type=False):
    x, = primals
    out = bind(P.convert_element_type, x, new_dtype=new_dtype, weak_type=weak_type)
    if not dtypes.is_inexact(np.dtype(new_dtype)):
        return out, None
    return out, ops.convert(tangents[0], new_dtype, weak_type)


def _structural(name):
    """Linear in their one operand: the tangent takes the same primitive and params."""
    prim = P.get(name)

    @_single
    def rule(primals, tangents, **params):
        return bind(prim, primals[0], **params), bind(prim, tangents[0], **params)
    return rule


for _name in ("broadcast_in_dim", "reshape", "transpose", "slice", "rev", "reduce_sum",
              "psum"):
    jvp_rules[_name] = _structural(_name)


@_single
def concatenate_jvp(primals, tangents, *, dimension):
    out = bind(P.concatenate, *primals, dimension=dimension)
    target = ops.aval(out)
    ts = [ops.fit_dtype(ops.instantiate(t, ops.aval(x)), target)
          for t, x in zip(tangents, primals)]
    return out, bind(P.concatenate, *ts, dimension=dimension)


@_single
def dot_general_jvp(primals, tangents):
    x, y = primals
    tx, ty = tangents
    out = ops.matmul(x, y)
    target = ops.aval(out)
    parts = []
    if tx is not None:
        parts.append(ops.fit(ops.matmul(tx, y), target))
    if ty is not None:
        parts.append(ops.fit(ops.matmul(x, ty), target))
    return out, parts[0] if len(parts) == 1 else ops.add(*parts)


# -- reductions -----------------------------------------------------------------------------

def _chooser_jvp(name):
    """max/min along axes: the tangent of the chosen element, averaged over ties (JAX)."""
    prim = P.get(name)

    @_single
    def rule(primals, tangents, *, axes):
        x, = primals
        out = bind(prim, x, axes=axes)
        xa = ops.aval(x)
        kept = tuple(i for i in range(xa.ndim) if i not in axes)
        chosen = ops.binary("eq", x, ops.broadcast_in_dim(out, xa.shape, kept))
        where = ops.select(chosen, ops.scalar(1, xa.dtype), ops.scalar(0, xa.dtype))
        counts = ops.reduce_sum(where, axes)
        return out, ops.div(ops.reduce_sum(ops.mul(tangents[0], where), axes), counts)
    return rule


jvp_rules["reduce_max"] = _chooser_jvp("reduce_max")
jvp_rules["reduce_min"] = _chooser_jvp("reduce_min")


@_single
def reduce_prod_jvp(primals, tangents, *, axes):
    """The product's tangent through a balanced tree of pairwise products: exact where
    elements are zero (no division), log-depth in the number of factors (as JAX's)."""
    x, = primals
    t = tangents[0]
    out = bind(P.reduce_prod, x, axes=axes)
    xa = ops.aval(x)
    rest = tuple(i for i in range(xa.ndim) if i not in axes)
    n = math.prod(xa.shape[i] for i in axes)
    m = math.prod(xa.shape[i] for i in rest)
    if n == 0:
        return out, ops.zeros(ops.aval(out))
    perm = tuple(axes) + rest
    xs = ops.reshape(ops.transpose(x, perm), (n, m))
    ts = ops.reshape(ops.transpose(t, perm), (n, m))
    while n > 1:
        if n % 2:
            pad = ShapedArray((1, m), xa.dtype)
            xs = ops.concatenate([xs, ops.full(1, pad)], 0)
            ts = ops.concatenate([ts, ops.full(0, pad)], 0)
            n += 1
        a, b = ops.slice_(xs, (0, 0), (n, m), (2, 1)), ops.slice_(xs, (1, 0), (n, m), (2, 1))
        ta, tb = ops.slice_(ts, (0, 0), (n, m), (2, 1)), ops.slice_(ts, (1, 0), (n, m), (2, 1))
        xs, ts = ops.mul(a, b), ops.add(ops.mul(ta, b), ops.mul(a, tb))
        n //= 2
    return out, ops.reshape(ts, ops.aval(out).shape)


# -- indexing -------------------------------------------------------------------------------

@_single
def dynamic_slice_jvp(primals, tangents, *, slice_sizes):
    x, *starts = primals
    out = bind(P.dynamic_slice, x, *starts, slice_sizes=slice_sizes)
    return out, bind(P.dynamic_slice, tangents[0], *starts, slice_sizes=slice_sizes)


@_single
def dynamic_update_slice_jvp(primals, tangents):
    x, update, *starts = primals
    out = bind(P.dynamic_update_slice, x, update, *starts)
    tx = ops.instantiate(tangents[0], ops.aval(x))
    tu = ops.instantiate(tangents[1], ops.aval(update))
    return out, bind(P.dynamic_update_slice, tx, tu, *starts)


@_single
def gather_jvp(primals, tangents, *, axis):
    x, indices = primals
    return ops.gather(x, indices, axis), ops.gather(tangents[0], indices, axis)


def take_along_last_axis(x, indices):
    """x[..., indices] row by row (indices of x's shape, along the last axis): a gather
    from the flattened array at row * n + index."""
    shape = ops.aval(x).shape
    n = shape[-1]
    rows = math.prod(shape[:-1])
    offsets = ops.mul(ops.iota(np.int64, (rows, n), 0), n)
    flat = ops.add(ops.reshape(ops.convert(indices, np.int64), (rows, n)), offsets)
    return ops.reshape(ops.gather(ops.reshape(x, (rows * n,)), flat, 0), shape)


@_single
def sort_jvp(primals, tangents):
    x, = primals
    order = bind(P.argsort, x)          # the same stable order (NaN last) as sort's
    return bind(P.sort, x), take_along_last_axis(tangents[0], order)


@_single
def scatter_jvp(primals, tangents, *, mode):
    x, indices, updates = primals
    tx, _, tu = tangents
    out = ops.scatter(x, indices, updates, mode)
    xa, ua = ops.aval(x), ops.aval(updates)
    if mode in ("add", "set"):
        return out, ops.scatter(ops.instantiate(tx, xa), indices, ops.instantiate(tu, ua), mode)
    if mode == "mul":
        if tu is not None:
            raise NotImplementedError(
                "Differentiation rule for 'scatter' (.at[].multiply) with respect to the "
                "updates is not implemented (JAX's needs unique indices too); differentiate "
                "with respect to the array only, or write the product with .at[].get()")
        return out, ops.scatter(tx, indices, updates, "mul")
    return out, _scatter_extremum_tangent(x, indices, updates, out, tx, tu)


def _scatter_extremum_tangent(x, indices, updates, out, tx, tu):
    """.at[].min/max: the tangent of whichever value won at each position, averaged over
    ties between the array and its updates (as JAX's scatter min/max rule)."""
    xa, ua = ops.aval(x), ops.aval(updates)
    one, zero = ops.scalar(1, xa.dtype), ops.scalar(0, xa.dtype)
    size = xa.size
    valid = ops.binary("and", ops.binary("ge", indices, 0), ops.binary("lt", indices, size))
    won = ops.binary("and", valid,
                     ops.binary("eq", updates, ops.gather(ops.reshape(out, (size,)), indices, 0)))
    kept = ops.binary("eq", x, out)
    won_f = ops.select(won, one, zero)
    counts = ops.scatter(ops.select(kept, one, zero), indices, ops.broadcast_to(won_f, ua.shape), "add")
    tx = ops.select(kept, ops.instantiate(tx, xa), zero)
    tu = ops.select(won, ops.instantiate(tu, ua), zero)
    total = ops.scatter(tx, indices, tu, "add")
    return ops.div(total, ops.select(ops.binary("eq", counts, 0), one, counts))


jvp_rules.update({
    "select": select_jvp, "convert_element_type": convert_element_type_jvp,
    "concatenate": concatenate_jvp, "dot_general": dot_general_jvp,
    "reduce_prod": reduce_prod_jvp, "dynamic_slice": dynamic_slice_jvp,
    "dynamic_update_slice": dynamic_update_slice_jvp, "gather": gather_jvp,
    "sort": sort_jvp, "scatter": scatter_jvp,
})


# -- effects and differentiation markers --------------------------------------------------

def debug_print_jvp(primals, tangents, **params):
    bind(P.debug_print, *primals, **params)      # prints the primal values, as JAX does
    return [], []


@_single
def stop_gradient_jvp(primals, tangents):
    x, = primals
    # Still a marker for an enclosing differentiation (grad of grad), else the plain value.
    return (bind(P.stop_gradient, x) if differentiating() else x), None


def custom_jvp_call_jvp(primals, tangents, *, call, rule, n_args):
    args = primals[:n_args]
    ts = [ops.instantiate(t, ops.aval(x)) for t, x in zip(tangents[:n_args], args)]
    return rule(args, ts)


def _remat_forward(call, remat):
    """A checkpoint's linear part applied forwards (linearize's linear function): the JVP of
    its body at the residuals, which for a checkpoint are its arguments followed by the
    values its body closes over (constants, which have no tangent), as JAX's checkpoint
    differentiates in either direction. None for a custom_vjp (no forward rule: JAX refuses
    it too)."""
    if not remat:
        return None

    def forward(residuals, ts):
        from .jvp import jvp_eval
        ts = [ops.instantiate(t, ops.aval(x)) for t, x in zip(ts, residuals)]
        ts += [None] * (len(residuals) - len(ts))      # the closed-over values: constant
        return list(jvp_eval(call, [], residuals, ts)[1])
    return forward


def _dropping_extra_residuals(backward, n_own):
    """`backward` reading only the first `n_own` residuals (a checkpoint's closed-over values
    ride along after them for its forward rule, not for its backward pass)."""
    return lambda residuals, cts: backward(list(residuals)[:n_own], cts)


def custom_vjp_call_jvp(primals, tangents, *, call, fwd, bwd, n_args, remat=False):
    # checkpoint in forward mode, or closing over a value being differentiated (which its
    # backward pass could not recompute from the arguments alone): its body's JVP, as
    # written; the values are the same, only what is stored differs
    if remat and (not linearizing() or any(t is not None for t in tangents[n_args:])):
        from .jvp import jvp_eval
        return jvp_eval(call, [], primals, tangents)
    if not differentiating():
        raise TypeError("can't apply forward-mode autodiff (jvp) to a custom_vjp function; "
                        "use reverse mode (grad, vjp, jacrev) or define a custom_jvp rule")
    args = primals[:n_args]
    outs, residuals, backward = fwd(args)      # backward: bwd on flat lists
    if remat and len(primals) > n_args:        # residuals are the arguments; add the closure
        backward = _dropping_extra_residuals(backward, len(residuals))
        residuals = list(residuals) + list(primals[n_args:])
    ts = [ops.instantiate(t, ops.aval(x)) for t, x in zip(tangents[:n_args], args)]
    out_avals = tuple(ops.aval(o) for o in outs)
    touts = bind(P.custom_vjp_lin, *residuals, *ts, bwd=backward, out_avals=out_avals,
                 n_residuals=len(residuals), forward=_remat_forward(call, remat))
    return outs, list(touts)


jvp_rules.update({
    "debug_print": debug_print_jvp, "stop_gradient": stop_gradient_jvp,
    "custom_jvp_call": custom_jvp_call_jvp, "custom_vjp_call": custom_vjp_call_jvp,
})
for _name in ("pmax", "pmin"):           # as in JAX 0.10, which has no rule for them either
    not_differentiable(_name, "lax.pmax/lax.pmin have no derivative rule (JAX raises too)")
not_differentiable("custom_vjp_lin", "it is the linear part of a custom_vjp function, "
                   "which only reverse mode uses")


# -- linear algebra: rules of their own module ------------------------------------------------

jvp_rules.update({name: _single(rule) for name, rule in LINALG_JVP_RULES.items()})
jvp_rules.update({"fft": _single(fft_jvp), "conv": _single(conv_jvp)})


# -- control flow: rules of their own modules -------------------------------------------------

jvp_rules.update({"cond": cond_jvp, "scan": scan_jvp, "for_loop": for_loop_jvp,
                  "while": while_jvp})
