"""The operation x dtype table whose result dtypes JAX's rules decide: shared by the recorder
(tools/record_jax_dtypes.py, run with JAX) and the check (tests/test_jax_dtype_rules.py, run
with transpile). Each case is (name, call, operand kinds); `call(mod, *operands)` spells it
for `mod`, which is jax.numpy or transpile.numpy. An operand kind is a dtype name (an array of
two ones of it) or 'py:int' / 'py:float' / 'py:complex' / 'py:bool' (a Python scalar)."""
from __future__ import annotations

import operator

import numpy as np

ARRAY_KINDS = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
               "float32", "float64", "complex64", "complex128"]
SCALAR_KINDS = ["py:bool", "py:int", "py:float", "py:complex"]
KINDS = ARRAY_KINDS + SCALAR_KINDS

# The fuzzer's elementwise operations (tests/fuzz/ops.py UNARY and BINARY), by name.
UNARY = ["negative", "abs", "sign", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p",
         "sqrt", "sin", "cos", "tan", "arcsin", "arccos", "arctan", "sinh", "cosh", "tanh",
         "floor", "ceil", "rint", "trunc", "isnan", "isinf", "isfinite", "invert",
         "reciprocal", "square", "positive", "logical_not"]
BINARY = ["add", "subtract", "multiply", "divide", "floor_divide", "remainder", "power",
          "maximum", "minimum", "arctan2", "equal", "not_equal", "less", "less_equal",
          "greater", "greater_equal", "bitwise_and", "bitwise_or", "bitwise_xor", "left_shift",
          "right_shift", "logical_and", "logical_or", "logical_xor"]
# Python's operators on (array, scalar) pairs: what `x * 0.5` gives.
OPERATORS = {"op_add": operator.add, "op_mul": operator.mul, "op_truediv": operator.truediv,
             "op_floordiv": operator.floordiv, "op_pow": operator.pow}
REDUCTIONS = ["sum", "prod", "mean", "max", "min", "all", "any", "argmax", "argmin", "var",
              "std", "cumsum"]


def operand(kind):
    """The value a kind stands for (NumPy arrays for array kinds)."""
    if kind.startswith("py:"):
        return {"py:bool": True, "py:int": 3, "py:float": 0.5, "py:complex": 1 + 1j}[kind]
    return np.ones(2, dtype=kind)


def _fn(name):
    return lambda mod, *xs: getattr(mod, name)(*xs)


def _method(name):
    return lambda mod, x: getattr(mod, name)(mod.asarray(x))


def _operator(fn):
    return lambda mod, x, y: fn(mod.asarray(x), y)


# Creation functions: the dtype they pick when none is given (no operands).
CREATION = {
    "arange_int": lambda mod: mod.arange(5),
    "arange_float": lambda mod: mod.arange(0.0, 1.0, 0.25),
    "zeros": lambda mod: mod.zeros(3),
    "ones": lambda mod: mod.ones(3),
    "full_int": lambda mod: mod.full(3, 2),
    "full_float": lambda mod: mod.full(3, 2.5),
    "linspace": lambda mod: mod.linspace(0, 1, 5),
    "eye": lambda mod: mod.eye(2),
    "array_int_list": lambda mod: mod.array([1, 2]),
    "array_float_list": lambda mod: mod.array([1.0, 2.0]),
    "array_bool_list": lambda mod: mod.array([True, False]),
    "array_int": lambda mod: mod.array(3),
    "asarray_float": lambda mod: mod.asarray(2.5),
    "zeros_int64": lambda mod: mod.zeros(3, dtype="int64"),
    "zeros_float64": lambda mod: mod.zeros(3, dtype="float64"),
    "arange_float64": lambda mod: mod.arange(3, dtype="float64"),
}


def cases():
    """[(case name, call, operand kinds)] in a fixed order."""
    out = []
    for name in UNARY:
        out += [(f"{name}({a})", _fn(name), (a,)) for a in KINDS]
    for name in BINARY:
        out += [(f"{name}({a},{b})", _fn(name), (a, b)) for a in KINDS for b in KINDS
                if not (a.startswith("py:") and b.startswith("py:"))]
    for name, fn in OPERATORS.items():
        out += [(f"{name}({a},{b})", _operator(fn), (a, b)) for a in ARRAY_KINDS
                for b in SCALAR_KINDS]
    for name in REDUCTIONS:
        out += [(f"{name}({a})", _fn(name), (a,)) for a in ARRAY_KINDS]
    out += [(f"where(bool,{a},{b})", lambda mod, a_, b_: mod.where(np.ones(2, bool), a_, b_),
             (a, b)) for a in KINDS for b in KINDS]
    out += [(f"matmul({a},{b})", _fn("matmul"), (a, b)) for a in ARRAY_KINDS
            for b in ARRAY_KINDS]
    out += [(f"concatenate({a},{b})", lambda mod, x, y: mod.concatenate([x, y]), (a, b))
            for a in ARRAY_KINDS for b in ARRAY_KINDS]
    out += [(f"{name}()", fn, ()) for name, fn in CREATION.items()]
    return out


def encode(dtype, weak: bool) -> str:
    """A result as one token: the dtype's name, '*' after it when weakly typed."""
    return str(np.dtype(dtype)) + ("*" if weak else "")


ERROR = "E"
