"""A reference model of LAPACK's xGESDD route for small matrices, and a study of the singular
vectors' signs it produces against NumPy's (and so JAX's) SVD.

Why: singular vectors are unique only up to sign (a pair u_i, v_i may both flip) and programs
use the sign (PCA projections). JAX and NumPy call LAPACK's xGESDD, whose signs follow no
convention: they are what its steps leave. A one-sided Jacobi SVD (transpile's above order
25) is accurate but agrees with them only by chance. This model follows xGESDD step by step
for min(m, n) <= 25, in plain Python; it is the reference that
runtime/include/tp_svd_route_impl.h (the compiled svd up to order 25) was ported from, and
shows that following the route (as tp_symmetric_eigen_impl.h follows xSYEVD's for eigh)
reproduces LAPACK's signs:

  xGEQR2 (tall, m >= int(11 n / 6)) or xGELQ2 (wide, n >= int(11 m / 6)) first, then
  xGEBD2 (Householder bidiagonalisation, upper when m >= n, lower otherwise),
  xBDSDC ('I', n <= 25): a lower bidiagonal rotated to upper (xLARTG), then xLASDQ, which is
  xBDSQR (implicit QR with Wilkinson-type shifts or zero shift, chasing the bulge towards the
  smaller end, singular values made positive by flipping rows of V^T, sorted descending),
  then xORMBR / xGEMM to form U and V^T.

Above order 25 xBDSDC divides and conquers (xLASD0...); there the signs of the QR iteration
agree with LAPACK's only by chance (measured below: about half of the vectors).

    python tools/svd_lapack_route.py [trials]

prints, per shape and dtype, the fraction of singular vectors whose sign the model gets as
LAPACK's xGESDD does (SciPy's, which jaxlib calls; pairs compared where singular values are
distinct), and the same for transpile's compiled svd.
"""
from __future__ import annotations

import math
import sys

import numpy as np

SMALL_ORDER = 25          # xBDSDC's SMLSIZ: above it, divide and conquer
MAX_ITERATIONS = 6        # xBDSQR's MAXITR


class Real:
    """Machine constants and helpers for one precision (LAPACK's xLAMCH values)."""

    def __init__(self, dtype):
        self.t = np.dtype(dtype).type
        info = np.finfo(dtype)
        self.eps = self.t(info.eps / 2)
        self.safmin = self.t(info.tiny)

    def nrm2(self, x):
        # OpenBLAS's snrm2 sums float squares in double; dnrm2 is exact enough either way.
        return self.t(math.sqrt(float(np.sum(np.asarray(x, np.float64) ** 2))))

    def larfg(self, alpha, x):
        """(beta, v tail, tau) of the reflector taking (alpha, x) to (beta, 0)."""
        t = self.t
        xnorm = self.nrm2(x) if len(x) else t(0)
        if xnorm == 0:
            return t(alpha), np.zeros_like(x), t(0)
        beta = -np.copysign(self.lapy2(t(alpha), xnorm), t(alpha))
        tau = t((beta - alpha) / beta)
        v = (x * t(1 / (alpha - beta))).astype(self.t)
        return beta, v, tau

    def lapy2(self, x, y):
        """xLAPY2: sqrt(x^2 + y^2) in working precision, without needless overflow."""
        w, z = max(abs(x), abs(y)), min(abs(x), abs(y))
        if z == 0:
            return w
        return w * np.sqrt(self.t(1) + (z / w) * (z / w))

    def lartg(self, f, g):
        """xLARTG (LAPACK >= 3.10): c, s, r with [c s; -s c] (f, g) = (r, 0), c >= 0."""
        t = self.t
        if g == 0:
            return t(1), t(0), t(f)
        if f == 0:
            return t(0), t(math.copysign(1, g)), t(abs(g))
        f, g = t(f), t(g)
        d = np.sqrt(f * f + g * g)
        c = abs(f) / d
        r = np.copysign(d, f)
        return c, g / r, r


def _reflect_left(a, v, tau, rows, cols):
    """a[rows, cols] = (I - tau w w^T) a[rows, cols], w = (1, v)."""
    if tau == 0:
        return
    w = np.concatenate([[1], v]).astype(a.dtype)
    block = a[rows, cols]
    a[rows, cols] = block - tau * np.outer(w, w @ block)


def _reflect_right(a, v, tau, rows, cols):
    """a[rows, cols] = a[rows, cols] (I - tau w w^T)."""
    if tau == 0:
        return
    w = np.concatenate([[1], v]).astype(a.dtype)
    block = a[rows, cols]
    a[rows, cols] = block - tau * np.outer(block @ w, w)


