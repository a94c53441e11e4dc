"""Forward-mode rules of the dense linear algebra primitives (matrices in the last two
axes): the standard matrix-calculus results, as JAX's rules compute them. Each rule takes
(primals, tangents) and returns (output, output tangent); jvp_rules.py registers them."""
from __future__ import annotations

import numpy as np

from .. import primitives as P
from ..core import ShapedArray, bind
from . import ops


def _square(x):
    return ops.mul(x, x)



def _matrix_trace(x):
    """Sum of the diagonal of each matrix in the last two axes."""
    a = ops.aval(x)
    n = a.shape[-1]
    eye = ops.broadcast_to(np.eye(n, dtype=a.dtype), a.shape)
    return ops.reduce_sum(ops.mul(x, eye), (a.ndim - 2, a.ndim - 1))


def linalg_solve_jvp(primals, tangents):
    a, b = primals
    ta, tb = tangents
    out = bind(P.linalg_solve, a, b)
    rhs = ops.instantiate(tb, ops.aval(b))
    if ta is not None:                    # d(a^-1 b) = a^-1 (db - da a^-1 b)
        rhs = ops.sub(rhs, ops.matmul(ta, out))
    return out, bind(P.linalg_solve, a, rhs)


def _adjugate(a):
    """adj(a) = det(a) a^-1 of real square matrices of any rank, from a = U S V^T:
    det(U) det(V) V diag(prod_{j != i} s_j) U^T (zero when two singular values are)."""
    shape = ops.aval(a).shape
    batch, n, nb = shape[:-2], shape[-1], len(shape) - 2
    packed = bind(P.svd, a, full_matrices=False, compute_uv=True)
    u = ops.reshape(ops.slice_(packed, (0,) * (nb + 1), batch + (n * n,)), batch + (n, n))
    s = ops.slice_(packed, (0,) * nb + (n * n,), batch + (n * n + n,))
    vt = ops.reshape(ops.slice_(packed, (0,) * nb + (n * n + n,), batch + (2 * n * n + n,)),
                     batch + (n, n))
    eye = _eye_mask(n, batch + (n, n), ops.aval(a).dtype)
    s_row = ops.broadcast_in_dim(s, batch + (n, n), tuple(range(nb)) + (nb + 1,))  # s_j at (i, j)
    others = ops.add(ops.mul(s_row, ops.sub(1.0, eye)), eye)                      # s_j, 1 at j = i
    kept = bind(P.reduce_prod, others, axes=(nb + 1,))                            # prod_{j != i}
    sign = ops.mul(bind(P.linalg_det, u), bind(P.linalg_det, vt))
    scaled = ops.mul(ops.swap_last(vt), ops.broadcast_in_dim(kept, batch + (n, n),
                                                             tuple(range(nb)) + (nb + 1,)))
    adj = ops.matmul(scaled, ops.swap_last(u))
    return ops.mul(adj, ops.broadcast_in_dim(sign, batch + (n, n), tuple(range(nb))))


def linalg_det_jvp(primals, tangents):
    """d det a = tr(adj(a) da): det(a) tr(a^-1 da) where det(a) != 0; at a singular real
    matrix (det exactly 0, where that formula is 0 * inf) the adjugate from the SVD, which
    JAX's answer (from its LU factors) equals. The adjugate branch has no derivative of its
    own (second derivatives at singular matrices are not JAX's), and the solve reads the
    identity in its place there, so neither branch's NaN reaches the other's derivatives."""
    a, = primals
    out = bind(P.linalg_det, a)
    ta = tangents[0]
    aval = ops.aval(a)
    if aval.dtype.kind != "f":
        return out, ops.mul(out, _matrix_trace(bind(P.linalg_solve, a, ta)))
    batch, n = aval.shape[:-2], aval.shape[-1]
    eye = _eye_mask(n, aval.shape, aval.dtype)
    singular = ops.binary("eq", out, ops.full(0, ops.aval(out)))
    singular_mat = ops.broadcast_in_dim(singular, aval.shape, tuple(range(len(batch))))
    regular = ops.mul(out, _matrix_trace(bind(P.linalg_solve,
                                              ops.select(singular_mat, eye, a), ta)))
    adj = bind(P.stop_gradient, _adjugate(ops.select(singular_mat, a, eye)))
    at_singular = ops.reduce_sum(ops.mul(ops.swap_last(adj), ta),
                                 (len(batch), len(batch) + 1))
    return out, ops.select(singular, at_singular, regular)


