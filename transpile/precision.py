"""`lax.Precision`: the precision a matrix product asks of the hardware, as JAX's enum.

On accelerators JAX trades float32 accuracy for speed below HIGHEST (bfloat16 passes). The
generated C computes every product in the operands' (or `preferred_element_type`'s) own
precision whatever is asked, so `precision=` is accepted, checked and otherwise changes no
result on the CPU (nor, today, in the CUDA backend's products).
"""
from __future__ import annotations

import enum

# The string spellings JAX accepts for each member (the names of the passes they stand for).
_SPELLINGS = {"default": "DEFAULT", "fastest": "DEFAULT", "bfloat16": "DEFAULT",
              "high": "HIGH", "bfloat16_3x": "HIGH", "tensorfloat32": "HIGH",
              "highest": "HIGHEST", "float32": "HIGHEST"}


class Precision(enum.Enum):
    DEFAULT = 0
    HIGH = 1
    HIGHEST = 2

    @classmethod
    def _missing_(cls, value):
        if isinstance(value, str) and value.lower() in _SPELLINGS:
            return cls[_SPELLINGS[value.lower()]]
        return None

    def __str__(self):
        return self.name


class DotAlgorithmPreset(enum.Enum):
    """JAX's named dot algorithms (input, input and accumulation types). Accepted wherever a
    `precision=` is; the C computes in the operands' (or preferred_element_type's) dtype."""
    DEFAULT = 1
    ANY_F8_ANY_F8_F32 = 2
    ANY_F8_ANY_F8_F32_FAST_ACCUM = 3
    ANY_F8_ANY_F8_ANY = 4
    ANY_F8_ANY_F8_ANY_FAST_ACCUM = 5
    F16_F16_F16 = 6
    F16_F16_F32 = 7
    BF16_BF16_BF16 = 8
    BF16_BF16_F32 = 9
    BF16_BF16_F32_X3 = 10
    BF16_BF16_F32_X6 = 11
    BF16_BF16_F32_X9 = 12
    TF32_TF32_F32 = 13
    TF32_TF32_F32_X3 = 14
    F32_F32_F32 = 15
    F64_F64_F64 = 16

    def __str__(self):
        return self.name


def check_precision(precision, what: str):
    """None, a Precision, one of its spellings, or a pair of those (lhs, rhs): as a
    Precision (or pair); a DotAlgorithmPreset (or its name) as itself; anything else raises,
    naming the argument."""
    if precision is None or isinstance(precision, (Precision, DotAlgorithmPreset)):
        return precision
    if isinstance(precision, str) and precision.upper() in DotAlgorithmPreset.__members__ \
            and precision.lower() not in _SPELLINGS:
        return DotAlgorithmPreset[precision.upper()]
    if isinstance(precision, (tuple, list)) and len(precision) == 2:
        return tuple(check_precision(p, what) for p in precision)
    try:
        return Precision(precision)
    except ValueError:
        raise ValueError(f"{what}: precision={precision!r} is not a precision; use None, "
                         f"lax.Precision.DEFAULT/HIGH/HIGHEST, one of {sorted(_SPELLINGS)}, "
                         "or a pair of them") from None