def qr_reflectors(re, a):
    """xGEQR2: R (upper triangle of the result) and the reflectors [(start, v, tau)]."""
    a = a.copy()
    m, n = a.shape
    reflectors = []
    for i in range(min(m, n)):
        beta, v, tau = re.larfg(a[i, i], a[i + 1:, i])
        a[i, i], a[i + 1:, i] = beta, 0
        _reflect_left(a, v, tau, slice(i, m), slice(i + 1, n))
        reflectors.append((i, v, tau))
    return np.triu(a), reflectors


def apply_reflectors_left(c, reflectors, transposed=False):
    """H(0) H(1) ... c (or its transpose's product) for reflectors acting on rows start..."""
    order = reflectors if transposed else reversed(reflectors)
    for start, v, tau in order:
        _reflect_left(c, v, tau, slice(start, start + 1 + len(v)), slice(None))
    return c


def bidiagonalize(re, a):
    """xGEBD2: (d, e, left reflectors, right reflectors, upper?). Upper when m >= n."""
    a = a.copy()
    m, n = a.shape
    left, right = [], []
    if m >= n:
        d, e = np.zeros(n, a.dtype), np.zeros(max(n - 1, 0), a.dtype)
        for i in range(n):
            beta, v, tau = re.larfg(a[i, i], a[i + 1:, i])
            d[i], a[i, i], a[i + 1:, i] = beta, 1, v
            _reflect_left(a, v, tau, slice(i, m), slice(i + 1, n))
            left.append((i, v, tau))
            if i < n - 1:
                beta, v, tau = re.larfg(a[i, i + 1], a[i, i + 2:])
                e[i] = beta
                _reflect_right(a, v, tau, slice(i + 1, m), slice(i + 1, n))
                right.append((i + 1, v, tau))
        return d, e, left, right, True
    d, e = np.zeros(m, a.dtype), np.zeros(m - 1, a.dtype)
    for i in range(m):
        beta, v, tau = re.larfg(a[i, i], a[i, i + 1:])
        d[i] = beta
        _reflect_right(a, v, tau, slice(i + 1, m), slice(i, n))
        right.append((i, v, tau))
        if i < m - 1:
            beta, v, tau = re.larfg(a[i + 1, i], a[i + 2:, i])
            e[i] = beta
            _reflect_left(a, v, tau, slice(i + 1, m), slice(i + 1, n))
            left.append((i + 1, v, tau))
    return d, e, left, right, False


def _rotate_rows(x, j, c, s):
    """Rows j, j + 1 of x by xLASR's plane rotation (c, s)."""
    top, bottom = x[j].copy(), x[j + 1].copy()
    x[j + 1] = c * bottom - s * top
    x[j] = s * bottom + c * top


def _lasr_left(x, first, cs, ss, forward):
    steps = range(len(cs)) if forward else reversed(range(len(cs)))
    for j in steps:
        if not (cs[j] == 1 and ss[j] == 0):
            _rotate_rows(x, first + j, cs[j], ss[j])


def _lasr_right(x, first, cs, ss, forward):
    _lasr_left(x.T, first, cs, ss, forward)      # columns of x are rows of x.T (a view)


def las2(re, f, g, h):
    """xLAS2: the singular values (smaller, larger) of [[f, g], [0, h]]."""
    t = re.t
    f, g, h = t(f), t(g), t(h)
    fa, ga, ha = abs(f), abs(g), abs(h)
    fhmn, fhmx = min(fa, ha), max(fa, ha)
    if fhmn == 0:
        if fhmx == 0:
            return t(0), ga
        big, small = max(fhmx, ga), min(fhmx, ga)
        return t(0), big * np.sqrt(1 + (small / big) ** 2)
    if ga < fhmx:
        as_, at, au = 1 + fhmn / fhmx, (fhmx - fhmn) / fhmx, (ga / fhmx) ** 2
        c = 2 / (np.sqrt(as_ * as_ + au) + np.sqrt(at * at + au))
        return t(fhmn * c), t(fhmx / c)
    au = fhmx / ga
    if au == 0:
        return t((fhmn * fhmx) / ga), ga
    as_, at = 1 + fhmn / fhmx, (fhmx - fhmn) / fhmx
    c = 1 / (np.sqrt(1 + (as_ * au) ** 2) + np.sqrt(1 + (at * au) ** 2))
    smin = t((fhmn * c) * au)
    return t(smin + smin), t(ga / (c + c))


