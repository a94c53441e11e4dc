"""Every primitive transpile knows, by kind. Their meaning lives in the rule tables
(`rules/abstract.py`, `rules/impl.py`, `codegen/c_ops.py`), each keyed by primitive.
"""
from __future__ import annotations

from .core import Primitive

# Elementwise primitives, with the NumPy ufunc that defines their dtype rules and values.
UNARY_UFUNC = {
    "neg": "negative", "abs": "absolute", "sign": "sign", "exp": "exp", "exp2": "exp2",
    "expm1": "expm1", "log": "log", "log2": "log2", "log10": "log10", "log1p": "log1p",
    "sqrt": "sqrt", "sin": "sin", "cos": "cos", "tan": "tan", "asin": "arcsin",
    "acos": "arccos", "atan": "arctan", "sinh": "sinh", "cosh": "cosh", "tanh": "tanh",
    "floor": "floor", "ceil": "ceil", "round": "rint", "trunc": "trunc", "not": "invert",
    "is_nan": "isnan", "is_inf": "isinf", "is_finite": "isfinite", "reciprocal": "reciprocal",
    "asinh": "arcsinh", "acosh": "arccosh", "atanh": "arctanh", "cbrt": "cbrt",
    "signbit": "signbit", "conj": "conjugate",
}
BINARY_UFUNC = {
    "add": "add", "sub": "subtract", "mul": "multiply", "div": "true_divide",
    "floor_div": "floor_divide", "rem": "remainder", "pow": "power", "max": "maximum",
    "min": "minimum", "atan2": "arctan2", "eq": "equal", "ne": "not_equal", "lt": "less",
    "le": "less_equal", "gt": "greater", "ge": "greater_equal", "and": "bitwise_and",
    "or": "bitwise_or", "xor": "bitwise_xor", "shift_left": "left_shift",
    "shift_right": "right_shift", "hypot": "hypot", "copysign": "copysign",
    "fmax": "fmax", "fmin": "fmin", "logaddexp": "logaddexp", "logaddexp2": "logaddexp2",
    "nextafter": "nextafter",
}
ELEMENTWISE_UFUNC = {**UNARY_UFUNC, **BINARY_UFUNC}
# Elementwise special functions NumPy has no ufunc for: a float operand, the same float out.
SPECIAL_UNARY = ("erf", "erfc", "erf_inv", "lgamma", "digamma")
# The parts of a complex operand, as real numbers of its precision (lax.real, lax.imag).
COMPLEX_PARTS = ("real", "imag")

_table: dict[str, Primitive] = {}


def _make(name: str) -> Primitive:
    _table[name] = Primitive(name)
    return _table[name]


for _name in (*ELEMENTWISE_UFUNC, *SPECIAL_UNARY, *COMPLEX_PARTS):
    _make(_name)

select = _make("select")                      # select pred on_true on_false
convert_element_type = _make("convert_element_type")   # new_dtype
broadcast_in_dim = _make("broadcast_in_dim")  # shape, broadcast_dimensions
reshape = _make("reshape")                    # new_sizes
transpose = _make("transpose")                # permutation
slice_p = _make("slice")                      # start_indices, limit_indices, strides
rev = _make("rev")                            # dimensions
concatenate = _make("concatenate")            # dimension
iota = _make("iota")                          # dtype, shape, dimension
reduce_sum = _make("reduce_sum")              # axes
reduce_prod = _make("reduce_prod")
reduce_max = _make("reduce_max")
reduce_min = _make("reduce_min")
reduce_and = _make("reduce_and")
reduce_or = _make("reduce_or")
argmax = _make("argmax")                      # axis, index_dtype
argmin = _make("argmin")
dot_general = _make("dot_general")            # (batch..., m, k) x (batch..., k, n)
dynamic_slice = _make("dynamic_slice")        # operand *starts; slice_sizes (starts clamped)
dynamic_update_slice = _make("dynamic_update_slice")   # operand update *starts (clamped)
sort = _make("sort")                          # along the last axis, stable, NaN last
argsort = _make("argsort")                    # int64 positions of that order
gather = _make("gather")                      # operand indices; axis (indices clamped)
bitcast_convert_type = _make("bitcast_convert_type")   # new_dtype (same width: reinterpret)
debug_print = _make("debug_print")            # *values; fmt, treedef (prints; no outputs)
scatter = _make("scatter")                    # operand flat_indices updates; mode (drops out of range)
linalg_solve = _make("linalg_solve")          # a (..., n, n) b (..., n, k): LU, partial pivoting
linalg_det = _make("linalg_det")              # a (..., n, n)
linalg_slogdet = _make("linalg_slogdet")      # a (..., n, n) -> (..., 2): sign, log|det|
cholesky = _make("cholesky")                  # a (..., n, n) -> lower factor (NaN if not PD)
qr_q = _make("qr_q")                          # a (..., m, n); complete
qr_r = _make("qr_r")                          # a (..., m, n); complete
eigh = _make("eigh")                          # a (..., n, n), lower -> (..., n+1, n): w; V
svd = _make("svd")                            # a (..., m, n) -> (..., U s V^T packed);
                                              # full_matrices, compute_uv
