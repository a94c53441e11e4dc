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


def check_precision(precision, what: str):
    """None, a Precision, one of its spellings, or a pair of those (lhs, rhs): as a
    Precision (or pair); anything else raises, naming the argument."""
    if precision is None or isinstance(precision, Precision):
        return precision
    if isinstance(precision, (tuple, list)) and len(precision) == 2:
        return tuple(check_precision(p, what) for p in precision)
    try:
        return Precision(precision)
    except ValueError:
        raise ValueError(f"{what}: precision={precision!r} is not a precision; use None, "
                         f"lax.Precision.DEFAULT/HIGH/HIGHEST, one of {sorted(_SPELLINGS)}, "
                         "or a pair of them") from None