def lasv2(re, f, g, h):
    """xLASV2: SVD of [[f, g], [0, h]]: (ssmin, ssmax, snr, csr, snl, csl), signed."""
    t = re.t
    sign = np.copysign
    f, g, h = t(f), t(g), t(h)
    ft, fa, ht, ha = f, abs(f), h, abs(h)
    pmax, swap = 1, ha > fa
    if swap:
        pmax, ft, ht, fa, ha = 3, ht, ft, ha, fa
    gt, ga = g, abs(g)
    if ga == 0:
        ssmin, ssmax, clt, crt, slt, srt = ha, fa, t(1), t(1), t(0), t(0)
    else:
        gasmal = True
        if ga > fa:
            pmax = 2
            if fa / ga < re.eps:
                gasmal = False
                ssmax = ga
                ssmin = fa / (ga / ha) if ha > 1 else (fa / ga) * ha
                clt, slt, srt, crt = t(1), ht / gt, t(1), ft / gt
        if gasmal:
            dd = fa - ha
            el = t(1) if dd == fa else dd / fa
            mm_ = gt / ft
            tt = 2 - el
            mm2, tt2 = mm_ * mm_, tt * tt
            s = np.sqrt(tt2 + mm2)
            r = abs(mm_) if el == 0 else np.sqrt(el * el + mm2)
            a = 0.5 * (s + r)
            ssmin, ssmax = ha / a, fa * a
            if mm2 == 0:
                tt = sign(t(2), ft) * sign(t(1), gt) if el == 0 else gt / sign(dd, ft) + mm_ / tt
            else:
                tt = (mm_ / (s + tt) + mm_ / (r + el)) * (1 + a)
            el = np.sqrt(tt * tt + 4)
            crt, srt = 2 / el, tt / el
            clt = (crt + srt * mm_) / a
            slt = (ht / ft) * srt / a
    if swap:
        csl, snl, csr, snr = srt, crt, slt, clt
    else:
        csl, snl, csr, snr = clt, slt, crt, srt
    if pmax == 1:
        tsign = sign(1, csr) * sign(1, csl) * sign(1, f)
    elif pmax == 2:
        tsign = sign(1, snr) * sign(1, csl) * sign(1, g)
    else:
        tsign = sign(1, snr) * sign(1, snl) * sign(1, h)
    ssmax = sign(ssmax, tsign)
    ssmin = sign(ssmin, tsign * sign(1, f) * sign(1, h))
    return t(ssmin), t(ssmax), t(snr), t(csr), t(snl), t(csl)


