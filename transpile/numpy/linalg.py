"""`transpile.numpy.linalg`: norms and the dense factorizations NumPy users reach for.

`solve`, `inv`, `det`, `slogdet`, `cholesky` and `qr` are primitives lowered to run-time
helpers (runtime/include/tp_linalg.h: LU with partial pivoting, Cholesky, Householder QR),
batched over leading axes, in float32 or float64 (other dtypes promote to float64, as in
NumPy). Complex `solve` and `inv` solve the equivalent real system of twice the size
([[Re A, -Im A], [Im A, Re A]]), through the same helper. As JAX does under jit, a singular or non-positive-definite input gives inf/NaN
results rather than LinAlgError. Norms are reductions. `eigh` and `svd` (and what is built
on them: eigvalsh, svdvals, pinv, lstsq, matrix_rank, the 2/-2/'nuc' matrix norms, cond)
use Jacobi rotations (runtime/include/tp_spectral.h); see _spectral.py.
"""
from __future__ import annotations

import operator
from collections import namedtuple

import numpy as np

from .. import dtypes
from .. import primitives as P
from ..core import aval_of, bind
from . import _elementwise as E
from ._matmul import matmul
from ._matrices import tensordot
from ._reductions import max as _max, min as _min, sum as _sum
from ._manipulation import swapaxes
from ._shape import concatenate, transpose
from ._complex import imag, real
from ..base.operands import astype, broadcast_to, normalize_axis, operand, reshape, shape_of

SlogdetResult = namedtuple("SlogdetResult", ["sign", "logabsdet"])
QRResult = namedtuple("QRResult", ["Q", "R"])


def _as_float(a, *others):
    """NumPy's linalg dtype: float32 stays, everything else computes in float64."""
    a = operand(a)
    dts = [aval_of(x).dtype for x in (a,) + others]
    if any(dtypes.is_complex(d) for d in dts):
        raise NotImplementedError("transpile.numpy.linalg does not support complex matrices "
                                  f"yet (got {', '.join(map(str, dts))})")
    dt = dtypes.float32 if all(d == dtypes.float32 for d in dts) else dtypes.float64
    return astype(a, dt)


def _bind(prim, *args, **params):
    """bind, except that an empty input's result (which depends on no value) is a constant:
    a helper call on empty buffers would only read memory nobody wrote."""
    if all(aval_of(a).size for a in args):
        return bind(prim, *args, **params)
    from ..rules.impl import impl_rules
    avals = [aval_of(a) for a in args]
    return impl_rules[prim.name](avals, *(np.zeros(v.shape, v.dtype) for v in avals), **params)


def _square(what, a):
    s = shape_of(a)
    if len(s) < 2 or s[-1] != s[-2]:
        raise np.linalg.LinAlgError(f"{what}: last 2 dimensions of the array must be square, "
                                    f"got shape {s}")


def _is_complex(*xs) -> bool:
    return any(dtypes.is_complex(aval_of(operand(x)).dtype) for x in xs)


def _complex_solve(a, b):
    """solve for complex operands, as the real system [[Ar, -Ai], [Ai, Ar]] [xr; xi] = [br; bi]:
    partial pivoting on it is as stable as on A (same singular values), and it needs no
    complex factorization in the runtime (twice NumPy's complex LU flops, at these sizes
    a fair trade for one helper fewer)."""
    single = all(aval_of(operand(x)).dtype in (dtypes.complex64, dtypes.float32) for x in (a, b))
    a = astype(operand(a), dtypes.complex64 if single else dtypes.complex128)
    b = astype(operand(b), aval_of(a).dtype)
    vector = len(shape_of(b)) == 1
    if vector:
        b = reshape(b, shape_of(b) + (1,))
    ar, ai = real(a), imag(a)
    block = concatenate([concatenate([ar, E.negative(ai)], axis=-1),
                         concatenate([ai, ar], axis=-1)], axis=-2)
    x = solve(block, concatenate([real(b), imag(b)], axis=-2))
    n = shape_of(a)[-1]
    x = E.add(astype(x[..., :n, :], aval_of(a).dtype), E.multiply(x[..., n:, :], 1j))
    return reshape(x, shape_of(x)[:-1]) if vector else x


def solve(a, b):
    a, b = operand(a), operand(b)
    if _is_complex(a, b):
        _square("solve", a)
        return _complex_solve(a, b)
    a, b = _as_float(a, b), _as_float(b, a)
    _square("solve", a)
    sa, sb = shape_of(a), shape_of(b)
    vector = len(sb) == 1
    if vector:
        b = reshape(b, sb + (1,))
    if shape_of(b)[-2] != sa[-1]:
        raise ValueError(f"solve: a of shape {sa} and b of shape {sb} do not match (b needs "
                         f"{sa[-1]} rows)")
    try:
        batch = np.broadcast_shapes(sa[:-2], shape_of(b)[:-2])
    except ValueError:
        raise ValueError(f"solve: the batch dimensions of a {sa} and b {sb} do not "
                         "broadcast") from None
    x = _bind(P.linalg_solve, broadcast_to(a, batch + sa[-2:]),
             broadcast_to(b, batch + shape_of(b)[-2:]))
    return reshape(x, batch + sa[-1:]) if vector else x


