"""The operations the fuzzer draws: one entry per op, with how to call it in transpile
(`tp`), how to compute it in plain NumPy (`ref`), how exact the answer must be (`tol`), and
how to draw its operands and parameters from the values a program has so far (`draw`).

An operand is either a value of the program (`Ref(i)`) or a Python literal (`Lit(x)`). The
reference never calls transpile: it is NumPy 2 itself, so NEP 50's weak Python scalars, the
result dtypes and the edge cases are NumPy's own.
"""
from __future__ import annotations

import dataclasses
import operator
from typing import Callable

import numpy as np

import transpile.lax as lax
import transpile.numpy as tnp

from . import ops_contexts as ctx
from .values import DTYPES, is_pyscalar, random_literal

TRANSCENDENTAL = "ulp"     # libm / SIMD approximations: a few ulp
EXACT = "exact"            # bit-exact, NaN == NaN, the sign of zero counts
ACCUMULATE = "accumulate"  # float sums and products: the order of additions may differ


@dataclasses.dataclass(frozen=True)
class Ref:
    index: int


@dataclasses.dataclass(frozen=True)
class Lit:
    value: object


@dataclasses.dataclass(frozen=True)
class Op:
    name: str
    tp: Callable            # (params, *operands) -> value, under transpile
    ref: Callable           # (params, *operands) -> value, in NumPy
    draw: Callable          # (rng, pool) -> (operands, params) or None
    tol: str = EXACT
    # ACCUMULATE: (params, *operands) -> the terms' magnitude, or (that, the accumulator's)
    scale: Callable | None = None
    family: str = ""


# -- what the generator knows about each value ---------------------------------------------

@dataclasses.dataclass
class Meta:
    value: object           # the NumPy reference value
    runtime_scalar: bool    # a Python scalar that depends on a jit argument
    layout: str = ""        # for inputs: contiguous / strided / reversed / transposed

    @property
    def is_pyscalar(self):
        return is_pyscalar(self.value)

    @property
    def shape(self):
        return np.shape(self.value)

    @property
    def dtype(self):
        return np.asarray(self.value).dtype


class NoOperand(Exception):
    """The program has no value an op could take."""


class Pool:
    """The values a program has so far, for ops to draw their operands from."""

    def __init__(self, rng, metas: list[Meta]):
        self.rng, self.metas = rng, metas

    def pick(self, pred=lambda m: True):
        """A value satisfying pred; NoOperand (the op is skipped) when there is none."""
        found = self.maybe_pick(pred)
        if found is None:
            raise NoOperand()
        return found

    def maybe_pick(self, pred=lambda m: True):
        ok = [i for i, m in enumerate(self.metas) if pred(m)]
        if not ok:
            return None
        if self.rng.random() < 0.4:       # the newest value: chains, so fusion has work
            return Ref(ok[-1])
        return Ref(ok[int(self.rng.integers(0, len(ok)))])

    def meta(self, ref):
        return self.metas[ref.index] if isinstance(ref, Ref) else Meta(ref.value, False)

    def chance(self, p):
        return self.rng.random() < p

    def choice(self, seq):
        return seq[int(self.rng.integers(0, len(seq)))]


def _array(m):
    return not m.is_pyscalar


def _nd(m):
    return _array(m) and m.value.ndim >= 1


def _kind(m):
    return "bool" if m.dtype == np.bool_ else "int" if m.dtype.kind in "iu" else "float"


def _literal_for(pool, partner):
    """A literal operand, often of the partner's kind and at its dtype's edges."""
    kinds = ["bool", "int", "float"]
    kind = _kind(partner) if pool.chance(0.6) else pool.choice(kinds)
    return Lit(random_literal(pool.rng, kind))


def _broadcasts(*shapes):
    try:
        np.broadcast_shapes(*shapes)
        return True
    except ValueError:
        return False


def _second_operand(pool, first, p_literal=0.35):
    m = pool.meta(first)
    if pool.chance(p_literal):
        return _literal_for(pool, m)
    return pool.pick(lambda o: _broadcasts(o.shape, m.shape))


# -- elementwise ----------------------------------------------------------------------------

