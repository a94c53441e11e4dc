"""Ops that put other ops in the contexts issue 20's wrong answers needed and the plain
generator rarely built:

- `const_chain`: a constant producer (ones, zeros, full, *_like) and an op applied to it in
  one node, then a reduction or a view. The op's C operand is then the literal itself, also
  in the unfused variant (an unfused program makes every value an output, so a constant only
  ever met a kernel as a load: `~1u` on uint64 hid there).
- `cond_math`, `scan_math`, `fori_math`, `while_math`: one transcendental function (with
  NumPy's promotions: log2 of int16 is float32) inside a region, reversed scans included.
  The body computes the op once, so the op's own tolerance (a few ulp of its result dtype)
  is the right one; a wrong loop dtype or a float64 value rounded through float32 is far
  outside it.

Reductions with a `dtype=` argument are drawn by ops.py's reductions themselves.
"""
from __future__ import annotations

import numpy as np

import transpile.lax as lax
import transpile.numpy as tnp

from .values import DTYPES

# -- constant chains ------------------------------------------------------------------------

CONST_PRODUCERS = ["ones", "zeros", "full", "ones_like", "zeros_like", "full_like"]
CONST_UNARY = ["invert", "negative", "abs", "sign", "square", "positive", "logical_not"]
CONST_BINARY = ["add", "subtract", "multiply", "bitwise_and", "bitwise_or", "bitwise_xor",
                "left_shift", "right_shift", "maximum", "minimum", "floor_divide", "remainder",
                "equal", "less"]
WIDE_DTYPES = [np.dtype(np.uint64), np.dtype(np.int64)]
CONST_AFTER = ["none", "max", "min", "sum", "slice", "expand_dims", "reverse"]
CONST_SHAPES = [(3,), (2, 3), (4, 1, 2), (5,), (1, 7)]


def small_fill(pool, dtype: np.dtype):
    """A fill value of dtype's kind that fits it, small (a literal C writes in 32 bits)."""
    if dtype == np.bool_:
        return pool.choice([True, False])
    if dtype.kind == "f":
        return pool.choice([0.5, -1.5, 1.0, 2.0, -0.0, 3.25])
    info = np.iinfo(dtype)
    return pool.choice([v for v in (0, 1, 2, 3, 5, 7, 100, -1, -2, -7)
                        if info.min <= v <= info.max])


def draw_const_chain(rng, pool, is_array, second_operand):
    how = pool.choice(CONST_PRODUCERS)
    # 64-bit dtypes half the time: their literals are the ones C would type in 32 bits.
    dtype = pool.choice(WIDE_DTYPES if pool.chance(0.5) else DTYPES)
    operands = []
    if how.endswith("_like"):
        operands.append(pool.pick(is_array))
        shape = pool.meta(operands[0]).shape
        if pool.chance(0.3):
            dtype = pool.meta(operands[0]).dtype
    else:
        shape = pool.choice(CONST_SHAPES)
    # Unary ops half the time (fewer than the binary ones): invert is the op C computes
    # in the literal's own width.
    then = pool.choice(CONST_UNARY if pool.chance(0.5) else CONST_BINARY)
    params = {"how": how, "dtype": dtype.name, "shape": shape, "fill": small_fill(pool, dtype),
              "then": then, "after": pool.choice(CONST_AFTER), "swap": pool.chance(0.4)}
    if then in CONST_BINARY:
        other = second_operand(pool, operands[0]) if operands and pool.chance(0.5) else \
            pool.maybe_pick(lambda m: _broadcasts(m.shape, shape))
        operands.append(other if other is not None else second_operand(pool, pool.pick()))
    return operands, params


def _broadcasts(a, b):
    try:
        np.broadcast_shapes(a, b)
        return True
    except ValueError:
        return False


def const_chain(mod, p, *operands):
    """The chain, written once for transpile (mod=tnp) and NumPy (mod=np)."""
    how, dt = p["how"], p["dtype"]
    if how.endswith("_like"):
        like, operands = operands[0], operands[1:]
        base = mod.full_like(like, p["fill"], dtype=dt) if how == "full_like" else \
            getattr(mod, how)(like, dtype=dt)
    else:
        base = mod.full(p["shape"], p["fill"], dt) if how == "full" else \
            getattr(mod, how)(p["shape"], dt)
    fn = getattr(mod, p["then"])
    if p["then"] in CONST_BINARY:
        args = (operands[0], base) if p["swap"] else (base, operands[0])
        v = fn(*args)
    else:
        v = fn(base)
    return _after(mod, p["after"], v)