def bdsqr(re, d, e, vt, u):
    """xBDSQR('U') with vectors: d, e the upper bidiagonal; vt (n x ncvt) and u (nru x n)
    updated in place; returns d (descending, non-negative)."""
    t = re.t
    n = len(d)
    eps, unfl = re.eps, re.safmin
    tol = t(max(10.0, min(100.0, float(eps) ** -0.125)) * eps)
    if n > 1:
        sminoa = abs(d[0])
        if sminoa != 0:
            mu = sminoa
            for i in range(1, n):
                mu = abs(d[i]) * (mu / (mu + abs(e[i - 1])))
                sminoa = min(sminoa, mu)
                if sminoa == 0:
                    break
        sminoa = sminoa / t(math.sqrt(n))
        thresh = t(max(tol * sminoa, MAX_ITERATIONS * (n * (n * unfl))))
        max_iterations, iterations = MAX_ITERATIONS * n * n, 0
        oldll, oldm, m, idir = -1, -1, n - 1, 0      # 0-based: the block is d[ll..m]
        while m > 0:
            if iterations > max_iterations:
                raise RuntimeError("bdsqr did not converge")
            smax = abs(d[m])
            ll = -1
            for lll in range(m - 1, -1, -1):
                abss, abse = abs(d[lll]), abs(e[lll])
                if abse <= thresh:
                    e[lll] = 0
                    ll = lll
                    break
                smax = max(smax, abss, abse)
            if ll == m - 1:
                m -= 1
                continue
            ll += 1
            if ll == m - 1:                                   # a 2 x 2 block
                sigmn, sigmx, sinr, cosr, sinl, cosl = lasv2(re, d[m - 1], e[m - 1], d[m])
                d[m - 1], e[m - 1], d[m] = sigmx, 0, sigmn
                top, bottom = vt[m - 1].copy(), vt[m].copy()
                vt[m - 1], vt[m] = cosr * top + sinr * bottom, cosr * bottom - sinr * top
                left, right = u[:, m - 1].copy(), u[:, m].copy()
                u[:, m - 1], u[:, m] = cosl * left + sinl * right, cosl * right - sinl * left
                m -= 2
                continue
            if ll > oldm or m < oldll:
                idir = 1 if abs(d[ll]) >= abs(d[m]) else 2
            converged = False
            if idir == 1:
                if abs(e[m - 1]) <= abs(tol) * abs(d[m]):
                    e[m - 1] = 0
                    continue
                mu = smin = abs(d[ll])
                for lll in range(ll, m):
                    if abs(e[lll]) <= tol * mu:
                        e[lll] = 0
                        converged = True
                        break
                    mu = abs(d[lll + 1]) * (mu / (mu + abs(e[lll])))
                    smin = min(smin, mu)
            else:
                if abs(e[ll]) <= abs(tol) * abs(d[ll]):
                    e[ll] = 0
                    continue
                mu = smin = abs(d[m])
                for lll in range(m - 1, ll - 1, -1):
                    if abs(e[lll]) <= tol * mu:
                        e[lll] = 0
                        converged = True
                        break
                    mu = abs(d[lll]) * (mu / (mu + abs(e[lll])))
                    smin = min(smin, mu)
            if converged:
                continue
            oldll, oldm = ll, m
            if n * tol * (smin / smax) <= max(eps, t(0.01) * tol):
                shift = t(0)
            else:
                if idir == 1:
                    sll = abs(d[ll])
                    shift, _ = las2(re, d[m - 1], e[m - 1], d[m])
                else:
                    sll = abs(d[m])
                    shift, _ = las2(re, d[ll], e[ll], d[ll + 1])
                if sll > 0 and (shift / sll) ** 2 < eps:
                    shift = t(0)
            iterations += m - ll
            count = m - ll
            cs1, sn1 = np.ones(count, d.dtype), np.zeros(count, d.dtype)
            cs2, sn2 = np.ones(count, d.dtype), np.zeros(count, d.dtype)
            if shift == 0 and idir == 1:
                cs, oldcs, oldsn = t(1), t(1), t(0)
                for i in range(ll, m):
                    cs, sn, r = re.lartg(d[i] * cs, e[i])
                    if i > ll:
                        e[i - 1] = oldsn * r
                    oldcs, oldsn, d[i] = re.lartg(oldcs * r, d[i + 1] * sn)
                    k = i - ll
                    cs1[k], sn1[k], cs2[k], sn2[k] = cs, sn, oldcs, oldsn
                h = d[m] * cs
                d[m], e[m - 1] = h * oldcs, h * oldsn
                _lasr_left(vt, ll, cs1, sn1, True)
                _lasr_right(u, ll, cs2, sn2, True)
                if abs(e[m - 1]) <= thresh:
                    e[m - 1] = 0
            elif shift == 0:
                cs, oldcs, oldsn = t(1), t(1), t(0)
                for i in range(m, ll, -1):
                    cs, sn, r = re.lartg(d[i] * cs, e[i - 1])
                    if i < m:
                        e[i] = oldsn * r
                    oldcs, oldsn, d[i] = re.lartg(oldcs * r, d[i - 1] * sn)
                    k = i - ll - 1
                    cs1[k], sn1[k], cs2[k], sn2[k] = cs, -sn, oldcs, -oldsn
                h = d[ll] * cs
                d[ll], e[ll] = h * oldcs, h * oldsn
                _lasr_left(vt, ll, cs2, sn2, False)
                _lasr_right(u, ll, cs1, sn1, False)
                if abs(e[ll]) <= thresh:
                    e[ll] = 0
            elif idir == 1:
                f = (abs(d[ll]) - shift) * (t(math.copysign(1, d[ll])) + shift / d[ll])
                g = e[ll]
                for i in range(ll, m):
                    cosr, sinr, r = re.lartg(f, g)
                    if i > ll:
                        e[i - 1] = r
                    f = cosr * d[i] + sinr * e[i]
                    e[i] = cosr * e[i] - sinr * d[i]
                    g = sinr * d[i + 1]
                    d[i + 1] = cosr * d[i + 1]
                    cosl, sinl, r = re.lartg(f, g)
                    d[i] = r
                    f = cosl * e[i] + sinl * d[i + 1]
                    d[i + 1] = cosl * d[i + 1] - sinl * e[i]
                    if i < m - 1:
                        g = sinl * e[i + 1]
                        e[i + 1] = cosl * e[i + 1]
                    k = i - ll
                    cs1[k], sn1[k], cs2[k], sn2[k] = cosr, sinr, cosl, sinl
                e[m - 1] = f
                _lasr_left(vt, ll, cs1, sn1, True)
                _lasr_right(u, ll, cs2, sn2, True)
                if abs(e[m - 1]) <= thresh:
                    e[m - 1] = 0
            else:
                f = (abs(d[m]) - shift) * (t(math.copysign(1, d[m])) + shift / d[m])
                g = e[m - 1]
                for i in range(m, ll, -1):
                    cosr, sinr, r = re.lartg(f, g)
                    if i < m:
                        e[i] = r
                    f = cosr * d[i] + sinr * e[i - 1]
                    e[i - 1] = cosr * e[i - 1] - sinr * d[i]
                    g = sinr * d[i - 1]
                    d[i - 1] = cosr * d[i - 1]
                    cosl, sinl, r = re.lartg(f, g)
                    d[i] = r
                    f = cosl * e[i - 1] + sinl * d[i - 1]
                    d[i - 1] = cosl * d[i - 1] - sinl * e[i - 1]
                    if i > ll + 1:
                        g = sinl * e[i - 2]
                        e[i - 2] = cosl * e[i - 2]
                    k = i - ll - 1
                    cs1[k], sn1[k], cs2[k], sn2[k] = cosr, -sinr, cosl, -sinl
                e[ll] = f
                if abs(e[ll]) <= thresh:
                    e[ll] = 0
                _lasr_left(vt, ll, cs2, sn2, False)
                _lasr_right(u, ll, cs1, sn1, False)
    for i in range(n):                       # singular values made positive through V^T
        if d[i] < 0:
            d[i] = -d[i]
            vt[i] = -vt[i]
    for i in range(n - 1):                   # selection sort, descending
        last = n - 1 - i
        isub, smin = 0, d[0]
        for j in range(1, last + 1):
            if d[j] <= smin:
                isub, smin = j, d[j]
        if isub != last:
            d[isub], d[last] = d[last], smin
            vt[[isub, last]] = vt[[last, isub]]
            u[:, [isub, last]] = u[:, [last, isub]]
    return d