UNARY = {   # name: (transpile function, NumPy function, tolerance)
    "negative": (tnp.negative, np.negative, EXACT), "abs": (tnp.abs, np.abs, EXACT),
    "sign": (tnp.sign, np.sign, EXACT), "exp": (tnp.exp, np.exp, TRANSCENDENTAL),
    "exp2": (tnp.exp2, np.exp2, TRANSCENDENTAL), "expm1": (tnp.expm1, np.expm1, TRANSCENDENTAL),
    "log": (tnp.log, np.log, TRANSCENDENTAL), "log2": (tnp.log2, np.log2, TRANSCENDENTAL),
    "log10": (tnp.log10, np.log10, TRANSCENDENTAL),
    "log1p": (tnp.log1p, np.log1p, TRANSCENDENTAL), "sqrt": (tnp.sqrt, np.sqrt, EXACT),
    "sin": (tnp.sin, np.sin, TRANSCENDENTAL), "cos": (tnp.cos, np.cos, TRANSCENDENTAL),
    "tan": (tnp.tan, np.tan, TRANSCENDENTAL), "arcsin": (tnp.arcsin, np.arcsin, TRANSCENDENTAL),
    "arccos": (tnp.arccos, np.arccos, TRANSCENDENTAL),
    "arctan": (tnp.arctan, np.arctan, TRANSCENDENTAL),
    "sinh": (tnp.sinh, np.sinh, TRANSCENDENTAL), "cosh": (tnp.cosh, np.cosh, TRANSCENDENTAL),
    "tanh": (tnp.tanh, np.tanh, TRANSCENDENTAL), "floor": (tnp.floor, np.floor, EXACT),
    "ceil": (tnp.ceil, np.ceil, EXACT), "rint": (tnp.rint, np.rint, EXACT),
    "trunc": (tnp.trunc, np.trunc, EXACT), "isnan": (tnp.isnan, np.isnan, EXACT),
    "isinf": (tnp.isinf, np.isinf, EXACT), "isfinite": (tnp.isfinite, np.isfinite, EXACT),
    "invert": (tnp.invert, np.invert, EXACT),
    "reciprocal": (tnp.reciprocal, np.reciprocal, EXACT),
    "square": (tnp.square, np.square, EXACT), "positive": (tnp.positive, np.positive, EXACT),
    "logical_not": (tnp.logical_not, np.logical_not, EXACT),
    "bitwise_count": (tnp.bitwise_count, np.bitwise_count, EXACT),
    "signbit": (tnp.signbit, np.signbit, EXACT), "fabs": (tnp.fabs, np.fabs, EXACT),
    "cbrt": (tnp.cbrt, np.cbrt, TRANSCENDENTAL),
    "deg2rad": (tnp.deg2rad, np.deg2rad, TRANSCENDENTAL),
    "rad2deg": (tnp.rad2deg, np.rad2deg, TRANSCENDENTAL),
    "arcsinh": (tnp.arcsinh, np.arcsinh, TRANSCENDENTAL),
    "arccosh": (tnp.arccosh, np.arccosh, TRANSCENDENTAL),
    "arctanh": (tnp.arctanh, np.arctanh, TRANSCENDENTAL),
}

BINARY = {  # name: (transpile function, NumPy function, Python operator or None, tolerance)
    "add": (tnp.add, np.add, operator.add, EXACT),
    "subtract": (tnp.subtract, np.subtract, operator.sub, EXACT),
    "multiply": (tnp.multiply, np.multiply, operator.mul, EXACT),
    "divide": (tnp.divide, np.divide, operator.truediv, EXACT),
    "floor_divide": (tnp.floor_divide, np.floor_divide, operator.floordiv, EXACT),
    "remainder": (tnp.remainder, np.remainder, operator.mod, EXACT),
    "power": (tnp.power, np.power, operator.pow, TRANSCENDENTAL),
    "maximum": (tnp.maximum, np.maximum, None, EXACT),
    "minimum": (tnp.minimum, np.minimum, None, EXACT),
    "arctan2": (tnp.arctan2, np.arctan2, None, TRANSCENDENTAL),
    "equal": (tnp.equal, np.equal, operator.eq, EXACT),
    "not_equal": (tnp.not_equal, np.not_equal, operator.ne, EXACT),
    "less": (tnp.less, np.less, operator.lt, EXACT),
    "less_equal": (tnp.less_equal, np.less_equal, operator.le, EXACT),
    "greater": (tnp.greater, np.greater, operator.gt, EXACT),
    "greater_equal": (tnp.greater_equal, np.greater_equal, operator.ge, EXACT),
    "bitwise_and": (tnp.bitwise_and, np.bitwise_and, operator.and_, EXACT),
    "bitwise_or": (tnp.bitwise_or, np.bitwise_or, operator.or_, EXACT),
    "bitwise_xor": (tnp.bitwise_xor, np.bitwise_xor, operator.xor, EXACT),
    "left_shift": (tnp.left_shift, np.left_shift, operator.lshift, EXACT),
    "right_shift": (tnp.right_shift, np.right_shift, operator.rshift, EXACT),
    "logical_and": (tnp.logical_and, np.logical_and, None, EXACT),
    "logical_or": (tnp.logical_or, np.logical_or, None, EXACT),
    "logical_xor": (tnp.logical_xor, np.logical_xor, None, EXACT),
    "fmod": (tnp.fmod, np.fmod, None, EXACT),
    "hypot": (tnp.hypot, np.hypot, None, TRANSCENDENTAL),
    "copysign": (tnp.copysign, np.copysign, None, EXACT),
    "logaddexp": (tnp.logaddexp, np.logaddexp, None, TRANSCENDENTAL),
    "fmax": (tnp.fmax, np.fmax, None, EXACT), "fmin": (tnp.fmin, np.fmin, None, EXACT),
    "heaviside": (tnp.heaviside, np.heaviside, None, EXACT),
    "gcd": (tnp.gcd, np.gcd, None, EXACT), "lcm": (tnp.lcm, np.lcm, None, EXACT),
}


def _unary_op(name):
    tp_fn, np_fn, tol = UNARY[name]

    def draw(rng, pool):
        return [pool.pick()], {}
    return Op(name, lambda p, x: tp_fn(x), lambda p, x: np_fn(x), draw, tol, family="unary")


def _binary_op(name):
    tp_fn, np_fn, py_op, tol = BINARY[name]

    def draw(rng, pool):
        first = pool.pick()
        second = _second_operand(pool, first)
        if second is None:
            return None
        args = [first, second] if pool.chance(0.7) else [second, first]
        metas = [pool.meta(a) for a in args]
        # The operator form (x + y) only where one side is an array: on two Python scalars
        # Python's own arithmetic runs, with unbounded ints, in NumPy and transpile alike.
        use_operator = py_op is not None and any(not m.is_pyscalar for m in metas) and \
            pool.chance(0.5)
        return args, {"operator": use_operator}

    def tp(p, x, y):
        return py_op(x, y) if p["operator"] else tp_fn(x, y)

    def ref(p, x, y):
        return py_op(x, y) if p["operator"] else np_fn(x, y)
    return Op(name, tp, ref, draw, tol, family="binary")


