"""Shape, dtype and reference values of `eig`: the eigen-decomposition of general square
matrices (runtime/include/tp_eig.h computes it in C).

The operand (..., n, n) is float32/float64/complex64/complex128; the result is one packed
complex buffer (..., 2n + 1, n) of the operand's precision: row 0 the eigenvalues, rows
1..n the right eigenvectors as columns (unit 2-norm, largest component real and positive),
rows n+1..2n the inverse of that matrix (which differentiation needs). The reference here
is NumPy's (LAPACK's geev), whose eigenvalue order may differ from the C helper's.
"""
from __future__ import annotations

import numpy as np

from .. import dtypes
from ..core import ShapedArray

_COMPLEX_OF = {dtypes.float32: dtypes.complex64, dtypes.float64: dtypes.complex128,
               dtypes.complex64: dtypes.complex64, dtypes.complex128: dtypes.complex128}


def eig_abstract(a):
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        raise ValueError(f"eig: needs square matrices in the last two axes, got shape "
                         f"{a.shape}")
    if a.dtype not in _COMPLEX_OF:
        raise TypeError(f"eig: needs float32, float64, complex64 or complex128 matrices, got "
                        f"{a.dtype}")
    n = a.shape[-1]
    return ShapedArray(a.shape[:-2] + (2 * n + 1, n), _COMPLEX_OF[a.dtype])


def _normalised(v):
    """Columns of unit 2-norm whose largest component (the first such) is real, positive."""
    v = v / np.linalg.norm(v, axis=-2, keepdims=True)
    big = np.argmax(np.abs(v), axis=-2)[..., None, :]
    lead = np.take_along_axis(v, big, axis=-2)
    return v * (np.conj(lead) / np.abs(lead))


def eig_impl(avals, a):
    a = np.asarray(a)
    out_dt = _COMPLEX_OF[a.dtype]
    n = a.shape[-1]
    if n == 0:
        return np.zeros(a.shape[:-2] + (1, 0), out_dt)
    with np.errstate(all="ignore"):
        try:
            w, v = np.linalg.eig(a.astype(np.complex128))
            v = _normalised(v)
            inverse = np.linalg.inv(v)
        except np.linalg.LinAlgError:
            return np.full(a.shape[:-2] + (2 * n + 1, n), np.nan + 0j, out_dt)
    return np.concatenate([w[..., None, :], v, inverse], axis=-2).astype(out_dt)
