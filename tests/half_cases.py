"""The float16/bfloat16 cases shared by the recorder (tools/record_jax_half.py, run with JAX)
and the checks (tests/test_half.py, run with transpile): edge inputs built from each format's
layout, and the single operations applied to them. `call(mod, *operands)` spells a case for
`mod`, which is jax.numpy or transpile.numpy. JAX fuses chains of float16 operations and
keeps float32 between them (XLA's excess precision), so every case is one operation: that is
where JAX, NumPy and transpile (which rounds after every operation, as NumPy does) agree."""
from __future__ import annotations

import math

# (significand bits after the point, smallest normal exponent, largest finite value)
FORMATS = {"float16": (10, -14, 65504.0), "bfloat16": (7, -126, 3.3895313892515355e38)}
HALF_NAMES = tuple(FORMATS)


def edge_pairs(name: str) -> tuple[list[float], list[float]]:
    """(x, y): operands whose elementwise sums, products and quotients hit each rounding edge
    of the format: ties to even (down and up), overflow to inf by rounding, subnormals and
    their ties, signed zeros, NaN, infinities. Every value is exact in the format."""
    mant, emin, big = FORMATS[name]
    ulp1 = 2.0 ** -mant                   # the spacing just above 1
    tiny = 2.0 ** emin                    # smallest normal
    sub = 2.0 ** (emin - mant)            # smallest subnormal
    half_ulp_big = 2.0 ** (math.frexp(big)[1] - 1 - mant - 1)   # half the spacing at `big`
    inf, nan = math.inf, math.nan
    pairs = [
        (1.0, ulp1 / 2),                  # tie: 1 + half an ulp rounds down to even 1
        (1.0 + ulp1, ulp1 / 2),           # tie: rounds up to the even 1 + 2 ulp
        (big, half_ulp_big),              # tie past the largest finite value: inf
        (big, -half_ulp_big),             # back inside: stays finite
        (-big, -big),                     # overflow of a sum: -inf
        (tiny, 0.5),                      # normal to subnormal
        (sub, 0.5),                       # half the smallest subnormal: a tie to 0
        (3 * sub, 0.5),                   # 1.5 subnormals: a tie to 2
        (sub, -sub),                      # exact zero
        (0.0, -0.0), (-0.0, -0.0), (-0.0, 1.0),
        (nan, 1.0), (1.0, nan), (inf, -inf), (inf, inf), (-inf, 2.0), (inf, 0.0),
        (2.5, -1.5), (-2.5, 1.5), (3.0, 0.75), (0.5, 3.0), (100.0, 7.0), (-7.0, 100.0),
        (0.3330078125, 3.0), (1.5, 1.5), (-1.0, 0.0), (1024.0, 0.0625),
    ]
    return [p[0] for p in pairs], [p[1] for p in pairs]


def finite_values(name: str) -> list[float]:
    """Moderate finite values for reductions, products and dot (no NaN or inf to hide in)."""
    mant = FORMATS[name][0]
    return [1.0, 2.0 ** -mant, -3.5, 0.75, 10.0, -0.125, 2.25, 1.0 + 2.0 ** -mant,
            -6.0, 0.3330078125, 5.5, -1.75, 0.0625, 8.0, -2.0, 3.0]


UNARY = ["negative", "abs", "sign", "exp", "log", "sqrt", "sin", "cos", "tanh", "floor",
         "ceil", "rint", "trunc", "expm1", "log1p", "reciprocal", "square", "isnan", "isinf",
         "isfinite", "signbit", "arctan", "exp2", "log2"]
# Transcendental ones: JAX's float32 kernels and the C library may differ by an ulp in float32,
# which can move the rounded 16-bit result by one step.
TRANSCENDENTAL = {"exp", "log", "sin", "cos", "tanh", "expm1", "log1p", "arctan", "exp2",
                  "log2", "arctan2", "power", "logaddexp", "hypot"}
BINARY = ["add", "subtract", "multiply", "divide", "maximum", "minimum", "power", "arctan2",
          "floor_divide", "remainder", "hypot", "less", "equal", "greater_equal", "copysign",
          "fmax", "fmin", "logaddexp"]
REDUCTIONS = ["sum", "prod", "max", "min", "mean", "argmax", "argmin", "cumsum"]
CAST_TARGETS = ["float32", "float64", "int32", "int8", "uint8", "bool", "float16", "bfloat16",
                "complex64"]


def cast_sources(name: str) -> dict[str, list]:
    """Values of other dtypes cast into the format: ties, overflow, NaN and, from float64, a
    value just past a tie (float64 -> float32 -> 16 bits would round it twice)."""
    mant, emin, big = FORMATS[name]
    ulp1 = 2.0 ** -mant
    return {
        "float32": [1.0 + ulp1 / 2, 1.0 + 1.5 * ulp1, big * 1.001, -big * 1.001, 2.0 ** (emin - mant - 1),
                    math.nan, -math.inf, -0.0, 0.1, 1e-3],
        "float64": [1.0 + ulp1 / 2 + 2.0 ** -40, 1.0 + ulp1 / 2, 0.1, big * 2, math.nan,
                    -0.0, 1e-30, 123.456],
        "int32": [0, 1, -1, 2049, 2051, 65519, 65520, -70000, 16777217, 257],
        "uint8": [0, 1, 255, 128],
        "bool": [True, False],
    }