def _draw_where(rng, pool):
    cond = pool.pick(lambda m: m.dtype == np.bool_) if pool.chance(0.7) else pool.pick()
    x = _second_operand(pool, cond, 0.4)
    y = _second_operand(pool, cond, 0.5) if x is not None else None
    if y is None or not _broadcasts(*(pool.meta(a).shape for a in (cond, x, y))):
        return None
    return [cond, x, y], {}


def _draw_clip(rng, pool):
    a = pool.pick()
    bounds = [_second_operand(pool, a, 0.6) if pool.chance(0.8) else Lit(None) for _ in "lh"]
    if any(b is None for b in bounds) or all(isinstance(b, Lit) and b.value is None
                                             for b in bounds):
        return None
    if not _broadcasts(*(pool.meta(v).shape for v in [a] + bounds if pool.meta(v).value
                         is not None)):
        return None
    return [a] + bounds, {}


def _draw_round(rng, pool):
    return [pool.pick()], {"decimals": int(rng.integers(-3, 4)), "method": pool.chance(0.3)}


def _ref_round(p, x):
    """np.round, except where an integer operand's rounded value leaves its dtype
    (round(uint32 max, -2) is 4294967300): NumPy ends that in an out-of-range float->int
    cast whose answer differs between its own loops (seed 25676: 4 through a transposed
    view, 0 contiguous; README, semantics), so the case is not compared (ValueError: the
    generator draws another op)."""
    d = p["decimals"]
    a = np.asarray(x)
    if d < 0 and not is_pyscalar(x) and a.dtype.kind in "iu" and a.size:
        scale = 10.0 ** -d
        rounded = np.rint(a.astype(np.float64) / scale) * scale
        info = np.iinfo(a.dtype)
        if np.any((rounded < info.min) | (rounded > info.max)):
            raise ValueError("round: an integer result outside its dtype (not compared)")
    return np.round(x, d)


def _tp_round(p, x):
    if p["method"] and not is_pyscalar(x):
        return x.round(p["decimals"])
    return tnp.round(x, p["decimals"])


def _draw_astype(rng, pool):
    return [pool.pick()], {"dtype": pool.choice(DTYPES).name}


def _ref_astype(p, x):
    return np.asarray(x).astype(p["dtype"])


def _draw_cast_math(rng, pool):
    """A float -> int cast feeding float arithmetic in one expression (fused even in the
    unfused variant): the cast's value, -0.0 -> 0 included, must survive the compiler."""
    x = pool.pick(lambda m: _array(m) and m.dtype.kind == "f")
    return [x], {"dtype": pool.choice(["int32", "int64", "int16", "uint8"]),
                 "math": pool.choice(["divide", "arctan2", "multiply", "copysign-free"]),
                 "lit": pool.choice([1.0, -1.0, 0.5])}


def _cast_math(mod, p, x, astype):
    y = astype(x, p["dtype"])
    if p["math"] == "divide":
        return mod.divide(p["lit"], y)
    if p["math"] == "arctan2":
        return mod.arctan2(-0.0, y)
    if p["math"] == "multiply":
        return mod.multiply(y, -p["lit"]) * 1.0
    return mod.divide(1.0, mod.add(y, 0.0))


def int_limit(info) -> float:
    """One past an integer dtype's maximum: a power of two that every float dtype holds
    exactly. (`trunc(x) <= info.max` compares with float(2**63 - 1), which rounds up to
    2**63, and lets x = 2**63, beyond int64, pass as in range: seed 320081.)"""
    return 2.0 ** (info.bits - (info.kind == "i"))


# -- creation -------------------------------------------------------------------------------

def _draw_full(rng, pool):
    shape = pool.choice([(), (), (3,), (2, 3)])
    dtype = pool.choice(DTYPES).name
    fill = _fill_for(rng, pool, np.dtype(dtype))
    return [], {"shape": shape, "dtype": dtype, "fill": fill,
                "how": pool.choice(["full", "zeros", "ones"])}


def _fill_for(rng, pool, dtype):
    """A fill value NumPy defines for dtype: of its kind, or a finite float in its range (a
    float->int conversion of inf or NaN is undefined)."""
    kind = _kind(Meta(np.zeros((), dtype), False))
    if pool.chance(0.8) or kind == "float":
        return random_literal(rng, kind)
    value = float(rng.choice([0.5, -1.5, 2.5, 100.25]))
    return value if dtype.kind != "u" or value >= 0 else -value


def _tp_full(p):
    if p["how"] == "full":
        return tnp.full(p["shape"], p["fill"], p["dtype"])
    return getattr(tnp, p["how"])(p["shape"], p["dtype"])


def _ref_full(p):
    if p["how"] == "full":
        return np.full(p["shape"], p["fill"], p["dtype"])
    return getattr(np, p["how"])(p["shape"], p["dtype"])


def _draw_like(rng, pool):
    x = pool.pick()
    dtype = pool.choice(DTYPES + [None])
    fill = _fill_for(rng, pool, pool.meta(x).dtype if dtype is None else dtype)
    return [x], {"dtype": dtype, "how": pool.choice(["zeros_like", "ones_like", "full_like"]),
                 "fill": fill}


def _like(mod, p, x):
    dt = None if p["dtype"] is None else p["dtype"]
    if p["how"] == "full_like":
        return mod.full_like(x, p["fill"], dtype=dt)
    return getattr(mod, p["how"])(x, dtype=dt)