def bdsdc(re, d, e, upper):
    """xBDSDC(uplo, 'I') for n <= 25: (s, U, V^T) of the bidiagonal (d, e)."""
    n = len(d)
    d, e = d.copy(), e.copy()
    if n == 1:
        return np.abs(d), np.array([[math.copysign(1, d[0])]], d.dtype), np.ones((1, 1), d.dtype)
    rotations = []
    if not upper:                                  # rotated to upper by rotations on the left
        for i in range(n - 1):
            cs, sn, r = re.lartg(d[i], e[i])
            d[i], e[i], d[i + 1] = r, sn * d[i + 1], cs * d[i + 1]
            rotations.append((cs, -sn))
    u, vt = np.eye(n, dtype=d.dtype), np.eye(n, dtype=d.dtype)
    d = bdsqr(re, d, e, vt, u)
    if rotations:
        cs = np.array([c for c, _ in rotations], d.dtype)
        ss = np.array([s for _, s in rotations], d.dtype)
        _lasr_left(u, 0, cs, ss, False)
    return d, u, vt


def gesdd(a, full_matrices=False):
    """(U, s, V^T) by xGESDD's route; min(m, n) <= 25."""
    re = Real(a.dtype)
    m, n = a.shape
    k = min(m, n)
    if k > SMALL_ORDER:
        raise ValueError("the model covers min(m, n) <= 25 (xBDSDC's QR-iteration branch)")
    if m >= n and m >= int(n * 11.0 / 6.0):        # QR first, then the R factor's SVD
        r, reflectors = qr_reflectors(re, a)
        s, u_small, vt = _bidiagonal_svd(re, r[:n, :n])
        q = apply_reflectors_left(np.eye(m, dtype=a.dtype), reflectors)
        u = q[:, :n] @ u_small
        if full_matrices:
            u = np.concatenate([u, q[:, n:]], axis=1)
        return u, s, vt
    if m < n and n >= int(m * 11.0 / 6.0):         # LQ first: the QR of A^T, transposed
        r, reflectors = qr_reflectors(re, a.T.copy())
        s, u, vt_small = _bidiagonal_svd(re, r[:m, :m].T.copy())
        q = apply_reflectors_left(np.eye(n, dtype=a.dtype), reflectors).T
        vt = vt_small @ q[:m]
        if full_matrices:
            vt = np.concatenate([vt, q[m:]], axis=0)
        return u, s, vt
    s, u_b, vt_b = None, None, None
    d, e, left, right, upper = bidiagonalize(re, a)
    s, u_b, vt_b = bdsdc(re, d, e, upper)
    ucols, vrows = (m, n) if full_matrices else (k, k)
    u = np.zeros((m, ucols), a.dtype)
    u[:k, :k] = u_b
    for i in range(k, ucols):
        u[i, i] = 1
    vt = np.zeros((vrows, n), a.dtype)
    vt[:k, :k] = vt_b
    for i in range(k, vrows):
        vt[i, i] = 1
    u = apply_reflectors_left(u, left)
    vt = apply_reflectors_left(vt.T.copy(), right).T
    return u, s, vt