def linalg_slogdet_jvp(primals, tangents):
    a, = primals
    out = bind(P.linalg_slogdet, a)       # (sign, log|det|): d log|det a| = tr(a^-1 da)
    dlog = _matrix_trace(bind(P.linalg_solve, a, tangents[0]))
    shape = ops.aval(dlog).shape
    dlog = ops.reshape(dlog, shape + (1,))
    zero = ops.zeros(ShapedArray(shape + (1,), ops.aval(dlog).dtype))
    return out, ops.concatenate([zero, dlog], len(shape))


def cholesky_jvp(primals, tangents):
    """L' = L phi(L^-1 A' L^-T), phi taking the lower triangle with the diagonal halved
    (Murray 2016), with A' symmetrized as JAX's cholesky symmetrizes its input."""
    a, = primals
    out = bind(P.cholesky, a)
    ta = tangents[0]
    sym = ops.mul(ops.add(ta, ops.swap_last(ta)), 0.5)
    inner = bind(P.linalg_solve, out, ops.swap_last(bind(P.linalg_solve, out, sym)))
    shape = ops.aval(a).shape
    n = shape[-1]
    phi = np.tril(np.ones((n, n)), -1) + 0.5 * np.eye(n)
    inner = ops.mul(inner, ops.broadcast_to(phi.astype(ops.aval(a).dtype), shape))
    return out, ops.matmul(out, inner)


def _eye_mask(n, shape, dtype):
    """The identity of `n` broadcast over the batch of `shape` (ending in n, n)."""
    return ops.broadcast_to(np.eye(n, dtype=dtype), shape)


def _pairwise(v, op):
    """op(v[..., None, :], v[..., :, None]) for a batch of vectors: entry (i, j) combines
    v_j with v_i."""
    a = ops.aval(v)
    n = a.shape[-1]
    shape = a.shape + (n,)
    batch = tuple(range(a.ndim - 1))
    cols = ops.broadcast_in_dim(v, shape, batch + (a.ndim,))
    rows = ops.broadcast_in_dim(v, shape, batch + (a.ndim - 1,))
    return ops.binary(op, cols, rows)


def _vector_row(v):
    """A batch of vectors (..., n) as rows (..., 1, n) to concatenate with matrices."""
    a = ops.aval(v)
    return ops.reshape(v, a.shape[:-1] + (1, a.shape[-1]))


def eigh_jvp(primals, tangents):
    """w' = diag(V^T A' V), V' = V (F o V^T A' V) with F_ij = 1 / (w_j - w_i) off the
    diagonal; A' is the symmetric tangent the helper sees (it reads the lower triangle)."""
    a, = primals
    packed = bind(P.eigh, a)
    shape = ops.aval(a).shape
    n, dt = shape[-1], ops.aval(a).dtype
    nd = len(shape)
    w = ops.reshape(ops.slice_(packed, (0,) * nd, shape[:-2] + (1, n)), shape[:-1])
    v = ops.slice_(packed, (0,) * (nd - 2) + (1, 0), shape[:-2] + (n + 1, n))
    lower = ops.broadcast_to(np.tril(np.ones((n, n)), -1).astype(dt), shape)
    ta = tangents[0]
    strict = ops.mul(ta, lower)
    ta = ops.add(ops.add(strict, ops.swap_last(strict)), ops.mul(ta, _eye_mask(n, shape, dt)))
    m = ops.matmul(ops.matmul(ops.swap_last(v), ta), v)
    eye = _eye_mask(n, shape, dt)
    dw = ops.reduce_sum(ops.mul(m, eye), (nd - 1,))
    gaps = ops.add(_pairwise(w, "sub"), eye)                # w_j - w_i, 1 on the diagonal
    f = ops.mul(ops.div(ops.full(1, ops.aval(gaps)), gaps), ops.sub(1.0, eye))
    dv = ops.matmul(v, ops.mul(f, m))
    return packed, ops.concatenate([_vector_row(dw), dv], nd - 2)