eig = _make("eig")                            # a (..., n, n) -> complex (..., 2n+1, n): w; V; V^-1
fft = _make("fft")                            # x; fft_type, length, scale: along the last axis
conv = _make("conv")                          # lhs (N,D,H,W,C) rhs (KD,KH,KW,I,O); window_strides,
                                              # padding, lhs/rhs_dilation, feature_group_count

# Structured control flow: each carries its regions (sub-IRs) in its params. Every region's
# invars are its explicit arguments followed by the values it captures from outside.
cond = _make("cond")                          # index *operands; branches (index clamped)
while_loop = _make("while")                   # *carry *captured; cond, body, n_carry
for_loop = _make("for_loop")                  # lower upper *carry *captured; body, n_carry
scan = _make("scan")                          # *carry *xs *captured; body, n_carry, n_xs, length, reverse

# Differentiation markers: recorded only while a differentiating transformation traces a
# function (transpile/autodiff/), which replaces them, so no compiled program contains one.
stop_gradient = _make("stop_gradient")        # x: its value, with a zero derivative
custom_jvp_call = _make("custom_jvp_call")    # *args *captured; call (IR), rule, n_args
custom_vjp_call = _make("custom_vjp_call")    # *args *captured; call (IR), fwd, bwd, n_args, remat
custom_vjp_lin = _make("custom_vjp_lin")      # *residuals *tangents; bwd, out_avals, n_residuals

# Collectives over a vmap axis named by `axis_name` (lax.psum, pmax, pmin, axis_index): only vmap
# binds them (batching/collectives.py resolves each at the vmap of its axis), so no compiled
# program contains one.
psum = _make("psum")                          # x; axis_name: the sum over the mapped axis
axis_index = _make("axis_index")              # ; axis_name, dtype: the member's position
pmax = _make("pmax")                          # x; axis_name: the maximum over the mapped axis
pmin = _make("pmin")                          # x; axis_name: the minimum over the mapped axis

REDUCTIONS = {"reduce_sum", "reduce_prod", "reduce_max", "reduce_min", "reduce_and", "reduce_or"}
ARG_REDUCTIONS = {"argmax", "argmin"}
VIEWS = {"broadcast_in_dim", "reshape", "transpose", "slice", "rev"}
# Run-time helper calls: whole contiguous buffers in, one buffer out (codegen/lower_helpers.py).
HELPER_CALLS = {"scatter", "linalg_solve", "linalg_det", "linalg_slogdet", "cholesky", "qr_q",
                "qr_r", "eigh", "svd", "fft", "conv", "eig"}
CONTROL_FLOW = {"cond", "while", "for_loop", "scan"}
AUTODIFF_MARKERS = {"stop_gradient", "custom_jvp_call", "custom_vjp_call", "custom_vjp_lin"}
# Equations kept for what they do, not what they return: never folded, merged or dropped.
EFFECTS = {"debug_print"}


def get(name: str) -> Primitive:
    return _table[name]


def all_primitives() -> dict[str, Primitive]:
    return dict(_table)
