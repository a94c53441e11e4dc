"""eig and eigvals (general square matrices, real or complex) and roots (the eigenvalues of
a polynomial's companion matrix), with JAX's signatures and dtypes: the results are complex,
complex64 from float32 or complex64 operands and complex128 otherwise (complex64 under
JAX's rules without x64, where integers compute as float32).

The primitive `eig` (rules/eig.py) is lowered to runtime/include/tp_eig.h (Hessenberg
reduction, then shifted complex QR); its packed result is sliced here. Eigenvectors have
unit 2-norm and a real positive largest component, as LAPACK's geev (which JAX calls);
eigenvalues come in the order the Schur form holds them, which may differ from LAPACK's.
"""
from __future__ import annotations

from collections import namedtuple

import numpy as np

from .. import dtypes
from .. import primitives as P
from ..core import Tracer, aval_of
from ..errors import ConcretizationError
from . import _elementwise as E
from ..base.operands import astype, operand, reshape, shape_of

EigResult = namedtuple("EigResult", ["eigenvalues", "eigenvectors"])


def _operand_matrices(what, a):
    a = operand(a)
    dt = aval_of(a).dtype
    if dtypes.is_complex(dt):
        target = dt
    elif dt in (dtypes.float32, dtypes.float64):
        target = dt
    elif dtypes.is_float(dt):                  # float16, bfloat16: computed in float32
        target = dtypes.float32
    else:
        target = dtypes.float_for_integers(dt)
    a = astype(a, target)
    s = shape_of(a)
    if len(s) < 2 or s[-1] != s[-2]:
        raise ValueError(f"{what}: the last two dimensions must be square, got shape {s}")
    return a


def _packed(a):
    from .linalg import _bind
    return _bind(P.eig, a)


def eig(a):
    """(eigenvalues, right eigenvectors as columns) of each square matrix."""
    a = _operand_matrices("eig", a)
    s = shape_of(a)
    n = s[-1]
    packed = _packed(a)
    w = reshape(packed[..., 0:1, :], s[:-1])
    v = packed[..., 1:n + 1, :]
    return EigResult(w, v)


def eigvals(a):
    """The eigenvalues of each square matrix."""
    a = _operand_matrices("eigvals", a)
    s = shape_of(a)
    return reshape(_packed(a)[..., 0:1, :], s[:-1])


def _companion_roots(p):
    """The roots of p[0] x^(n-1) + ... + p[n-1] (p[0] != 0): its companion matrix's
    eigenvalues."""
    from ._creation import eye
    from ._manipulation import concatenate
    n = shape_of(p)[0]
    if n < 2:
        return astype(np.zeros((0,)), _complex_of(aval_of(p).dtype))
    first = reshape(E.negative(E.divide(p[1:], p[0])), (1, n - 1))
    below = eye(n - 2, n - 1, dtype=aval_of(p).dtype)
    return eigvals(concatenate([first, below], axis=0))


def _complex_of(dt):
    return np.result_type(dt, np.complex64)


def roots(p, *, strip_zeros=True):
    """The roots of the polynomial with coefficients p (highest power first). Leading zeros
    are stripped (which needs p's values: under jit pass strip_zeros=False, and the roots
    they would remove are NaN instead, last)."""
    from ._polynomial import _promoted
    from ._manipulation import atleast_1d, roll
    from ._reductions import all as all_, argmin
    (p,) = _promoted(p, inexact=True)
    p = atleast_1d(p)
    if len(shape_of(p)) != 1:
        raise ValueError("Input must be a rank-1 array.")
    n = shape_of(p)[0]
    if n < 2:
        return astype(np.zeros((0,)), _complex_of(aval_of(p).dtype))
    is_zero = E.equal(p, 0)
    leading = E.where(all_(is_zero), n, argmin(is_zero))
    if strip_zeros:
        if isinstance(leading, Tracer):
            raise ConcretizationError(
                "jnp.roots needs the coefficients' values to strip leading zeros. To use it "
                "within a jit-compiled function, pass strip_zeros=False, but be aware that "
                "leading zeros will result in some returned roots being set to NaN.")
        return _companion_roots(p[int(leading):])
    p = E.where(E.equal(leading, n), 1.0, p)        # all zero: any stand-in, all NaN below
    found = _companion_roots(roll(p, E.negative(leading)))
    found = _zero_roots_last(found)
    keep = E.less(np.arange(n - 1), (n - 1) - leading)
    return E.where(keep, found, astype(complex(np.nan, np.nan), aval_of(found).dtype))


def _zero_roots_last(r):
    """The roots with the exact zeros (which the rolled-in zero coefficients add) moved to
    the end, the others in their order."""
    from ._sorting import argsort
    order = argsort(astype(E.equal(r, 0), dtypes.int32), stable=True)
    return r[order]
