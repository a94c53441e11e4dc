"""The `transpile.numpy` functions a suggestion may name.

Suggestions (`use tnp.maximum`) must never name a function that does not exist. The linter does
not import transpile.numpy (it needs no NumPy), so the names are listed here, and a test checks
each one with `hasattr(transpile.numpy, name)`; a function missing here is described instead
of named. For JAX code (`jax.numpy`), every NumPy name exists.
"""

TNP_FUNCTIONS = frozenset(
    {
        "abs", "absolute", "acosh", "add", "all", "allclose", "amax", "amin",
        "any", "arange", "arccos", "arccosh", "arcsin", "arcsinh", "arctan", "arctan2",
        "arctanh", "argmax", "argmin", "around", "array", "array_equal", "array_equiv", "array_split",
        "asarray", "asinh", "astype", "atanh", "atleast_1d", "atleast_2d", "atleast_3d", "average",
        "bitwise_and", "bitwise_invert", "bitwise_not", "bitwise_or", "bitwise_xor", "broadcast_arrays", "broadcast_shapes", "broadcast_to",
        "cbrt", "ceil", "clip", "column_stack", "concatenate", "convolve", "copy", "copysign",
        "corrcoef", "correlate", "cos", "cosh", "count_nonzero", "cov", "cummax", "cummin",
        "cumprod", "cumsum", "cumulative_prod", "cumulative_sum", "deg2rad", "degrees", "diag", "diagflat",
        "diagonal", "diff", "divide", "dot", "dsplit", "dstack", "empty", "empty_like",
        "equal", "exp", "exp2", "expand_dims", "expm1", "eye", "flip", "fliplr",
        "flipud", "floor", "floor_divide", "fmax", "fmin", "full", "full_like", "greater",
        "greater_equal", "heaviside", "hsplit", "hstack", "hypot", "identity", "inner", "invert",
        "isclose", "isfinite", "isinf", "isnan", "kron", "left_shift", "less", "less_equal",
        "linspace", "log", "log10", "log1p", "log2", "logaddexp", "logaddexp2", "logical_and",
        "logical_not", "logical_or", "logical_xor", "matmul", "max", "maximum", "mean", "meshgrid",
        "min", "minimum", "mod", "moveaxis", "multiply", "nan_to_num", "nanargmax", "nanargmin",
        "nanmax", "nanmean", "nanmin", "nanprod", "nanstd", "nansum", "nanvar", "ndim",
        "negative", "nextafter", "not_equal", "ones", "ones_like", "outer", "pad", "positive",
        "pow", "power", "prod", "ptp", "rad2deg", "radians", "ravel", "reciprocal",
        "remainder", "repeat", "reshape", "right_shift", "rint", "roll", "round", "row_stack",
        "select", "shape", "sign", "signbit", "sin", "sinc", "sinh", "size",
        "split", "sqrt", "square", "squeeze", "stack", "std", "subtract", "sum",
        "swapaxes", "take", "take_along_axis", "tan", "tanh", "tensordot", "tile", "trace",
        "transpose", "tri", "tril", "triu", "true_divide", "trunc", "var", "vdot",
        "vsplit", "vstack", "where", "zeros", "zeros_like",
    }
)  # fmt: skip
