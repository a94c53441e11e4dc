"""C text for each scalar primitive, keyed by primitive (shared by the C and CUDA dialects).

Each rule takes the rendered operands (already cast to NumPy's loop dtypes), the
loop dtypes and the result dtype, and returns a C expression. Anything that plain
C gets wrong or leaves undefined calls a helper from runtime/include/transpile.h.
"""
from __future__ import annotations

import numpy as np

from .. import dtypes

# float16/bfloat16 values are their bit patterns (runtime/include/tp_half.h): the code only
# stores, moves and converts them (passes/half_float.py computes in float32).
C_TYPE = dtypes.DtypeTable({
    dtypes.bool_: "bool", dtypes.int8: "int8_t", dtypes.int16: "int16_t",
    dtypes.int32: "int32_t", dtypes.int64: "int64_t", dtypes.uint8: "uint8_t",
    dtypes.uint16: "uint16_t", dtypes.uint32: "uint32_t", dtypes.uint64: "uint64_t",
    dtypes.float16: "tp_f16", dtypes.float32: "float", dtypes.float64: "double",
    dtypes.complex64: "tp_c64", dtypes.complex128: "tp_c128"}, bfloat16="tp_bf16")
TAG = dtypes.DtypeTable({
    dtypes.bool_: "b", dtypes.int8: "i8", dtypes.int16: "i16", dtypes.int32: "i32",
    dtypes.int64: "i64", dtypes.uint8: "u8", dtypes.uint16: "u16", dtypes.uint32: "u32",
    dtypes.uint64: "u64", dtypes.float16: "f16", dtypes.float32: "f32", dtypes.float64: "f64",
    dtypes.complex64: "c64", dtypes.complex128: "c128"}, bfloat16="bf16")


def unsigned_work_type(dt: np.dtype) -> str:
    """The unsigned type integer arithmetic on `dt` is done in (wraps, never promotes to int)."""
    return "uint64_t" if dt.itemsize == 8 else "uint32_t"


def _is_f32(dt) -> bool:
    return dt == dtypes.float32


def _libm(name: str):
    def rule(args, loop, out):
        return f"{name}{'f' if _is_f32(loop[0]) else ''}({args[0]})"
    return rule


def _wrapping(op: str):
    def rule(args, loop, out):
        a, b = args
        dt = loop[0]
        if dtypes.is_float(dt):
            return f"({a} {op} {b})"
        if dt == dtypes.bool_:
            return f"({a} {'|' if op == '+' else '&'} {b})"
        u = unsigned_work_type(dt)
        return f"({C_TYPE[dt]})(({u}){a} {op} ({u}){b})"
    return rule


def _helper(name: str):
    def rule(args, loop, out):
        return f"tp_{name}_{TAG[loop[0]]}({', '.join(args)})"
    return rule


def _compare(op: str):
    def rule(args, loop, out):
        a, b = args
        if loop[0] != loop[1]:      # int64 vs uint64: NumPy compares exactly
            return _mixed_sign_compare(op, a, b, loop)
        if loop[0] == dtypes.bool_:     # as 0/1 ints: gcc warns on ordering a bool with a constant
            return f"((int){a} {op} (int){b})"
        return f"({a} {op} {b})"
    return rule


def _mixed_sign_compare(op, a, b, loop):
    # Compare as if in infinite precision: a negative signed value is below every unsigned one.
    if loop[0] in dtypes.SIGNED:
        return f"({a} < 0 ? (0 {op} 1) : ((uint64_t){a} {op} {b}))"
    return f"({b} < 0 ? (1 {op} 0) : ({a} {op} (uint64_t){b}))"


def _bitwise(op: str):
    def rule(args, loop, out):
        return f"({C_TYPE[out]})({args[0]} {op} {args[1]})"
    return rule


def _neg(args, loop, out):
    dt = loop[0]
    if dtypes.is_float(dt):
        return f"(-{args[0]})"
    return f"({C_TYPE[dt]})(0u - ({unsigned_work_type(dt)}){args[0]})"


def _abs(args, loop, out):
    (a,), dt = args, loop[0]
    if dtypes.is_float(dt):
        return f"fabs{'f' if _is_f32(dt) else ''}({a})"
    if dt in dtypes.SIGNED:
        u = unsigned_work_type(dt)
        return f"({C_TYPE[dt]})({a} < 0 ? 0u - ({u}){a} : ({u}){a})"
    return a