def _bidiagonal_svd(re, square):
    """The SVD of a square factor by bidiagonalisation, xBDSDC and back-transformation."""
    d, e, left, right, upper = bidiagonalize(re, square)
    s, u, vt = bdsdc(re, d, e, upper)
    u = apply_reflectors_left(u, left)
    vt = apply_reflectors_left(vt.T.copy(), right).T
    return s, u, vt


def sign_agreement(reference_u, reference_s, u):
    """(columns of u with reference_u's sign, columns compared): the first len(s) columns
    whose singular value is distinct, then any extra (full_matrices) columns."""
    k = len(reference_s)
    distinct = np.ones(k, bool)
    gaps = np.abs(np.diff(reference_s)) > 1e-3 * max(float(reference_s[0]), 1e-30)
    distinct[1:] &= gaps
    distinct[:-1] &= gaps
    keep = np.concatenate([distinct, np.ones(reference_u.shape[1] - k, bool)])
    same = np.sum(reference_u * u, axis=0) > 0
    return int(np.sum(same & keep)), int(np.sum(keep))


def _compiled_svd():
    """transpile's compiled SVD (the one-sided Jacobi), or None without transpile."""
    try:
        import transpile as tp
        import transpile.numpy as tnp
    except ImportError:
        return None
    return tp.jit(lambda a: tnp.linalg.svd(a, full_matrices=False))


def reference_svd(a):
    """LAPACK's xGESDD as JAX calls it: SciPy's LAPACK (jaxlib takes its xGESDD from
    scipy.linalg.cython_lapack). NumPy's own float32 SVD (its bundled OpenBLAS) gives other
    signs for some matrices (about 4 to 30 % of vectors, measured), so SciPy's is the
    reference where it is installed."""
    try:
        import scipy.linalg
    except ImportError:
        return np.linalg.svd(a, full_matrices=True)
    return scipy.linalg.svd(a, full_matrices=True, lapack_driver="gesdd")


def study(trials: int) -> None:
    rng = np.random.default_rng(2026)
    compiled = _compiled_svd()
    shapes = [(5, 5), (30, 5), (8, 6), (6, 8), (5, 30), (12, 12), (25, 25), (60, 25), (26, 26)]
    print("shape     dtype    model U signs = LAPACK's  full U  V^T     compiled svd's")
    for dtype in (np.float64, np.float32):
        for shape in shapes:
            counts = np.zeros((4, 2), int)
            for _ in range(trials):
                a = rng.standard_normal(shape).astype(dtype)
                ref_u, ref_s, ref_vt = reference_svd(a)
                k = len(ref_s)
                if min(shape) <= SMALL_ORDER:
                    u, s, vt = gesdd(a, full_matrices=True)
                    scale = float(ref_s[0]) * (1e-4 if dtype == np.float32 else 1e-10)
                    np.testing.assert_allclose((u[:, :k] * s) @ vt[:k], a, atol=scale)
                    counts[0] += sign_agreement(ref_u[:, :k], ref_s, u[:, :k])
                    counts[1] += sign_agreement(ref_u, ref_s, u)
                    counts[2] += sign_agreement(ref_vt.T, ref_s, vt.T)
                if compiled is not None:
                    cu = np.asarray(compiled(a)[0])
                    counts[3] += sign_agreement(ref_u[:, :k], ref_s, cu)
            rates = [f"{c[0] / c[1]:.3f}" if c[1] else "  -  " for c in counts]
            print(f"{str(shape):9} {np.dtype(dtype).name:8} {rates[0]:24} {rates[1]:7} "
                  f"{rates[2]:7} {rates[3]}")


if __name__ == "__main__":
    study(int(sys.argv[1]) if len(sys.argv) > 1 else 30)
