"""JAX's primitive objects' names, `lax.NAME_p`, for code that inspects make_jaxpr's
equations (`eqn.primitive is lax.add_p`): transpile's own primitive where JAX has one of that
name and meaning (its params are transpile's, not JAX's). The literal `__all__` lets
`transpile lint` read lax's names from source without importing it."""
from __future__ import annotations

from . import primitives as _P

__all__ = ["integer_pow_p", "abs_p", "acos_p", "acosh_p", "add_p", "and_p", "argmax_p", "argmin_p", "asin_p",
           "asinh_p", "atan_p", "atan2_p", "atanh_p", "axis_index_p", "bitcast_convert_type_p",
           "broadcast_in_dim_p", "cbrt_p", "ceil_p", "concatenate_p", "cond_p", "conj_p",
           "convert_element_type_p", "cos_p", "cosh_p", "digamma_p", "div_p", "dot_general_p",
           "dynamic_slice_p", "dynamic_update_slice_p", "eq_p", "erf_p", "erf_inv_p", "erfc_p",
           "exp_p", "exp2_p", "expm1_p", "fft_p", "floor_p", "gather_p", "ge_p", "gt_p",
           "imag_p", "iota_p", "is_finite_p", "le_p", "lgamma_p", "log_p", "log1p_p", "lt_p",
           "max_p", "min_p", "mul_p", "ne_p", "neg_p", "nextafter_p", "not_p", "or_p", "pow_p",
           "psum_p", "real_p", "reduce_and_p", "reduce_max_p", "reduce_min_p", "reduce_or_p",
           "reduce_prod_p", "reduce_sum_p", "rem_p", "reshape_p", "rev_p", "round_p", "scan_p",
           "scatter_p", "shift_left_p", "sign_p", "sin_p", "sinh_p", "slice_p", "sort_p",
           "sqrt_p", "stop_gradient_p", "sub_p", "tan_p", "tanh_p", "transpose_p", "while_p",
           "xor_p"]

# JAX's name -> transpile's primitive of that meaning under another name: x ** 2 with a
# static int exponent is JAX's integer_pow, transpile's pow of a literal.
_OTHER_NAMES = {"integer_pow": "pow"}

globals().update({name: _P.get(_OTHER_NAMES.get(name[:-2], name[:-2])) for name in __all__})