def _sign(args, loop, out):
    (a,), dt = args, loop[0]
    if dtypes.is_float(dt):
        return f"tp_sign_{TAG[dt]}({a})"
    if dt in dtypes.UNSIGNED:
        return f"({C_TYPE[dt]})({a} > 0)"
    return f"({C_TYPE[dt]})(({a} > 0) - ({a} < 0))"


def _exp(args, loop, out):
    return f"tp_expf({args[0]})" if _is_f32(loop[0]) else f"tp_exp({args[0]})"


def _tanh(args, loop, out):
    # tp_tanh.h's vectorisable versions (tools/check_tanh_accuracy.py, 1e7 values each:
    # float32 correctly rounded on all, float64 within 0.6 ulp; glibc's: 2 ulp), not libm's
    # scalar calls, which were a quarter of an MLP's gradient.
    if loop[0] in (dtypes.float32, dtypes.float64):
        return f"tp_tanh_{TAG[loop[0]]}({args[0]})"
    return _libm("tanh")(args, loop, out)


def _integral_identity(name: str):
    libm = _libm(name)

    def rule(args, loop, out):
        return libm(args, loop, out) if dtypes.is_float(loop[0]) else args[0]
    return rule


def _not(args, loop, out):
    if loop[0] == dtypes.bool_:
        return f"(!{args[0]})"
    return f"({C_TYPE[loop[0]]})(~{args[0]})"


def _float_predicate(name: str):
    def rule(args, loop, out):
        return f"{name}({args[0]})"      # integers never get here: lowering folds them
    return rule


def _reciprocal(args, loop, out):
    dt = loop[0]
    if dtypes.is_float(dt):
        return f"({'1.0f' if _is_f32(dt) else '1.0'} / {args[0]})"
    # NumPy computes integer reciprocals through double and casts back.
    return f"tp_cast_f64_{TAG[dt]}(1.0 / (double){args[0]})"


def _pow(args, loop, out):
    dt = loop[0]
    if dtypes.is_float(dt):
        return f"pow{'f' if _is_f32(dt) else ''}({args[0]}, {args[1]})"
    return f"tp_pow_{TAG[dt]}({args[0]}, {args[1]})"


def _minmax(which: str):
    op = ">" if which == "max" else "<"

    def rule(args, loop, out):
        a, b = args
        dt = loop[0]
        if dtypes.is_float(dt):       # the elementwise spelling (transpile.h says why)
            return f"tp_{which}imum_{TAG[dt]}({a}, {b})"
        if dt == dtypes.bool_:
            return f"({a} {'|' if which == 'max' else '&'} {b})"
        return f"({a} {op} {b} ? {a} : {b})"
    return rule


def _float_binary(name: str):
    def rule(args, loop, out):
        return f"{name}{'f' if _is_f32(loop[0]) else ''}({args[0]}, {args[1]})"
    return rule


def _nan_ignoring_minmax(which: str):
    plain = _minmax(which[1:])          # "fmax" -> "max"

    def rule(args, loop, out):
        if dtypes.is_float(loop[0]):
            return f"{which}{'f' if _is_f32(loop[0]) else ''}({args[0]}, {args[1]})"
        return plain(args, loop, out)      # integers and booleans have no NaN: plain max/min
    return rule


def _signbit(args, loop, out):
    (a,), dt = args, loop[0]
    if dtypes.is_half(dt):          # a 16-bit pattern (passes/half_float.py): its top bit
        return f"(({a} >> 15) != 0)"
    if dtypes.is_float(dt):
        return f"(signbit({a}) != 0)"
    # Integer operands reach here under JAX's rules (NumPy's loops are floating): C's signbit
    # takes only floating values. A negative signed value has its sign bit set; unsigned and
    # boolean values never do (the void cast keeps the operand used, without a warning).
    if dt in dtypes.SIGNED:
        return f"({a} < 0)"
    return f"((void)({a}), false)"


def _bitcast_by_memcpy(src, out) -> bool:
    """Does a bitcast need tp_special.h's memcpy helper (no aliasing UB)? Only with a float
    side: same-width integers convert modularly, and so do 16-bit floats, held as bits."""
    if dtypes.is_half(src) or dtypes.is_half(out):
        return False
    return dtypes.is_float(src) or dtypes.is_float(out)


def _bitcast(args, loop, out):
    src = loop[0]
    if _bitcast_by_memcpy(src, out):
        return f"tp_bitcast_{TAG[src]}_{TAG[out]}({args[0]})"
    return f"({C_TYPE[out]}){args[0]}"    # same-width integers: modular conversion


def _special(name: str):
    def rule(args, loop, out):
        return f"tp_{name}_{TAG[loop[0]]}({args[0]})"
    return rule