def svd_jvp(primals, tangents, *, full_matrices, compute_uv):
    """JAX's SVD rule (its svd_jvp_rule) on the packed (U, s, V^T) result."""
    a, = primals
    packed = bind(P.svd, a, full_matrices=full_matrices, compute_uv=compute_uv)
    shape = ops.aval(a).shape
    batch, (m, n) = shape[:-2], shape[-2:]
    k = min(m, n)
    if compute_uv and full_matrices and m != n:
        raise NotImplementedError("Differentiation rule for 'svd' with full_matrices=True of a "
                                  "non-square matrix is not implemented (nor in JAX): pass "
                                  "full_matrices=False")
    dt = ops.aval(a).dtype
    nb = len(batch)
    if compute_uv:
        u = ops.reshape(ops.slice_(packed, (0,) * (nb + 1), batch + (m * k,)), batch + (m, k))
        s = ops.slice_(packed, (0,) * nb + (m * k,), batch + (m * k + k,))
        vt = ops.reshape(ops.slice_(packed, (0,) * nb + (m * k + k,), batch + (m * k + k + k * n,)),
                         batch + (k, n))
    else:
        s = packed
        full = bind(P.svd, a, full_matrices=False, compute_uv=True)
        u = ops.reshape(ops.slice_(full, (0,) * (nb + 1), batch + (m * k,)), batch + (m, k))
        vt = ops.reshape(ops.slice_(full, (0,) * nb + (m * k + k,),
                                    batch + (m * k + k + k * n,)), batch + (k, n))
    ta = tangents[0]
    v = ops.swap_last(vt)
    ds_mat = ops.matmul(ops.matmul(ops.swap_last(u), ta), v)        # (k, k)
    kk = batch + (k, k)
    eye = _eye_mask(k, kk, dt)
    ds = ops.reduce_sum(ops.mul(ds_mat, eye), (nb + 1,))
    if not compute_uv:
        return packed, ds
    s_row = ops.broadcast_in_dim(s, kk, tuple(range(nb)) + (nb + 1,))   # s_j at (i, j)
    s_col = ops.swap_last(s_row)                                       # s_i at (i, j)
    diffs = ops.mul(ops.add(s_row, s_col), ops.sub(s_row, s_col))
    f = ops.sub(ops.div(1.0, ops.add(diffs, eye)), eye)
    dss = ops.mul(s_row, ds_mat)
    sds = ops.mul(s_col, ds_mat)
    zero = ops.select(ops.binary("eq", s, 0), ops.full(1, ops.aval(s)), ops.full(0, ops.aval(s)))
    s_inv = ops.sub(ops.div(1.0, ops.add(s, zero)), zero)
    s_inv_mat = ops.mul(ops.broadcast_in_dim(s_inv, kk, tuple(range(nb)) + (nb + 1,)), eye)
    dudv_diag = ops.mul(ops.mul(ops.sub(ds_mat, ops.swap_last(ds_mat)), 0.5), s_inv_mat)
    du = ops.matmul(u, ops.add(ops.mul(f, ops.add(dss, ops.swap_last(dss))), dudv_diag))
    dv = ops.matmul(v, ops.mul(f, ops.add(sds, ops.swap_last(sds))))
    if m > n:
        dav = ops.matmul(ta, v)
        s_div = ops.broadcast_in_dim(s, batch + (m, k), tuple(range(nb)) + (nb + 1,))
        du = ops.add(du, ops.div(ops.sub(dav, ops.matmul(u, ops.matmul(ops.swap_last(u), dav))),
                                 s_div))
    if n > m:
        dahu = ops.matmul(ops.swap_last(ta), u)
        s_div = ops.broadcast_in_dim(s, batch + (n, k), tuple(range(nb)) + (nb + 1,))
        dv = ops.add(dv, ops.div(ops.sub(dahu, ops.matmul(v, ops.matmul(vt, dahu))), s_div))
    parts = [ops.reshape(du, batch + (m * k,)), ds, ops.reshape(ops.swap_last(dv), batch + (k * n,))]
    return packed, ops.concatenate(parts, nb)


def _qr_tangents(a, ta, complete):
    """(Q', R') of a reduced QR with m >= n (JAX's qr_jvp_rule, after Townsend)."""
    shape = ops.aval(a).shape
    m, n = shape[-2:]
    if m < n or (complete and m != n):
        raise NotImplementedError("Differentiation rule for 'qr' of a wide matrix, or with "
                                  "mode='complete' of a non-square one, is not implemented "
                                  "(nor in JAX)")
    q = bind(P.qr_q, a, complete=False)
    r = bind(P.qr_r, a, complete=False)
    dx_rinv = ops.swap_last(bind(P.linalg_solve, ops.swap_last(r), ops.swap_last(ta)))
    qt_dx_rinv = ops.matmul(ops.swap_last(q), dx_rinv)
    kk = shape[:-2] + (n, n)
    lower = ops.mul(qt_dx_rinv, ops.broadcast_to(np.tril(np.ones((n, n)), -1).astype(
        ops.aval(a).dtype), kk))
    do = ops.sub(lower, ops.swap_last(lower))          # skew-symmetric
    dq = ops.add(ops.matmul(q, ops.sub(do, qt_dx_rinv)), dx_rinv)
    dr = ops.matmul(ops.sub(qt_dx_rinv, do), r)
    return dq, dr