def _draw_arange(rng, pool):
    n = pool.choice([3, 5, 300])
    return [], {"n": n, "how": pool.choice(["arange", "linspace"]),
                "dtype": pool.choice([None, "int32", "float32", "uint8"])}


def _creation(mod, p):
    if p["how"] == "arange":
        return mod.arange(p["n"], dtype=p["dtype"])
    return mod.linspace(0, 1, p["n"], dtype=None if p["dtype"] in ("int32", "uint8")
                        else p["dtype"])


# -- reductions -----------------------------------------------------------------------------

REDUCTIONS = ["sum", "prod", "mean", "max", "min", "all", "any", "argmax", "argmin"]


def _draw_reduce(name):
    def draw(rng, pool):
        x = pool.pick(_array)
        ndim = pool.meta(x).value.ndim
        choices = [None, None] + list(range(-ndim, ndim))
        if ndim >= 2 and name not in ("argmax", "argmin"):
            choices.append(tuple(sorted(rng.choice(ndim, 2, replace=False).tolist())))
        axis = pool.choice(choices)
        if name in ("max", "min", "argmax", "argmin") and pool.meta(x).value.size == 0:
            return None
        return [x], {"axis": axis, "keepdims": pool.chance(0.4),
                     "method": pool.chance(0.3), "dtype": _reduce_dtype(pool, name, x)}
    return draw


# The `dtype=` a sum, product or mean is asked to compute in (issue 20: a boolean sum with
# dtype=bool). Most reductions take none.
_REDUCE_DTYPES = {"sum": [d.name for d in DTYPES], "prod": [d.name for d in DTYPES],
                  "mean": ["float32", "float64"]}


def _reduce_dtype(pool, name, x):
    if name not in _REDUCE_DTYPES or pool.meta(x).dtype.kind == "c" or not pool.chance(0.3):
        return None
    if pool.chance(0.3):
        return "bool" if name != "mean" else "float32"
    return pool.choice(_REDUCE_DTYPES[name])


def _refuse_undefined_cast(p, x):
    """A float reduced with an integer dtype= casts every element first: NaN, inf or an
    out-of-range value has no defined result (README, semantics; seed 304475: a uint32 sum
    of NaN, 0 in NumPy and 2147483648 compiled), so such a case is not compared."""
    dt = p.get("dtype")
    a = np.asarray(x)
    if dt is None or np.dtype(dt).kind not in "iu" or a.dtype.kind != "f":
        return
    info = np.iinfo(dt)
    with np.errstate(invalid="ignore"):
        if not np.all(np.isfinite(a) & (np.trunc(a) >= info.min) & (np.trunc(a) <= info.max)):
            raise ValueError("a float->int cast without a defined value (not compared)")


def _reduce_kwargs(p):
    kwargs = {"axis": p["axis"], "keepdims": p["keepdims"]}
    if p.get("dtype") is not None:
        kwargs["dtype"] = p["dtype"]
    return kwargs


def _magnitudes(x):
    """|x| in float64 (the modulus of complex values): bounds the terms of a sum."""
    x = np.asarray(x)
    return np.abs(x.astype(np.complex128 if x.dtype.kind == "c" else np.float64))


def _reduce_op(name):
    tol = ACCUMULATE if name in ("sum", "prod", "mean") else EXACT

    def tp(p, x):
        if p["method"]:
            return getattr(x, name)(**_reduce_kwargs(p))
        return getattr(tnp, name)(x, **_reduce_kwargs(p))

    def ref(p, x):
        _refuse_undefined_cast(p, x)
        return getattr(np, name)(x, **_reduce_kwargs(p))

    def scale(p, x):
        mag = _magnitudes(x)
        if name == "prod":
            return np.prod(mag, axis=p["axis"], keepdims=p["keepdims"])
        if name == "mean":   # the sum before the division is what overflows
            return (np.mean(mag, axis=p["axis"], keepdims=p["keepdims"]),
                    np.sum(mag, axis=p["axis"], keepdims=p["keepdims"]))
        return getattr(np, name)(mag, axis=p["axis"], keepdims=p["keepdims"])
    return Op(name, tp, ref, _draw_reduce(name), tol, scale, family="reduce")


# -- shape ----------------------------------------------------------------------------------

def _draw_reshape(rng, pool):
    x = pool.pick(_array)
    size = pool.meta(x).value.size
    dims, left = [], size
    for _ in range(int(rng.integers(0, 3))):
        divisors = [d for d in range(1, left + 1) if left % d == 0] or [1, 2]   # empty: any
        d = pool.choice(divisors)
        dims.append(d)
        left //= d
    dims.append(left)
    if pool.chance(0.3):
        dims[int(rng.integers(0, len(dims)))] = -1
    return [x], {"shape": tuple(dims)}


def _draw_transpose(rng, pool):
    x = pool.pick(_nd)
    if x is None:
        return None
    ndim = pool.meta(x).value.ndim
    return [x], {"axes": tuple(rng.permutation(ndim).tolist()), "T": pool.chance(0.3)}


def _tp_transpose(p, x):
    return x.T if p["T"] else tnp.transpose(x, p["axes"])


def _ref_transpose(p, x):
    return x.T if p["T"] else np.transpose(x, p["axes"])


def _draw_slice(rng, pool):
    x = pool.pick(_nd)
    if x is None:
        return None
    key = []
    for n in pool.meta(x).shape:
        r = rng.random()
        if r < 0.2:
            key.append(int(rng.integers(-n, n)) if n else slice(None))
        elif r < 0.4:
            key.append(slice(None))
        else:
            step = pool.choice([1, 2, 3, -1, -2])
            start = pool.choice([None, 0, 1, -1, -2])
            stop = pool.choice([None, None, n - 1, -1, 1])
            key.append(slice(start, stop, step))
    return [x], {"key": tuple(key)}