def _true_divide(args, loop, out):
    return f"({args[0]} / {args[1]})"


OP_RULES = {
    "add": _wrapping("+"), "sub": _wrapping("-"), "mul": _wrapping("*"), "div": _true_divide,
    "floor_div": _helper("floor_div"), "rem": _helper("rem"), "pow": _pow,
    "max": _minmax("max"), "min": _minmax("min"), "atan2": _float_binary("atan2"),
    "eq": _compare("=="), "ne": _compare("!="), "lt": _compare("<"), "le": _compare("<="),
    "gt": _compare(">"), "ge": _compare(">="), "and": _bitwise("&"), "or": _bitwise("|"),
    "xor": _bitwise("^"), "shift_left": _helper("shift_left"),
    "shift_right": _helper("shift_right"),
    "neg": _neg, "abs": _abs, "sign": _sign, "exp": _exp, "exp2": _libm("exp2"),
    "expm1": _libm("expm1"), "log": _libm("log"), "log2": _libm("log2"),
    "log10": _libm("log10"), "log1p": _libm("log1p"), "sqrt": _libm("sqrt"),
    "sin": _libm("sin"), "cos": _libm("cos"), "tan": _libm("tan"), "asin": _libm("asin"),
    "acos": _libm("acos"), "atan": _libm("atan"), "sinh": _libm("sinh"),
    "cosh": _libm("cosh"), "tanh": _tanh, "floor": _integral_identity("floor"),
    "ceil": _integral_identity("ceil"), "round": _integral_identity("rint"),
    "trunc": _integral_identity("trunc"), "not": _not,
    "is_nan": _float_predicate("isnan"), "is_inf": _float_predicate("isinf"),
    "is_finite": _float_predicate("isfinite"), "reciprocal": _reciprocal,
    "asinh": _libm("asinh"), "acosh": _libm("acosh"), "atanh": _libm("atanh"),
    "cbrt": _libm("cbrt"), "signbit": _signbit, "hypot": _float_binary("hypot"),
    "copysign": _float_binary("copysign"), "fmax": _nan_ignoring_minmax("fmax"),
    "fmin": _nan_ignoring_minmax("fmin"), "logaddexp": _helper("logaddexp"),
    "logaddexp2": _helper("logaddexp2"), "nextafter": _float_binary("nextafter"),
    "erf": _libm("erf"), "erfc": _libm("erfc"), "erf_inv": _special("erf_inv"),
    "lgamma": _special("lgamma"), "digamma": _special("digamma"),
    "bitcast_convert_type": _bitcast,
}


# Operations whose C is a scalar libm call (no loop vectorises it): an element costs tens of
# simple operations' time, so a loop of them pays for a second thread at far fewer elements
# (c_render's parallel thresholds count elements). tanh and exp are not here: their helpers
# vectorise.
SCALAR_CALL_OPS = frozenset({
    "exp2", "expm1", "log", "log2", "log10", "log1p", "sin", "cos", "tan", "asin", "acos",
    "atan", "sinh", "cosh", "asinh", "acosh", "atanh", "cbrt", "atan2", "hypot",
    "pow", "erf", "erfc", "erf_inv", "lgamma", "digamma", "logaddexp", "logaddexp2"})


def is_scalar_call(name: str, loop_dtype) -> bool:
    """Does operation `name` on operands of `loop_dtype` render as a scalar libm call?"""
    return name in SCALAR_CALL_OPS and dtypes.is_inexact(loop_dtype)


# -- complex operands: every operation is a helper of runtime/include/tp_complex.h ----------

def _complex_helper(name: str):
    def rule(args, loop, out):
        return f"tp_{name}_{TAG[loop[0]]}({', '.join(args)})"
    return rule


def _complex_part(field: str):
    def rule(args, loop, out):
        return f"{args[0]}.{field}"
    return rule