def _after(mod, after, v):
    """A consumer of the chain. Float sums would round in another order, and a float
    max/min of mixed zeros picks either (README): those take a view instead."""
    v_dtype = np.asarray(v).dtype if mod is np else v.dtype
    if np.ndim(v) == 0 or after == "none" or (after in ("max", "min", "sum") and
                                               (v_dtype.kind == "f" or np.size(v) == 0)):
        return v
    if after in ("max", "min"):
        return getattr(v, after)()
    if after == "sum":
        return mod.sum(v, axis=0)
    if after == "slice":
        return v[1:]
    if after == "reverse":
        return v[::-1]
    return mod.expand_dims(v, 0)


# -- one transcendental function inside a region ----------------------------------------------

MATH_UNARY = ["exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sin", "cos", "tan",
              "arcsin", "arccos", "arctan", "sinh", "cosh", "tanh"]
MATH_BINARY = ["power", "arctan2"]
MATH_LITERALS = [0.5, 1.7, 2.0, -1.5, 3.0, 0.25]
SUPPORTED_RESULTS = ("float32", "float64")


def math_fn(mod, p):
    """v -> the region's transcendental op on v (and a literal, on either side)."""
    fn = getattr(mod, p["math"])
    if p["math"] in MATH_UNARY:
        return fn
    lit = p["lit"]
    return (lambda v: fn(lit, v)) if p["swap"] else (lambda v: fn(v, lit))


def draw_math_params(pool, dtype):
    """Parameters of the op, with the dtype NumPy computes it in (None: not compiled, e.g.
    float16 for 8-bit integers)."""
    p = {"math": pool.choice(MATH_UNARY + MATH_BINARY), "lit": pool.choice(MATH_LITERALS),
         "swap": pool.chance(0.3)}
    with np.errstate(all="ignore"):
        out = np.asarray(math_fn(np, p)(np.ones((1,), dtype))).dtype
    if out.name not in SUPPORTED_RESULTS:
        return None
    p["dtype"] = out.name
    return p


def _plain_array(m):
    return not m.is_pyscalar and m.dtype.kind in "iuf" and m.value.size <= 5000


def draw_cond_math(rng, pool):
    pred = pool.pick(lambda m: m.shape == ())
    x = pool.pick(_plain_array)
    p = draw_math_params(pool, pool.meta(x).dtype)
    if p is None:
        return None
    p["other"] = pool.choice(["astype", "negative"])
    p["math_first"] = pool.chance(0.5)
    return [pred, x], p


def _branches(mod, p, dt=None):
    math = math_fn(mod, p)
    dt = p["dtype"] if dt is None else dt
    other = (lambda v: v.astype(dt)) if p["other"] == "astype" else \
        (lambda v: mod.negative(v.astype(dt)))
    return (math, other) if p["math_first"] else (other, math)


def _tp_math_dtype(p, x):
    """The dtype transpile's math gives `x`: p["dtype"] (NumPy's) under NumPy's rules, JAX's
    under JAX's (log10 of int32 is float32 there, with x64 too), so carries and branches
    agree in either mode."""
    return tnp.result_type(math_fn(tnp, p)(x))


def tp_cond_math(p, pred, x):
    return lax.cond(pred, *_branches(tnp, p, _tp_math_dtype(p, x)), x)


def ref_cond_math(p, pred, x):
    true_branch, false_branch = _branches(np, p)
    return np.asarray((true_branch if bool(pred) else false_branch)(np.asarray(x)))


def draw_scan_math(rng, pool):
    xs = pool.pick(lambda m: _plain_array(m) and m.value.ndim >= 1)
    p = draw_math_params(pool, pool.meta(xs).dtype)
    if p is None:
        return None
    p["reverse"] = pool.chance(0.5)
    return [xs], p


def tp_scan_math(p, xs):
    math = math_fn(tnp, p)

    def step(k, x):
        return k + 1, math(x)
    return lax.scan(step, 0, xs, reverse=p["reverse"])[1]


def ref_elementwise_math(p, xs):
    """The op on every element: what the region computes, step by step."""
    return np.asarray(math_fn(np, p)(np.asarray(xs)))


def draw_loop_math(rng, pool):
    a = pool.pick(_plain_array)
    p = draw_math_params(pool, pool.meta(a).dtype)
    if p is None:
        return None
    p["steps"] = pool.choice([1, 2, 3])
    return [a], p


def tp_fori_math(p, a):
    math = math_fn(tnp, p)
    init = tnp.zeros(np.shape(a), _tp_math_dtype(p, a))
    return lax.fori_loop(0, p["steps"], lambda i, c: math(a), init)


def tp_while_math(p, a):
    math = math_fn(tnp, p)
    init = (0, tnp.zeros(np.shape(a), _tp_math_dtype(p, a)))
    return lax.while_loop(lambda s: s[0] < p["steps"], lambda s: (s[0] + 1, math(a)), init)[1]