def qr_q_jvp(primals, tangents, *, complete):
    a, = primals
    return bind(P.qr_q, a, complete=complete), _qr_tangents(a, tangents[0], complete)[0]


def qr_r_jvp(primals, tangents, *, complete):
    a, = primals
    return bind(P.qr_r, a, complete=complete), _qr_tangents(a, tangents[0], complete)[1]


def _eig_parts(packed, shape):
    """(w, V, V^-1) sliced from eig's packed (..., 2n+1, n) result."""
    n, nd = shape[-1], len(shape)
    lead = (0,) * (nd - 2)
    w = ops.reshape(ops.slice_(packed, lead + (0, 0), shape[:-2] + (1, n)), shape[:-1])
    v = ops.slice_(packed, lead + (1, 0), shape[:-2] + (n + 1, n))
    v_inv = ops.slice_(packed, lead + (n + 1, 0), shape[:-2] + (2 * n + 1, n))
    return w, v, v_inv


def eig_jvp(primals, tangents):
    """For distinct eigenvalues: with M = V^-1 A' V, w' = diag(M) and V' = V (F o M), F_ij =
    1 / (w_j - w_i) off the diagonal, then each column moved along itself so that it keeps
    unit norm (Re v^H v' = 0) and a real largest component (the helper's normalisation);
    (V^-1)' = -V^-1 V' V^-1. JAX differentiates the eigenvalues only."""
    a, = primals
    packed = bind(P.eig, a)
    shape = ops.aval(a).shape
    cdt = ops.aval(packed).dtype
    n, nd = shape[-1], len(shape)
    w, v, v_inv = _eig_parts(packed, shape)
    m = ops.matmul(ops.matmul(v_inv, ops.convert(tangents[0], cdt)), v)
    eye = _eye_mask(n, shape, cdt)
    dw = ops.reduce_sum(ops.mul(m, eye), (nd - 1,))
    gaps = ops.add(_pairwise(w, "sub"), eye)                # w_j - w_i, 1 on the diagonal
    f = ops.mul(ops.div(ops.full(1, ops.aval(gaps)), gaps), ops.sub(ops.full(1, ops.aval(eye)),
                                                                    eye))
    dv = ops.matmul(v, ops.mul(f, m))
    dv = ops.add(dv, ops.mul(v, _eig_normalisation(v, dv, cdt)))
    dv_inv = ops.neg(ops.matmul(ops.matmul(v_inv, dv), v_inv))
    return packed, ops.concatenate([_vector_row(dw), dv, dv_inv], nd - 2)


def _eig_normalisation(v, dv, cdt):
    """alpha_k (broadcast over rows) with Re(v^H (dv + v alpha)) = 0 and Im of the largest
    component of dv + v alpha = 0, that component of v being real and positive."""
    shape = ops.aval(v).shape
    nd = len(shape)
    rdt = np.dtype(np.float32) if cdt == np.complex64 else np.dtype(np.float64)
    along = ops.reduce_sum(ops.mul(ops.unary("conj", v), dv), (nd - 2,))
    real = ops.neg(ops.unary("real", along))
    mag = ops.unary("abs", v)
    top = bind(P.reduce_max, mag, axes=(nd - 2,))
    lead = ops.convert(ops.binary("eq", mag, ops.broadcast_in_dim(
        top, shape, tuple(d for d in range(nd) if d != nd - 2))), rdt)
    count = ops.reduce_sum(lead, (nd - 2,))
    lead_v = ops.div(ops.reduce_sum(ops.mul(lead, ops.unary("real", v)), (nd - 2,)), count)
    lead_dv = ops.div(ops.reduce_sum(ops.mul(lead, ops.unary("imag", dv)), (nd - 2,)), count)
    imag = ops.neg(ops.div(lead_dv, lead_v))
    alpha = ops.add(ops.convert(real, cdt), ops.mul(ops.convert(imag, cdt),
                                                    ops.full(1j, ShapedArray((), cdt))))
    return ops.broadcast_in_dim(alpha, shape, tuple(d for d in range(nd) if d != nd - 2))


LINALG_JVP_RULES = {
    "linalg_solve": linalg_solve_jvp, "linalg_det": linalg_det_jvp,
    "linalg_slogdet": linalg_slogdet_jvp, "cholesky": cholesky_jvp, "eigh": eigh_jvp,
    "svd": svd_jvp, "qr_q": qr_q_jvp, "qr_r": qr_r_jvp, "eig": eig_jvp,
}