def inv(a):
    a = operand(a)
    if _is_complex(a):
        _square("inv", a)
        n = shape_of(a)[-1]
        return solve(a, broadcast_to(np.eye(n, dtype=aval_of(a).dtype), shape_of(a)))
    a = _as_float(a)
    _square("inv", a)
    n = shape_of(a)[-1]
    return solve(a, broadcast_to(np.eye(n, dtype=aval_of(a).dtype), shape_of(a)))


def det(a):
    a = _as_float(a)
    _square("det", a)
    return _bind(P.linalg_det, a)


def slogdet(a):
    a = _as_float(a)
    _square("slogdet", a)
    both = _bind(P.linalg_slogdet, a)
    return SlogdetResult(both[..., 0], both[..., 1])


def cholesky(a, *, upper=False):
    a = _as_float(a)
    _square("cholesky", a)
    lower = _bind(P.cholesky, a)
    return swapaxes(lower, -1, -2) if upper else lower


def qr(a, mode="reduced"):
    a = _as_float(a)
    if len(shape_of(a)) < 2:
        raise np.linalg.LinAlgError(f"qr: needs at least 2 dimensions, got shape {shape_of(a)}")
    if mode not in ("reduced", "complete", "r"):
        raise NotImplementedError(f"qr: mode={mode!r} is not supported (use 'reduced', "
                                  "'complete' or 'r')")
    complete = mode == "complete"
    r = _bind(P.qr_r, a, complete=complete)
    if mode == "r":
        return r
    return QRResult(_bind(P.qr_q, a, complete=complete), r)


def matrix_power(a, n):
    """a @ a @ ... (n times, by repeated squaring; n static); a negative n inverts first."""
    a = operand(a)
    _square("matrix_power", a)
    n = operator.index(n)
    if n < 0:
        a, n = inv(a), -n
    result, base = None, a
    while n:
        if n & 1:
            result = base if result is None else matmul(result, base)
        n >>= 1
        if n:
            base = matmul(base, base)
    if result is None:                  # n == 0: the identity, in a's dtype
        return broadcast_to(np.eye(shape_of(a)[-1], dtype=aval_of(a).dtype), shape_of(a))
    return result


# -- norms -----------------------------------------------------------------------------------

_SVD_ORDS = (2, -2, "nuc")


def norm(x, ord=None, axis=None, keepdims=False):
    x = operand(x)
    if not dtypes.is_float(aval_of(x).dtype):
        x = astype(x, dtypes.float64)
    nd = len(shape_of(x))
    if axis is None:
        if ord is None or (ord in ("f", "fro") and nd == 2):
            out = E.sqrt(_sum(E.multiply(x, x)))
            return reshape(out, (1,) * nd) if keepdims else out
        if nd not in (1, 2):
            raise ValueError(f"norm: ord={ord!r} needs a 1-d or 2-d array (or axis=), got "
                             f"shape {shape_of(x)}")
        axis = tuple(range(nd))
    axes = (axis,) if isinstance(axis, (int, np.integer)) else tuple(axis)
    axes = tuple(normalize_axis(a, nd) for a in axes)
    if len(axes) == 1:
        out = _vector_norm(x, ord, axes[0])
    elif len(axes) == 2:
        if axes[0] == axes[1]:
            raise ValueError("norm: duplicate axes given")
        out = _matrix_norm(x, ord, *axes)
    else:
        raise ValueError(f"norm: improper number of dimensions to norm: axis={axis!r}")
    if keepdims:
        out = reshape(out, tuple(1 if d in axes else n for d, n in enumerate(shape_of(x))))
    return out


def _vector_norm(x, ord, axis):
    a = E.abs(x)
    if ord is None or ord == 2:
        return E.sqrt(_sum(E.multiply(x, x), axis=axis))
    if ord == np.inf:
        return _max(a, axis=axis)
    if ord == -np.inf:
        return _min(a, axis=axis)
    if ord == 0:
        return _sum(astype(E.not_equal(x, 0), aval_of(x).dtype), axis=axis)
    if ord == 1:
        return _sum(a, axis=axis)
    if isinstance(ord, str):
        raise ValueError(f"norm: invalid norm order {ord!r} for vectors")
    dt = aval_of(x).dtype
    total = _sum(E.power(a, astype(np.asarray(ord), dt)), axis=axis)
    return E.power(total, astype(np.asarray(1.0 / ord), dt))