# Primitives with a complex C rendering, for operands whose loop dtype is complex64 or
# complex128. A primitive missing here fails to render with a message naming complex.
COMPLEX_OP_RULES = {
    "add": _complex_helper("add"), "sub": _complex_helper("sub"),
    "mul": _complex_helper("mul"), "div": _complex_helper("div"),
    "pow": _complex_helper("pow"), "neg": _complex_helper("neg"),
    "conj": _complex_helper("conj"), "abs": _complex_helper("abs"),
    "exp": _complex_helper("exp"), "log": _complex_helper("log"),
    "sqrt": _complex_helper("sqrt"), "eq": _complex_helper("eq"), "ne": _complex_helper("ne"),
    "is_nan": _complex_helper("isnan"), "is_inf": _complex_helper("isinf"),
    "is_finite": _complex_helper("isfinite"), "reciprocal": _complex_helper("reciprocal"),
    "lt": _complex_helper("lt"), "le": _complex_helper("le"), "gt": _complex_helper("gt"),
    "ge": _complex_helper("ge"), "max": _complex_helper("max"), "min": _complex_helper("min"),
    "round": _complex_helper("rint"), "sign": _complex_helper("sign"),
    "fmax": _complex_helper("fmax"), "fmin": _complex_helper("fmin"),
    "real": _complex_part("re"),
    "imag": _complex_part("im"),
}
COMPLEX_OP_RULES.update({name: _complex_helper(name) for name in (
    "sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh", "asinh", "acosh",
    "atanh", "log1p", "expm1", "exp2", "log2", "log10")})


def _conj_real(args, loop, out):
    return args[0]          # the conjugate of a real number is itself


OP_RULES["conj"] = _conj_real


def op_rule(name: str, loop):
    """The C rendering of primitive `name` for these loop dtypes, or a clear error."""
    if any(dtypes.is_complex(dt) for dt in loop):
        rule = COMPLEX_OP_RULES.get(name)
        if rule is None:
            raise NotImplementedError(
                f"'{name}' on complex operands ({', '.join(str(d) for d in loop)}) has no C "
                "rendering yet; use backend='interpret' or compute on .real and .imag")
        return rule
    rule = OP_RULES.get(name)
    if rule is None:
        raise NotImplementedError(f"no C rendering for primitive '{name}'")
    return rule


# Helpers that live outside transpile.h. The renderer includes a header when it spells a type
# or an operation from it: `type_headers` and `op_headers` say which, from the dtype and the
# primitive (never from the C text).
# The runtime header that declares each whole-buffer helper (kernel_ir.HELPER_OPERATIONS),
# whose functions are spelled `tp_{operation}_{dtype tag}` (helper_function).
HELPER_HEADERS = {
    **{f"scatter_{mode}": "tp_scatter.h" for mode in ("set", "add", "mul", "min", "max")},
    **{name: "tp_linalg.h" for name in ("solve", "det", "slogdet", "cholesky", "qr_q", "qr_r")},
    "eigh": "tp_spectral.h", "svd": "tp_spectral.h",
    "fft_c2c": "tp_fft.h", "fft_r2c": "tp_fft.h", "fft_c2r": "tp_fft.h",
    "conv": "tp_conv.h", "eig": "tp_eig.h",
}


def helper_function(operation: str, dt) -> str:
    """The C name of a whole-buffer helper on elements of `dt` (`tp_scatter_add_f64`)."""
    return f"tp_{operation}_{TAG[dt]}"


COMPLEX_HEADER = "tp_complex.h"
SPECIAL_HEADER = "tp_special.h"
TANH_HEADER = "tp_tanh.h"
HALF_HEADER = "tp_half.h"
_SPECIAL_FUNCTIONS = frozenset({"erf_inv", "lgamma", "digamma"})     # see _special


def type_headers(dt) -> tuple[str, ...]:
    """Headers declaring the C type of `dt` (the complex structs, the 16-bit floats and their
    conversions)."""
    if dtypes.is_half(dt):
        return (HALF_HEADER,)
    return (COMPLEX_HEADER,) if dtypes.is_complex(dt) else ()


def op_headers(name: str, loop, out) -> tuple[str, ...]:
    """Headers declaring the helpers `op_rule(name, loop)` calls for an `out` result."""
    if any(dtypes.is_complex(dt) for dt in loop) or dtypes.is_complex(out):
        return (COMPLEX_HEADER,)
    if name == "tanh" and loop[0] in (dtypes.float32, dtypes.float64):     # see _tanh
        return (TANH_HEADER,)
    if name in _SPECIAL_FUNCTIONS or \
            (name == "bitcast_convert_type" and _bitcast_by_memcpy(loop[0], out)):
        return (SPECIAL_HEADER,)
    return ()


def render_cast(value: str, src: np.dtype, dst: np.dtype) -> str:
    """C text converting `value` from `src` to `dst` with NumPy's (defined) results."""
    if dtypes.is_half(src) or dtypes.is_half(dst):
        return _render_half_cast(value, np.dtype(src), np.dtype(dst))
    if dtypes.is_complex(src) or dtypes.is_complex(dst):
        return _render_complex_cast(value, src, dst)
    if dst == dtypes.bool_:
        return f"({value} != 0)"
    if src == dtypes.bool_ and dtypes.is_float(dst):
        # The same 0 or 1 as `(double)b`, which gcc 12 does not vectorise (a mask's count).
        return f"({value} ? {render_literal(1, dst)} : {render_literal(0, dst)})"
    if dtypes.is_float(src) and dtypes.is_int(dst):
        return f"tp_cast_f64_{TAG[dst]}((double){value})"
    return f"({C_TYPE[dst]}){value}"


