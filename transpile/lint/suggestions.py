"""The `transpile.numpy` functions a suggestion may name.

Suggestions (`use tnp.maximum`) must never name a function that does not exist. The linter does
not import transpile.numpy (it needs no NumPy), so the names are listed here, and a test checks
each one with `hasattr(transpile.numpy, name)`; a function missing here is described instead
of named. For JAX code (`jax.numpy`), every NumPy name exists.
"""

TNP_FUNCTIONS = frozenset(
    {
    "abs", "absolute", "add", "all", "amax", "amin", "any", "arange",
    "arccos", "arcsin", "arctan", "arctan2", "argmax", "argmin", "around", "array",
    "asarray", "astype", "bitwise_and", "bitwise_invert", "bitwise_not", "bitwise_or", "bitwise_xor", "broadcast_to",
    "ceil", "clip", "concatenate", "cos", "cosh", "divide", "dot", "empty",
    "empty_like", "equal", "exp", "exp2", "expand_dims", "expm1", "eye", "flip",
    "floor", "floor_divide", "full", "full_like", "greater", "greater_equal", "identity", "invert",
    "isfinite", "isinf", "isnan", "left_shift", "less", "less_equal", "linspace", "log",
    "log10", "log1p", "log2", "logical_and", "logical_not", "logical_or", "logical_xor", "matmul",
    "max", "maximum", "mean", "min", "minimum", "mod", "moveaxis", "multiply",
    "ndim", "negative", "not_equal", "ones", "ones_like", "positive", "pow", "power",
    "prod", "ravel", "reciprocal", "remainder", "reshape", "right_shift", "rint", "round",
    "shape", "sign", "sin", "sinh", "size", "sqrt", "square", "squeeze",
    "stack", "subtract", "sum", "tan", "tanh", "transpose", "true_divide", "trunc",
    "vdot", "where", "zeros", "zeros_like",
    }
)  # fmt: skip