def _draw_expand(rng, pool):
    x = pool.pick(_array)
    ndim = pool.meta(x).value.ndim
    return [x], {"axis": int(rng.integers(-ndim - 1, ndim + 1))}


def _draw_squeeze(rng, pool):
    x = pool.pick(lambda m: _nd(m) and 1 in m.shape)
    if x is None:
        return None
    axes = [i for i, n in enumerate(pool.meta(x).shape) if n == 1]
    return [x], {"axis": pool.choice(axes + [None])}


def _draw_flip(rng, pool):
    x = pool.pick(_nd)
    if x is None:
        return None
    ndim = pool.meta(x).value.ndim
    return [x], {"axis": pool.choice([None] + list(range(ndim)))}


def _draw_broadcast(rng, pool):
    x = pool.pick()
    shape = pool.meta(x).shape
    new = tuple(pool.choice([n, 2]) if n == 1 else n for n in shape)
    if pool.chance(0.5):
        new = (2,) + new
    return [x], {"shape": new}


def _draw_concat(rng, pool):
    x = pool.pick(_nd)
    if x is None:
        return None
    shape = pool.meta(x).shape
    axis = int(rng.integers(0, len(shape)))
    others = [x] + [pool.pick(lambda m: _nd(m) and len(m.shape) == len(shape) and all(
        a == b for i, (a, b) in enumerate(zip(m.shape, shape)) if i != axis))
        for _ in range(int(rng.integers(1, 3)))]
    rng.shuffle(others)
    return others, {"axis": axis - len(shape) if pool.chance(0.3) else axis}


def _draw_stack(rng, pool):
    x = pool.pick(_array)
    shape = pool.meta(x).shape
    others = [x] + [pool.pick(lambda m: _array(m) and m.shape == shape)
                    for _ in range(int(rng.integers(1, 3)))]
    return others, {"axis": int(rng.integers(-len(shape) - 1, len(shape) + 1))}


# -- linear algebra -------------------------------------------------------------------------

def _draw_matmul(rng, pool):
    a = pool.pick(lambda m: _nd(m) and m.value.ndim <= 3 and m.value.size <= 5000)
    if a is None:
        return None
    k = pool.meta(a).shape[-1]

    def fits(m):
        if not _nd(m) or m.value.ndim > 3 or m.value.size > 5000:
            return False
        rows = m.shape[0] if m.value.ndim == 1 else m.shape[-2]
        if rows != k:
            return False
        return m.value.ndim < 3 or pool.meta(a).value.ndim < 3 or \
            _broadcasts(m.shape[:-2], pool.meta(a).shape[:-2])
    b = pool.maybe_pick(fits)
    how = pool.choice(["matmul", "dot", "operator"])
    if b is None:
        return [a], {"how": how, "self_T": True}
    return [a, b], {"how": how, "self_T": False}


def _matmul(mod, p, a, b=None):
    if p["self_T"]:
        b = mod.swapaxes(a, -1, -2) if mod is np else tnp.moveaxis(a, -1, -2)
    if p["how"] == "dot" and np.ndim(a) <= 2 and np.ndim(b) <= 2:
        return mod.dot(a, b)
    return a @ b if p["how"] == "operator" else mod.matmul(a, b)


def _matmul_scale(p, a, b=None):
    a = _magnitudes(a)
    b = None if b is None else _magnitudes(b)
    return _matmul(np, p, a, b)


# NumPy's non-ufunc products convert operands with np.asarray: a Python scalar is a strong
# int64/float64 there (`np.dot(uint8_array, 3)` is int64), unlike in `uint8_array * 3`.
SCALAR_PRODUCTS = ["dot", "inner", "outer", "kron", "tensordot", "einsum", "multiply.outer"]


def _draw_scalar_product(rng, pool):
    a = pool.pick(lambda m: _array(m) and m.value.ndim <= 2 and m.value.size <= 5000)
    s = pool.maybe_pick(lambda m: m.shape == ()) if pool.chance(0.5) else None
    if s is None:
        s = _literal_for(pool, pool.meta(a))
    args = [a, s] if pool.chance(0.6) else [s, a]
    return args, {"fn": pool.choice(SCALAR_PRODUCTS)}


def _ref_scalar_product(p, x, y):
    """NumPy's non-ufunc products convert a Python int with np.asarray: one that fits neither
    int64 nor uint64 becomes an object array (the product an object array, or a Python float
    for a 0-d float operand). transpile has no object dtype and refuses it with an
    OverflowError by design (README, semantics): the reference refuses it too."""
    for v in (x, y):
        if type(v) is int and not -2**63 <= v < 2**64:
            raise OverflowError(f"Python integer {v} fits neither int64 nor uint64")
    return _scalar_product(np, p, x, y)


def _scalar_product(mod, p, x, y):
    fn = p["fn"]
    if fn == "tensordot":
        return mod.tensordot(x, y, 0)
    if fn == "einsum":
        lx, ly = "ab"[:np.ndim(x)], "cd"[:np.ndim(y)]
        return mod.einsum(f"{lx},{ly}->{lx}{ly}", x, y)
    if fn == "multiply.outer":
        return mod.multiply.outer(x, y)
    return getattr(mod, fn)(x, y)


# -- traced indexing and .at ----------------------------------------------------------------

def _int_scalar(m):
    return m.shape == () and m.dtype.kind in "iu" and (
        not m.is_pyscalar or type(m.value) is int)