def _render_half_cast(value: str, src: np.dtype, dst: np.dtype) -> str:
    """Casts into and out of the 16-bit floats go through float32, which holds every 16-bit
    value exactly and every integer they can represent; float64 -> float16 rounds once, from
    the double (tp_f64_to_f16), as NumPy does. JAX rounds through float32 there:
    passes/half_float.py spells that cast as two under JAX's rules."""
    if src == dst:
        return value
    if dtypes.is_half(src):
        wide = f"tp_{TAG[src]}_to_f32({value})"
        return wide if dst == dtypes.float32 else render_cast(wide, dtypes.float32, dst)
    if src == dtypes.float64 and dst == dtypes.float16:
        return f"tp_f64_to_f16({value})"
    wide = value if src == dtypes.float32 else render_cast(value, src, dtypes.float32)
    return f"tp_f32_to_{TAG[dst]}({wide})"


def _render_complex_cast(value: str, src: np.dtype, dst: np.dtype) -> str:
    """Real -> complex: a zero imaginary part. Complex -> real: the real part (as NumPy,
    which warns, and JAX). Complex -> bool: either part nonzero."""
    if not dtypes.is_complex(dst):
        if dst == dtypes.bool_:
            return f"({value}.re != 0 || {value}.im != 0)"
        return render_cast(f"{value}.re", dtypes.COMPLEX_PART[src], dst)
    part = dtypes.COMPLEX_PART[dst]
    if dtypes.is_complex(src):
        return f"tp_make_{TAG[dst]}(({C_TYPE[part]}){value}.re, ({C_TYPE[part]}){value}.im)"
    zero = _float_literal(0.0, part)
    return f"tp_make_{TAG[dst]}({render_cast(value, src, part)}, {zero})"


def render_literal(value, dt: np.dtype) -> str:
    if dtypes.is_half(dt):          # its bit pattern, as NumPy (or ml_dtypes) rounds it
        with np.errstate(all="ignore"):
            bits = np.asarray(value).astype(dt).view(np.uint16).item()
        return f"(({C_TYPE[dt]})0x{bits:04x}u)"
    if dtypes.is_complex(dt):
        part, z = dtypes.COMPLEX_PART[dt], complex(value)
        return f"tp_make_{TAG[dt]}({_float_literal(z.real, part)}, {_float_literal(z.imag, part)})"
    if dt == dtypes.bool_:
        return "true" if value else "false"
    if dtypes.is_float(dt):
        return _float_literal(float(value), dt)
    bits = 8 * dt.itemsize
    v = int(value) % 2 ** bits                      # the value as the dtype holds it
    if dt in dtypes.SIGNED and v >= 2 ** (bits - 1):
        v -= 2 ** bits
    # A 64-bit literal is written in a 64-bit C type whatever its value: C gives `1u` and
    # `1` 32 bits, and an operator applied to the literal itself (`~1u` is 4294967294) would
    # compute in them (issue 20).
    if dt in dtypes.UNSIGNED:
        return f"UINT64_C({v})" if bits == 64 or v > 2**31 - 1 else f"{v}u"
    if v == -2**63:
        return "INT64_MIN"
    if bits < 64 and -2**31 < v < 2**31:
        return str(v) if v >= 0 else f"({v})"
    return f"INT64_C({v})" if v >= 0 else f"(INT64_C({v}))"


def _float_literal(v: float, dt: np.dtype) -> str:
    f32 = _is_f32(dt)
    with np.errstate(over="ignore"):
        v = float(np.float32(v)) if f32 else v       # a float32 overflow is inf, as in NumPy
    if np.isnan(v):
        return "NAN" if f32 else "(double)NAN"
    if np.isinf(v):
        inf = "INFINITY" if f32 else "(double)INFINITY"
        return inf if v > 0 else f"(-{inf})"
    # The shortest decimal that reads back as the same value in its own type: `0.9f`, as
    # the user wrote it, not float64's spelling of the float32 nearest to it
    # (`0.89999997615814209f`). C rounds a float constant straight to float, so both read
    # back as the same bits.
    text = str(np.float32(v)) + "f" if f32 else repr(v)
    return f"({text})" if text.startswith("-") else text
