"""The 16-bit floats: float16 (NumPy's) and bfloat16 (ml_dtypes', as JAX uses).

Importing ml_dtypes costs a fifth of a second, and only whoever holds a bfloat16 array needs
it (and has imported it already), so transpile never imports it on its own: a dtype is
bfloat16 when ml_dtypes is loaded and the dtype is its bfloat16. Its NumPy kind is 'V' (NumPy
has no float kind for it), so code asks dtypes.is_float/is_inexact/kind rather than reading
dtype.kind.
"""
from __future__ import annotations

import sys

import numpy as np

float16 = np.dtype(np.float16)


def bfloat16_or_none() -> np.dtype | None:
    """ml_dtypes' bfloat16 when ml_dtypes is loaded, else None (never imports it)."""
    ml = sys.modules.get("ml_dtypes")
    return np.dtype(ml.bfloat16) if ml is not None else None


def require_bfloat16() -> np.dtype:
    """ml_dtypes' bfloat16, imported on demand (tnp.bfloat16), or an error naming the fix."""
    try:
        import ml_dtypes
    except ImportError:
        raise ImportError("bfloat16 needs the ml_dtypes package (as JAX uses): "
                          "pip install ml_dtypes") from None
    return np.dtype(ml_dtypes.bfloat16)


def is_bfloat16(dtype) -> bool:
    return getattr(dtype, "name", None) == "bfloat16" and dtype == bfloat16_or_none()


def is_half(dtype) -> bool:
    """float16 or bfloat16: stored as 16-bit patterns, computed in float32 and rounded back."""
    return dtype == float16 or is_bfloat16(dtype)