def _draw_index_pattern(rng, pool, x_meta, traced):
    """A key with one or two traced positions, the rest static ints or full slices."""
    ndim = len(x_meta.shape)
    key, any_traced = [], False
    for dim in range(int(rng.integers(1, ndim + 1))):
        n = x_meta.shape[dim]
        r = rng.random()
        if r < 0.55 or (dim == ndim - 1 and not any_traced):
            key.append(traced)
            any_traced = True
        elif r < 0.8:
            key.append(slice(None))
        else:
            key.append(int(rng.integers(-n - 2, n + 2)))
    return tuple(key)


def _draw_getitem(rng, pool):
    x = pool.pick(_nd)
    i = pool.pick(_int_scalar)
    if x is None or i is None:
        return None
    key = _draw_index_pattern(rng, pool, pool.meta(x), "T")
    static_ints = [k for k in key if isinstance(k, int)]
    if any(not -n <= k < n for k, n in zip(key, pool.meta(x).shape) if isinstance(k, int)) \
            or not static_ints and False:
        return None
    return [x, i], {"key": key}


def _fill_key(key, i):
    return tuple(i if k == "T" else k for k in key)


def _ref_clamped(i, n):
    i = int(i)
    i = i + n if i < 0 else i
    return min(max(i, 0), n - 1)


def _ref_getitem(p, x, i):
    key = tuple(_ref_clamped(i, n) if k == "T" else k for k, n in zip(p["key"], np.shape(x)))
    return np.asarray(x)[key]


AT_METHODS = ["set", "add", "multiply", "min", "max"]


def _draw_at(rng, pool):
    x = pool.pick(_nd)
    if x is None:
        return None
    xm = pool.meta(x)
    i = pool.pick(_int_scalar) if pool.chance(0.8) else Lit(int(rng.integers(-7, 7)))
    if i is None:
        return None
    key = _draw_index_pattern(rng, pool, xm, "T")
    kind = _kind(xm)
    if pool.chance(0.1):          # any literal: NumPy refuses x[i] = 300 on uint8
        v = Lit(random_literal(rng, kind))
    elif pool.chance(0.6):
        v = Lit(_in_range_literal(rng, xm.dtype, kind))
    else:
        v = pool.pick(lambda m: _array(m) and m.dtype == xm.dtype and m.shape == ())
        if v is None:
            return None
    return [x, i, v], {"key": key, "method": pool.choice(AT_METHODS)}


def _in_range_literal(rng, dtype, kind):
    for _ in range(20):
        v = random_literal(rng, kind)
        if kind != "int" or np.iinfo(dtype).min <= v <= np.iinfo(dtype).max:
            return v
    return 1 if kind != "bool" else True


def _tp_at(p, x, i, v):
    ref = x.at[_fill_key(p["key"], i)]
    return getattr(ref, p["method"])(v)


_COMBINE = {"set": lambda old, new: np.broadcast_to(new, np.shape(old)), "add": np.add,
            "multiply": np.multiply, "min": np.minimum, "max": np.maximum}


def _ref_at(p, x, i, v):
    """JAX's rule: a negative index counts from the end; an update out of range is dropped.
    A Python int converts as NumPy's `x[i] = v` converts it (out of range, it raises)."""
    x = np.asarray(x)
    if type(v) is int:
        np.empty(1, x.dtype)[0] = v
    key = []
    for k, n in zip(p["key"], x.shape):
        if isinstance(k, slice):
            key.append(k)
            continue
        j = int(i) if k == "T" else k
        j = j + n if j < 0 else j
        if not 0 <= j < n:
            return x.copy()
        key.append(j)
    out = x.copy()
    key = tuple(key)
    out[key] = np.asarray(_COMBINE[p["method"]](out[key], v)).astype(x.dtype)
    return out


# -- lax control flow -----------------------------------------------------------------------

LOOP_OPS = ["add", "multiply", "maximum", "subtract"]


def _loop_carry(m):
    return _array(m) and m.dtype != np.bool_ and m.value.size <= 5000


def _small_int(m):
    return _int_scalar(m) and abs(int(m.value)) <= 8


def _draw_bound(rng, pool, default):
    if pool.chance(0.5):
        b = pool.maybe_pick(_small_int)
        if b is not None:
            return b
    return Lit(default)


def _draw_fori(rng, pool):
    c = pool.pick(_loop_carry)
    if c is None:
        return None
    cm = pool.meta(c)
    a = pool.maybe_pick(lambda m: _array(m) and m.dtype == cm.dtype and _broadcasts(
        m.shape, cm.shape) and np.broadcast_shapes(m.shape, cm.shape) == cm.shape) or c
    lo = _draw_bound(rng, pool, pool.choice([0, 1, 3]))
    hi = _draw_bound(rng, pool, pool.choice([0, 2, 5]))
    body = pool.choice(["elementwise", "at", "getitem"])
    if body == "getitem" and not (_nd(pool.meta(a)) and pool.meta(a).shape[1:] == cm.shape):
        body = "elementwise"
    if body == "at" and not _nd(cm):
        body = "elementwise"
    return [c, a, lo, hi], {"body": body, "op": pool.choice(LOOP_OPS),
                            "index_op": pool.choice(LOOP_OPS)}


def _fori_body(mod, p, a, astype):
    """The loop body, written once for transpile (mod=tnp) and NumPy (mod=np)."""
    op, index_op = getattr(mod, p["op"]), getattr(mod, p["index_op"])

    def body(i, c):
        if p["body"] == "at":
            new = c.at[i].add(1) if mod is tnp else _ref_at(
                {"key": ("T",) + (slice(None),) * (c.ndim - 1), "method": "add"}, c, i, 1)
        elif p["body"] == "getitem":
            row = a[i] if mod is tnp else _ref_getitem({"key": ("T",)}, a, i)
            new = op(c, row)
        else:
            new = index_op(op(c, a), i)
        return astype(new, c.dtype)
    return body