def _matrix_norm(x, ord, row, col):
    if ord in _SVD_ORDS:
        rest = [d for d in range(len(shape_of(x))) if d not in (row, col)]
        s = svdvals(transpose(x, rest + [row, col]))
        return _sum(s, axis=-1) if ord == "nuc" else (_max if ord == 2 else _min)(s, axis=-1)
    a = E.abs(x)
    if ord in (None, "fro", "f"):
        return E.sqrt(_sum(E.multiply(x, x), axis=(row, col)))
    if ord in (1, -1):
        reduce = _max if ord == 1 else _min
        return reduce(_sum(a, axis=row), axis=col - 1 if col > row else col)
    if ord in (np.inf, -np.inf):
        reduce = _max if ord == np.inf else _min
        return reduce(_sum(a, axis=col), axis=row - 1 if row > col else row)
    raise ValueError(f"norm: invalid norm order {ord!r} for matrices")


# -- the array-API names NumPy 2 also puts in linalg ------------------------------------------

def matrix_transpose(x):
    x = operand(x)
    if len(shape_of(x)) < 2:
        raise ValueError(f"matrix_transpose: needs at least 2 dimensions, got shape "
                         f"{shape_of(x)}")
    return swapaxes(x, -1, -2)


def diagonal(x, *, offset=0):
    from ._matrices import diagonal as _diagonal
    return _diagonal(x, offset, -2, -1)


def trace(x, *, offset=0, dtype=None):
    from ._matrices import trace as _trace
    return _trace(x, offset, -2, -1, dtype)


def outer(x1, x2):
    from ._matrices import outer as _outer
    for x in (x1, x2):
        if len(shape_of(operand(x))) != 1:
            raise ValueError(f"linalg.outer: needs 1-d inputs, got shapes "
                             f"{shape_of(operand(x1))} and {shape_of(operand(x2))}")
    return _outer(x1, x2)


def vecdot(x1, x2, /, *, axis=-1, precision=None, preferred_element_type=None):
    """The array API's (and JAX's) vector dot product along `axis` of each operand: the
    axes are moved last before the other axes broadcast, x1 is conjugated, and the result
    keeps the operands' joint dtype (or `preferred_element_type`; `precision` is JAX's
    argument and changes nothing on the CPU)."""
    from ..precision import check_precision
    from ._shape import moveaxis
    check_precision(precision, "vecdot")
    x1, x2 = operand(x1), operand(x2)
    n1, n2 = shape_of(x1)[axis], shape_of(x2)[axis]
    if n1 != n2:
        raise ValueError(f"vecdot: shapes {shape_of(x1)} and {shape_of(x2)} differ along "
                         f"axis {axis}")
    x1, x2 = moveaxis(x1, axis, -1), moveaxis(x2, axis, -1)
    if preferred_element_type is not None:
        target = dtypes.canonicalize(preferred_element_type)
        x1, x2 = astype(x1, target), astype(x2, target)
    product = E.multiply(E.conj(x1), x2)
    return _sum(product, axis=-1, dtype=aval_of(product).dtype)


def vector_norm(x, *, axis=None, keepdims=False, ord=2):
    x = operand(x)
    if axis is None:
        flat = reshape(x, (-1,))
        out = norm(flat, ord, 0)
        return reshape(out, (1,) * len(shape_of(x))) if keepdims else out
    return norm(x, ord, axis, keepdims)


def matrix_norm(x, *, keepdims=False, ord="fro"):
    return norm(x, ord, (-2, -1), keepdims)


def multi_dot(arrays):
    """a @ b @ c ..., left to right (NumPy may choose another order: equal up to rounding)."""
    arrays = [operand(a) for a in arrays]
    if len(arrays) < 2:
        raise ValueError("multi_dot: needs at least two arrays")
    out = arrays[0]
    for a in arrays[1:]:
        out = matmul(out, a)
    return out


def cond(x, p=None):
    """The condition number: the ratio of extreme singular values for p = None, 2, -2;
    otherwise norm(x, p) * norm(inv(x), p)."""
    x = operand(x)
    if p in (None, 2, -2):
        s = svdvals(x)
        big, small = _max(s, axis=-1), _min(s, axis=-1)
        return E.divide(big, small) if p != -2 else E.divide(small, big)
    return E.multiply(norm(x, p, (-2, -1)), norm(inv(x), p, (-2, -1)))


from ._spectral import (EighResult, SVDResult, eigh, eigvalsh, lstsq,  # noqa: E402
                              matrix_rank, pinv, svd, svdvals)

from ._tensor_solve import cross, tensorinv, tensorsolve  # noqa: E402
from ._eig import EigResult, eig, eigvals  # noqa: E402,F401

from ..eager_results import install as _install_eager_results  # noqa: E402

# Eagerly, results are EagerArrays however they were made (eager_results.py).
_install_eager_results(globals(), (__name__, "transpile.numpy._spectral",
                                   "transpile.numpy._tensor_solve", "transpile.numpy._eig"))