def _tp_fori(p, c, a, lo, hi):
    return lax.fori_loop(lo, hi, _fori_body(tnp, p, a, lambda v, dt: v.astype(dt)), c)


def _index_value(lo, hi):
    """The loop index as NumPy sees it: the bounds' common type (Python int if both are).
    Bounds without a common integer type (int32 and uint64 make float64) are refused, as
    JAX refuses them (seed 308573): a type-level error transpile must raise too."""
    if isinstance(lo, int) and isinstance(hi, int):
        return lambda i: i
    dt = np.result_type(lo, hi)
    if dt.kind not in "iu":
        raise TypeError(f"fori_loop bounds of types {np.result_type(lo)} and "
                        f"{np.result_type(hi)} have no common integer type")
    return lambda i: dt.type(i)


def _ref_fori(p, c, a, lo, hi):
    body = _fori_body(np, p, a, lambda v, dt: np.asarray(v).astype(dt))
    if abs(int(lo)) > 100 or abs(int(hi)) > 100:
        raise ValueError("loop bounds too large to run the reference")
    as_index = _index_value(lo, hi)
    c = np.asarray(c)
    for i in range(int(lo), int(hi)):
        c = body(as_index(i), c)
    return c


def _draw_while(rng, pool):
    c = pool.pick(_loop_carry)
    if c is None:
        return None
    n = _draw_bound(rng, pool, pool.choice([0, 3]))
    return [c, n], {"op": pool.choice(LOOP_OPS)}


def _tp_while(p, c, n):
    op = getattr(tnp, p["op"])

    def body(state):
        k, v = state
        return k + 1, op(v, v).astype(v.dtype)
    return lax.while_loop(lambda s: s[0] < n, body, (0, c))[1]


def _ref_while(p, c, n):
    op = getattr(np, p["op"])
    if abs(int(n)) > 100:
        raise ValueError("loop bound too large to run the reference")
    c = np.asarray(c)
    for _ in range(max(0, int(n))):
        c = np.asarray(op(c, c)).astype(c.dtype)
    return c


def _draw_cond(rng, pool):
    pred = pool.pick(lambda m: m.shape == ())
    x = pool.pick(lambda m: _array(m) and m.dtype != np.bool_)
    if pred is None or x is None:
        return None
    return [pred, x], {"lit": random_literal(rng, _kind(pool.meta(x))),
                       "ops": (pool.choice(LOOP_OPS), pool.choice(LOOP_OPS))}


def _branch(mod, op_name, lit):
    return lambda x: getattr(mod, op_name)(x, lit).astype(x.dtype)


def _tp_cond(p, pred, x):
    return lax.cond(pred, _branch(tnp, p["ops"][0], p["lit"]),
                    _branch(tnp, p["ops"][1], p["lit"]), x)


def _ref_cond(p, pred, x):
    x = np.asarray(x)
    branch = _branch(np, p["ops"][0] if bool(pred) else p["ops"][1], p["lit"])
    return np.asarray(branch(x))


def _draw_scan(rng, pool):
    xs = pool.pick(lambda m: _nd(m) and m.dtype != np.bool_ and m.value.size <= 5000)
    if xs is None:
        return None
    return [xs], {"op": pool.choice(LOOP_OPS), "reverse": pool.chance(0.3)}


def _tp_scan(p, xs):
    op = getattr(tnp, p["op"])

    def f(c, x):
        c = op(c, x).astype(c.dtype)
        return c, c
    return lax.scan(f, tnp.zeros(xs.shape[1:], xs.dtype), xs, reverse=p["reverse"])[1]


def _ref_scan(p, xs):
    op = getattr(np, p["op"])
    xs = np.asarray(xs)
    c, ys = np.zeros(xs.shape[1:], xs.dtype), [None] * len(xs)
    order = range(len(xs) - 1, -1, -1) if p["reverse"] else range(len(xs))
    for i in order:
        c = np.asarray(op(c, xs[i])).astype(xs.dtype)
        ys[i] = c
    return np.stack(ys) if ys else np.zeros((0,) + xs.shape[1:], xs.dtype)


# -- the table ------------------------------------------------------------------------------

def _table() -> dict[str, Op]:
    ops = [_unary_op(n) for n in UNARY] + [_binary_op(n) for n in BINARY]
    ops += [_reduce_op(n) for n in REDUCTIONS]
    ops += [
        Op("where", lambda p, c, x, y: tnp.where(c, x, y), lambda p, c, x, y: np.where(c, x, y),
           _draw_where, family="select"),
        Op("clip", lambda p, a, lo, hi: tnp.clip(a, lo, hi),
           lambda p, a, lo, hi: np.clip(a, lo, hi), _draw_clip, family="select"),
        Op("round", _tp_round, _ref_round, _draw_round,
           family="unary"),
        Op("astype", lambda p, x: tnp.astype(x, p["dtype"]) if is_pyscalar(
            x) else x.astype(p["dtype"]), _ref_astype, _draw_astype,
           family="cast"),
        Op("cast_math", lambda p, x: _cast_math(tnp, p, x, lambda v, d: v.astype(d)),
           lambda p, x: _cast_math(np, p, x, lambda v, d: np.asarray(v).astype(d)),
           _draw_cast_math, TRANSCENDENTAL, family="cast"),
        Op("full", lambda p: _tp_full(p), lambda p: _ref_full(p), _draw_full, family="create"),
        Op("like", lambda p, x: _like(tnp, p, x), lambda p, x: _like(np, p, x), _draw_like,
           family="create"),
        Op("arange", lambda p: _creation(tnp, p), lambda p: _creation(np, p), _draw_arange,
           family="create"),
        Op("reshape", lambda p, x: tnp.reshape(x, p["shape"]),
           lambda p, x: np.reshape(x, p["shape"]), _draw_reshape, family="shape"),
        Op("transpose", _tp_transpose, _ref_transpose, _draw_transpose, family="shape"),
        Op("slice", lambda p, x: x[p["key"]], lambda p, x: x[p["key"]], _draw_slice,
           family="shape"),
        Op("expand_dims", lambda p, x: tnp.expand_dims(x, p["axis"]),
           lambda p, x: np.expand_dims(x, p["axis"]), _draw_expand, family="shape"),
        Op("squeeze", lambda p, x: tnp.squeeze(x, p["axis"]),
           lambda p, x: np.squeeze(x, p["axis"]), _draw_squeeze, family="shape"),
        Op("flip", lambda p, x: tnp.flip(x, p["axis"]), lambda p, x: np.flip(x, p["axis"]),
           _draw_flip, family="shape"),
        Op("broadcast_to", lambda p, x: tnp.broadcast_to(x, p["shape"]),
           lambda p, x: np.broadcast_to(x, p["shape"]), _draw_broadcast, family="shape"),
        Op("concatenate", lambda p, *xs: tnp.concatenate(xs, axis=p["axis"]),
           lambda p, *xs: np.concatenate(xs, axis=p["axis"]), _draw_concat, family="shape"),
        Op("stack", lambda p, *xs: tnp.stack(xs, axis=p["axis"]),
           lambda p, *xs: np.stack(xs, axis=p["axis"]), _draw_stack, family="shape"),
        Op("matmul", lambda p, *ab: _matmul(tnp, p, *ab), lambda p, *ab: _matmul(np, p, *ab),
           _draw_matmul, ACCUMULATE, _matmul_scale, family="linalg"),
        Op("scalar_product", lambda p, x, y: _scalar_product(tnp, p, x, y),
           _ref_scalar_product, _draw_scalar_product, family="linalg"),
        Op("getitem", lambda p, x, i: x[_fill_key(p["key"], i)], _ref_getitem, _draw_getitem,
           family="index"),
        Op("at", _tp_at, _ref_at, _draw_at, family="index"),
        Op("fori_loop", _tp_fori, _ref_fori, _draw_fori, family="lax"),
        Op("while_loop", _tp_while, _ref_while, _draw_while, family="lax"),
        Op("cond", _tp_cond, _ref_cond, _draw_cond, family="lax"),
        Op("scan", lambda p, xs: _tp_scan(p, xs), _ref_scan, _draw_scan, family="lax"),
        Op("const_chain", lambda p, *xs: ctx.const_chain(tnp, p, *xs),
           lambda p, *xs: ctx.const_chain(np, p, *xs),
           lambda rng, pool: ctx.draw_const_chain(rng, pool, _array, _second_operand),
           family="create"),
        Op("cond_math", ctx.tp_cond_math, ctx.ref_cond_math, ctx.draw_cond_math,
           TRANSCENDENTAL, family="lax"),
        Op("scan_math", ctx.tp_scan_math, ctx.ref_elementwise_math, ctx.draw_scan_math,
           TRANSCENDENTAL, family="lax"),
        Op("fori_math", ctx.tp_fori_math, ctx.ref_elementwise_math, ctx.draw_loop_math,
           TRANSCENDENTAL, family="lax"),
        Op("while_math", ctx.tp_while_math, ctx.ref_elementwise_math, ctx.draw_loop_math,
           TRANSCENDENTAL, family="lax"),
    ]
    return {op.name: op for op in ops}


OPS = _table()

# How often each family is drawn (elementwise ops are many and cheap; loops are few).
FAMILY_WEIGHTS = {"unary": 2.0, "binary": 3.5, "select": 1.2, "cast": 1.2, "create": 0.8,
                  "reduce": 2.4, "shape": 1.6, "linalg": 0.6, "index": 1.0, "lax": 1.2}


# The ops transpile compiles for complex operands (the rest raise NotImplementedError in C).
COMPLEX_OPS = frozenset({
    "negative", "abs", "exp", "log", "sqrt", "isnan", "isinf", "isfinite", "reciprocal",
    "square", "positive", "add", "subtract", "multiply", "divide", "power", "equal",
    "not_equal", "where", "astype", "reshape", "transpose", "slice", "expand_dims", "squeeze",
    "flip", "broadcast_to", "concatenate", "stack", "matmul", "sum", "prod", "mean"})


def draw_op(rng, allowed=None) -> Op:
    """An op, by family weight; `allowed`: only these names."""
    families = [f for f in FAMILY_WEIGHTS if allowed is None or any(
        op.family == f and n in allowed for n, op in OPS.items())]
    w = np.array([FAMILY_WEIGHTS[f] for f in families])
    family = families[int(rng.choice(len(families), p=w / w.sum()))]
    names = [n for n, op in OPS.items()
             if op.family == family and (allowed is None or n in allowed)]
    return OPS[names[int(rng.integers(0, len(names)))]]


def operand_value(operand, values):
    return values[operand.index] if isinstance(operand, Ref) else operand.value


def is_transcendental(op: Op) -> bool:
    return op.tol == TRANSCENDENTAL


def lit_is_none(operand) -> bool:
    return isinstance(operand, Lit) and operand.value is None


