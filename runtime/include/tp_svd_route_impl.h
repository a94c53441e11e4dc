/* tp_svd_route_impl.h: the SVD of one real m x n matrix with min(m, n) <= 25 by LAPACK's own
 * route (xGESDD), for one precision. tp_spectral.h includes it after
 * tp_symmetric_eigen_impl.h, twice, with the same TP_SE_* macros defined, and uses that
 * file's xLARFG, xLARTG and xLAPY2; no include guard on purpose.
 *
 * Why LAPACK's route: singular vectors are unique only up to sign (u_i and v_i may flip
 * together), and programs use the sign (PCA projects onto V^T's rows). JAX calls LAPACK's
 * xGESDD (SciPy's LAPACK) and NumPy does too; its signs follow no convention, they are what
 * its steps leave. For min(m, n) <= 25 those steps are:
 *   xGEQR2 first when m >= int(11 n / 6) (or xGELQ2, as the QR of A^T, when n >= int(11 m / 6)),
 *          and the SVD of the square factor R (or L) instead of A's;
 *   xGEBD2: Householder bidiagonalisation, upper when m >= n, lower otherwise;
 *   xBDSDC('I'): a lower bidiagonal rotated to upper (xLARTG), then xLASDQ, which is xBDSQR:
 *          implicit QR sweeps with a shift (xLAS2) or none, chasing the bulge from the larger
 *          end, 2 x 2 blocks by xLASV2, singular values made positive through V^T's rows,
 *          then sorted descending;
 *   xORMBR / xORGQR / xGEMM: U and V^T from the bidiagonal's vectors and the reflectors.
 * tools/svd_lapack_route.py models these steps in Python and measures the signs against
 * SciPy's xGESDD (which jaxlib uses): all vectors of random float64 matrices, about 98 % of
 * float32 ones (rounding decides near-ties, as it does for eigh). Above order 25 xBDSDC
 * divides and conquers, whose signs this route does not give; tp_spectral.h uses its Jacobi
 * there. Matrices here are column-major with a leading dimension, as LAPACK's; indices are
 * 0-based. */

#define SV_T TP_SE_T
#define SV_FABS TP_SE_FABS
#define SV_SQRT TP_SE_SQRT
#define SV_SIGN(a, b) TP_SE_COPYSIGN(SV_FABS(a), (b))      /* Fortran SIGN(a, b) */
#define SV_EPS ((SV_T)(TP_SE_EPSILON / 2))
#define SV_SAFMIN ((SV_T)TP_SE_TINY)
#define SV_AT(p, ld, i, j) (p)[(i) + (int64_t)(j) * (ld)]

/* rows..rows+count-1 x cols..cols+width-1 of a (leading dimension lda) = H times it, where
 * H = I - tau w w^T, w = (1, v[0], v[vs], ...) over `count` entries (xLARF, 'L'). */
static inline TP_DEVICE void TP_SE_TAG(tp_sv_reflect_left)(SV_T *a, int64_t lda, int64_t row,
                                                           int64_t count, int64_t col,
                                                           int64_t width, const SV_T *v,
                                                           int64_t vs, SV_T tau) {
    if (tau == 0) return;
    for (int64_t j = col; j < col + width; j++) {
        SV_T dot = SV_AT(a, lda, row, j);
        for (int64_t i = 1; i < count; i++) dot += v[(i - 1) * vs] * SV_AT(a, lda, row + i, j);
        const SV_T t = tau * dot;
        SV_AT(a, lda, row, j) -= t;
        for (int64_t i = 1; i < count; i++) SV_AT(a, lda, row + i, j) -= t * v[(i - 1) * vs];
    }
}

/* The same block times H from the right (xLARF, 'R'): H acts on columns col..col+width-1. */
static inline TP_DEVICE void TP_SE_TAG(tp_sv_reflect_right)(SV_T *a, int64_t lda, int64_t row,
                                                            int64_t count, int64_t col,
                                                            int64_t width, const SV_T *v,
                                                            int64_t vs, SV_T tau) {
    if (tau == 0) return;
    for (int64_t i = row; i < row + count; i++) {
        SV_T dot = SV_AT(a, lda, i, col);
        for (int64_t j = 1; j < width; j++) dot += v[(j - 1) * vs] * SV_AT(a, lda, i, col + j);
        const SV_T t = tau * dot;
        SV_AT(a, lda, i, col) -= t;
        for (int64_t j = 1; j < width; j++) SV_AT(a, lda, i, col + j) -= t * v[(j - 1) * vs];
    }
}

/* xGEQR2 of a (m x n, m >= n): R in the upper triangle, reflector i's tail below the
 * diagonal of column i, its tau in tau[i]. */
static inline TP_DEVICE void TP_SE_TAG(tp_sv_geqr2)(SV_T *a, int64_t lda, int64_t m, int64_t n,
                                                    SV_T *tau) {
    for (int64_t i = 0; i < n; i++) {
        const int64_t below = i + 1 < m ? i + 1 : i;
        tau[i] = TP_SE_TAG(tp_se_larfg)(m - i, &SV_AT(a, lda, i, i), &SV_AT(a, lda, below, i), 1);
        TP_SE_TAG(tp_sv_reflect_left)(a, lda, i, m - i, i + 1, n - i - 1,
                                      &SV_AT(a, lda, below, i), 1, tau[i]);
    }
}

/* xGEBD2: a (m x n) to bidiagonal d, e; upper when m >= n (left reflector i below the
 * diagonal of column i, right reflector i right of the superdiagonal in row i), lower
 * otherwise (right reflector i right of the diagonal in row i, left one below the
 * subdiagonal in column i). */
static inline TP_DEVICE void TP_SE_TAG(tp_sv_gebd2)(SV_T *a, int64_t lda, int64_t m, int64_t n,
                                                    SV_T *d, SV_T *e, SV_T *tauq, SV_T *taup) {
    if (m >= n) {
        for (int64_t i = 0; i < n; i++) {
            const int64_t below = i + 1 < m ? i + 1 : i;
            tauq[i] = TP_SE_TAG(tp_se_larfg)(m - i, &SV_AT(a, lda, i, i),
                                             &SV_AT(a, lda, below, i), 1);
            d[i] = SV_AT(a, lda, i, i);
            TP_SE_TAG(tp_sv_reflect_left)(a, lda, i, m - i, i + 1, n - i - 1,
                                          &SV_AT(a, lda, below, i), 1, tauq[i]);
            if (i < n - 1) {
                const int64_t right = i + 2 < n ? i + 2 : i + 1;
                taup[i] = TP_SE_TAG(tp_se_larfg)(n - i - 1, &SV_AT(a, lda, i, i + 1),
                                                 &SV_AT(a, lda, i, right), lda);
                e[i] = SV_AT(a, lda, i, i + 1);
                TP_SE_TAG(tp_sv_reflect_right)(a, lda, i + 1, m - i - 1, i + 1, n - i - 1,
                                               &SV_AT(a, lda, i, right), lda, taup[i]);
            } else {
                taup[i] = 0;
            }
        }
        return;
    }
    for (int64_t i = 0; i < m; i++) {
        const int64_t right = i + 1 < n ? i + 1 : i;
        taup[i] = TP_SE_TAG(tp_se_larfg)(n - i, &SV_AT(a, lda, i, i), &SV_AT(a, lda, i, right),
                                         lda);
        d[i] = SV_AT(a, lda, i, i);
        TP_SE_TAG(tp_sv_reflect_right)(a, lda, i + 1, m - i - 1, i, n - i,
                                       &SV_AT(a, lda, i, right), lda, taup[i]);
        if (i < m - 1) {
            const int64_t below = i + 2 < m ? i + 2 : i + 1;
            tauq[i] = TP_SE_TAG(tp_se_larfg)(m - i - 1, &SV_AT(a, lda, i + 1, i),
                                             &SV_AT(a, lda, below, i), 1);
            e[i] = SV_AT(a, lda, i + 1, i);
            TP_SE_TAG(tp_sv_reflect_left)(a, lda, i + 1, m - i - 1, i + 1, n - i - 1,
                                          &SV_AT(a, lda, below, i), 1, tauq[i]);
        } else {
            tauq[i] = 0;
        }
    }
}

/* xLASR('R', 'V') (and xLASR('L', 'V') on the transpose): columns first..first+count of x
 * (col-major, ld, height rows) rotated by (c[j], s[j]) on columns first+j, first+j+1,
 * forward or backward. */
static inline TP_DEVICE void TP_SE_TAG(tp_sv_lasr_columns)(int forward, SV_T *x, int64_t ld,
                                                           int64_t height, int64_t first,
                                                           int64_t count, const SV_T *c,
                                                           const SV_T *s) {
    for (int64_t step = 0; step < count; step++) {
        const int64_t j = forward ? step : count - 1 - step;
        const SV_T ct = c[j], st = s[j];
        if (ct == 1 && st == 0) continue;
        SV_T *left = &SV_AT(x, ld, 0, first + j), *right = left + ld;
        for (int64_t i = 0; i < height; i++) {
            const SV_T temp = right[i];
            right[i] = ct * temp - st * left[i];
            left[i] = st * temp + ct * left[i];
        }
    }
}

/* xLAS2: the singular values of [[f, g], [0, h]]: *smin, *smax. */
static inline TP_DEVICE void TP_SE_TAG(tp_sv_las2)(SV_T f, SV_T g, SV_T h, SV_T *smin,
                                                   SV_T *smax) {
    const SV_T fa = SV_FABS(f), ga = SV_FABS(g), ha = SV_FABS(h);
    const SV_T fhmn = fa < ha ? fa : ha, fhmx = fa > ha ? fa : ha;
    if (fhmn == 0) {
        *smin = 0;
        if (fhmx == 0) {
            *smax = ga;
        } else {
            const SV_T big = fhmx > ga ? fhmx : ga, small = fhmx < ga ? fhmx : ga;
            *smax = big * SV_SQRT(1 + (small / big) * (small / big));
        }
    } else if (ga < fhmx) {
        const SV_T as = 1 + fhmn / fhmx, at = (fhmx - fhmn) / fhmx;
        const SV_T au = (ga / fhmx) * (ga / fhmx);
        const SV_T c = 2 / (SV_SQRT(as * as + au) + SV_SQRT(at * at + au));
        *smin = fhmn * c;
        *smax = fhmx / c;
    } else {
        const SV_T au = fhmx / ga;
        if (au == 0) {
            *smin = (fhmn * fhmx) / ga;
            *smax = ga;
        } else {
            const SV_T as = 1 + fhmn / fhmx, at = (fhmx - fhmn) / fhmx;
            const SV_T c = 1 / (SV_SQRT(1 + (as * au) * (as * au)) +
                                SV_SQRT(1 + (at * au) * (at * au)));
            *smin = (fhmn * c) * au;
            *smin = *smin + *smin;
            *smax = ga / (c + c);
        }
    }
}

/* xLASV2: the signed SVD of [[f, g], [0, h]]: (csl snl; -snl csl) [f g; 0 h] (csr -snr;
 * snr csr) = diag(ssmax, ssmin), |ssmax| >= |ssmin|. */
static inline TP_DEVICE void TP_SE_TAG(tp_sv_lasv2)(SV_T f, SV_T g, SV_T h, SV_T *ssmin,
                                                    SV_T *ssmax, SV_T *snr, SV_T *csr,
                                                    SV_T *snl, SV_T *csl) {
    SV_T ft = f, fa = SV_FABS(ft), ht = h, ha = SV_FABS(h);
    int pmax = 1;
    const int swap = ha > fa;
    if (swap) {
        SV_T temp = ft; ft = ht; ht = temp;
        temp = fa; fa = ha; ha = temp;
        pmax = 3;
    }
    const SV_T gt = g, ga = SV_FABS(gt);
    SV_T clt, crt, slt, srt;
    if (ga == 0) {
        *ssmin = ha; *ssmax = fa;
        clt = 1; crt = 1; slt = 0; srt = 0;
    } else {
        int gasmal = 1;
        if (ga > fa) {
            pmax = 2;
            if (fa / ga < SV_EPS) {                   /* g dominates: the values at once */
                gasmal = 0;
                *ssmax = ga;
                *ssmin = ha > 1 ? fa / (ga / ha) : (fa / ga) * ha;
                clt = 1; slt = ht / gt; srt = 1; crt = ft / gt;
            }
        }
        if (gasmal) {
            const SV_T dd = fa - ha;
            SV_T el = dd == fa ? (SV_T)1 : dd / fa;
            const SV_T mm = gt / ft;
            SV_T t = 2 - el;
            const SV_T mm2 = mm * mm, tt = t * t, s = SV_SQRT(tt + mm2);
            const SV_T r = el == 0 ? SV_FABS(mm) : SV_SQRT(el * el + mm2);
            const SV_T a = (SV_T)0.5 * (s + r);
            *ssmin = ha / a;
            *ssmax = fa * a;
            if (mm2 == 0) {
                if (el == 0) t = SV_SIGN((SV_T)2, ft) * SV_SIGN((SV_T)1, gt);
                else t = gt / SV_SIGN(dd, ft) + mm / t;
            } else {
                t = (mm / (s + t) + mm / (r + el)) * (1 + a);
            }
            el = SV_SQRT(t * t + 4);
            crt = 2 / el;
            srt = t / el;
            clt = (crt + srt * mm) / a;
            slt = (ht / ft) * srt / a;
        }
    }
    if (swap) { *csl = srt; *snl = crt; *csr = slt; *snr = clt; }
    else { *csl = clt; *snl = slt; *csr = crt; *snr = srt; }
    SV_T tsign;                                   /* the signs of the values, as LAPACK's */
    if (pmax == 1) tsign = SV_SIGN((SV_T)1, *csr) * SV_SIGN((SV_T)1, *csl) * SV_SIGN((SV_T)1, f);
    else if (pmax == 2) tsign = SV_SIGN((SV_T)1, *snr) * SV_SIGN((SV_T)1, *csl) *
                                SV_SIGN((SV_T)1, g);
    else tsign = SV_SIGN((SV_T)1, *snr) * SV_SIGN((SV_T)1, *snl) * SV_SIGN((SV_T)1, h);
    *ssmax = SV_SIGN(*ssmax, tsign);
    *ssmin = SV_SIGN(*ssmin, tsign * SV_SIGN((SV_T)1, f) * SV_SIGN((SV_T)1, h));
}

/* Columns p, p + 1 of x (col-major, ld, height rows) by xROT(c, s): (x, y) -> (c x + s y,
 * c y - s x). V^T's rows are rotated as V's columns: two rows of a column-major matrix sit
 * side by side, which GCC 12's SLP vectoriser turns into other roundings at -O3 (see
 * tp_symmetric_eigen_impl.h), so the CPU and CUDA builds would disagree in the last bit. */
static inline TP_DEVICE void TP_SE_TAG(tp_sv_rot_columns)(SV_T *x, int64_t ld, int64_t height,
                                                          int64_t p, SV_T c, SV_T s) {
    SV_T *a = &SV_AT(x, ld, 0, p), *b = a + ld;
    for (int64_t i = 0; i < height; i++) {
        const SV_T ai = a[i], bi = b[i];
        a[i] = c * ai + s * bi;
        b[i] = c * bi - s * ai;
    }
}

/* xBDSQR('U') with vectors: the upper bidiagonal (d, e) of order n to its singular values
 * (descending, non-negative, in d); v (n x n, col-major, V = (V^T)^T) and u (n x n) get the
 * rotations of V^T's rows and U's columns. work: 4 n. Returns 0, or 1 where it did not
 * converge. */
static inline TP_DEVICE int64_t TP_SE_TAG(tp_sv_bdsqr)(int64_t n, SV_T *d, SV_T *e, SV_T *v,
                                                       SV_T *u, SV_T *work) {
    const SV_T eps = SV_EPS, unfl = SV_SAFMIN;
    const int64_t maxitr = 6;
    SV_T *cs1 = work, *sn1 = work + n, *cs2 = work + 2 * n, *sn2 = work + 3 * n;
    if (n > 1) {
        SV_T tolmul = SV_SQRT(SV_SQRT(SV_SQRT(1 / eps)));           /* eps^(-1/8) */
        tolmul = tolmul < 100 ? tolmul : 100;
        tolmul = tolmul > 10 ? tolmul : 10;
        const SV_T tol = tolmul * eps;
        SV_T sminoa = SV_FABS(d[0]);
        if (sminoa != 0) {
            SV_T mu = sminoa;
            for (int64_t i = 1; i < n; i++) {
                mu = SV_FABS(d[i]) * (mu / (mu + SV_FABS(e[i - 1])));
                sminoa = sminoa < mu ? sminoa : mu;
                if (sminoa == 0) break;
            }
        }
        sminoa = sminoa / SV_SQRT((SV_T)n);
        SV_T thresh = tol * sminoa;
        const SV_T floor_ = (SV_T)maxitr * ((SV_T)n * ((SV_T)n * unfl));
        thresh = thresh > floor_ ? thresh : floor_;
        const int64_t maxit = maxitr * n * n;
        int64_t iter = 0, oldll = -1, oldm = -1, m = n - 1;
        int idir = 0;
        while (m > 0) {
            if (iter > maxit) return 1;
            SV_T smax = SV_FABS(d[m]);
            int64_t ll = -1;
            for (int64_t lll = m - 1; lll >= 0; lll--) {
                const SV_T abss = SV_FABS(d[lll]), abse = SV_FABS(e[lll]);
                if (abse <= thresh) {
                    e[lll] = 0;
                    ll = lll;
                    break;
                }
                if (abss > smax) smax = abss;
                if (abse > smax) smax = abse;
            }
            if (ll == m - 1) {                           /* d[m] is a singular value */
                m--;
                continue;
            }
            ll++;
            if (ll == m - 1) {                           /* a 2 x 2 block */
                SV_T sigmn, sigmx, sinr, cosr, sinl, cosl;
                TP_SE_TAG(tp_sv_lasv2)(d[m - 1], e[m - 1], d[m], &sigmn, &sigmx, &sinr, &cosr,
                                       &sinl, &cosl);
                d[m - 1] = sigmx;
                e[m - 1] = 0;
                d[m] = sigmn;
                TP_SE_TAG(tp_sv_rot_columns)(v, n, n, m - 1, cosr, sinr);
                TP_SE_TAG(tp_sv_rot_columns)(u, n, n, m - 1, cosl, sinl);
                m -= 2;
                continue;
            }
            if (ll > oldm || m < oldll)                  /* a new block: chase which way */
                idir = SV_FABS(d[ll]) >= SV_FABS(d[m]) ? 1 : 2;
            SV_T smin;
            int split = 0;
            if (idir == 1) {
                if (SV_FABS(e[m - 1]) <= tol * SV_FABS(d[m])) {
                    e[m - 1] = 0;
                    continue;
                }
                SV_T mu = SV_FABS(d[ll]);
                smin = mu;
                for (int64_t lll = ll; lll < m; lll++) {
                    if (SV_FABS(e[lll]) <= tol * mu) {
                        e[lll] = 0;
                        split = 1;
                        break;
                    }
                    mu = SV_FABS(d[lll + 1]) * (mu / (mu + SV_FABS(e[lll])));
                    smin = smin < mu ? smin : mu;
                }
            } else {
                if (SV_FABS(e[ll]) <= tol * SV_FABS(d[ll])) {
                    e[ll] = 0;
                    continue;
                }
                SV_T mu = SV_FABS(d[m]);
                smin = mu;
                for (int64_t lll = m - 1; lll >= ll; lll--) {
                    if (SV_FABS(e[lll]) <= tol * mu) {
                        e[lll] = 0;
                        split = 1;
                        break;
                    }
                    mu = SV_FABS(d[lll]) * (mu / (mu + SV_FABS(e[lll])));
                    smin = smin < mu ? smin : mu;
                }
            }
            if (split) continue;
            oldll = ll;
            oldm = m;
            SV_T shift = 0, r;
            const SV_T floor2 = (SV_T)0.01 * tol;
            if (!((SV_T)n * tol * (smin / smax) <= (eps > floor2 ? eps : floor2))) {
                SV_T sll;
                if (idir == 1) {
                    sll = SV_FABS(d[ll]);
                    TP_SE_TAG(tp_sv_las2)(d[m - 1], e[m - 1], d[m], &shift, &r);
                } else {
                    sll = SV_FABS(d[m]);
                    TP_SE_TAG(tp_sv_las2)(d[ll], e[ll], d[ll + 1], &shift, &r);
                }
                if (sll > 0 && (shift / sll) * (shift / sll) < eps) shift = 0;
            }
            iter += m - ll;
            const int64_t count = m - ll;                /* rotations in this sweep */
            if (shift == 0 && idir == 1) {               /* zero shift, top to bottom */
                SV_T cs = 1, sn, oldcs = 1, oldsn = 0;
                for (int64_t i = ll; i < m; i++) {
                    TP_SE_TAG(tp_se_lartg)(d[i] * cs, e[i], &cs, &sn, &r);
                    if (i > ll) e[i - 1] = oldsn * r;
                    TP_SE_TAG(tp_se_lartg)(oldcs * r, d[i + 1] * sn, &oldcs, &oldsn, &d[i]);
                    cs1[i - ll] = cs; sn1[i - ll] = sn; cs2[i - ll] = oldcs; sn2[i - ll] = oldsn;
                }
                const SV_T h = d[m] * cs;
                d[m] = h * oldcs;
                e[m - 1] = h * oldsn;
                TP_SE_TAG(tp_sv_lasr_columns)(1, v, n, n, ll, count, cs1, sn1);
                TP_SE_TAG(tp_sv_lasr_columns)(1, u, n, n, ll, count, cs2, sn2);
                if (SV_FABS(e[m - 1]) <= thresh) e[m - 1] = 0;
            } else if (shift == 0) {                     /* zero shift, bottom to top */
                SV_T cs = 1, sn, oldcs = 1, oldsn = 0;
                for (int64_t i = m; i > ll; i--) {
                    TP_SE_TAG(tp_se_lartg)(d[i] * cs, e[i - 1], &cs, &sn, &r);
                    if (i < m) e[i] = oldsn * r;
                    TP_SE_TAG(tp_se_lartg)(oldcs * r, d[i - 1] * sn, &oldcs, &oldsn, &d[i]);
                    const int64_t k = i - ll - 1;
                    cs1[k] = cs; sn1[k] = -sn; cs2[k] = oldcs; sn2[k] = -oldsn;
                }
                const SV_T h = d[ll] * cs;
                d[ll] = h * oldcs;
                e[ll] = h * oldsn;
                TP_SE_TAG(tp_sv_lasr_columns)(0, v, n, n, ll, count, cs2, sn2);
                TP_SE_TAG(tp_sv_lasr_columns)(0, u, n, n, ll, count, cs1, sn1);
                if (SV_FABS(e[ll]) <= thresh) e[ll] = 0;
            } else if (idir == 1) {                      /* shifted, top to bottom */
                SV_T f = (SV_FABS(d[ll]) - shift) * (SV_SIGN((SV_T)1, d[ll]) + shift / d[ll]);
                SV_T g = e[ll];
                for (int64_t i = ll; i < m; i++) {
                    SV_T cosr, sinr, cosl, sinl;
                    TP_SE_TAG(tp_se_lartg)(f, g, &cosr, &sinr, &r);
                    if (i > ll) e[i - 1] = r;
                    f = cosr * d[i] + sinr * e[i];
                    e[i] = cosr * e[i] - sinr * d[i];
                    g = sinr * d[i + 1];
                    d[i + 1] = cosr * d[i + 1];
                    TP_SE_TAG(tp_se_lartg)(f, g, &cosl, &sinl, &r);
                    d[i] = r;
                    f = cosl * e[i] + sinl * d[i + 1];
                    d[i + 1] = cosl * d[i + 1] - sinl * e[i];
                    if (i < m - 1) {
                        g = sinl * e[i + 1];
                        e[i + 1] = cosl * e[i + 1];
                    }
                    cs1[i - ll] = cosr; sn1[i - ll] = sinr; cs2[i - ll] = cosl; sn2[i - ll] = sinl;
                }
                e[m - 1] = f;
                TP_SE_TAG(tp_sv_lasr_columns)(1, v, n, n, ll, count, cs1, sn1);
                TP_SE_TAG(tp_sv_lasr_columns)(1, u, n, n, ll, count, cs2, sn2);
                if (SV_FABS(e[m - 1]) <= thresh) e[m - 1] = 0;
            } else {                                     /* shifted, bottom to top */
                SV_T f = (SV_FABS(d[m]) - shift) * (SV_SIGN((SV_T)1, d[m]) + shift / d[m]);
                SV_T g = e[m - 1];
                for (int64_t i = m; i > ll; i--) {
                    SV_T cosr, sinr, cosl, sinl;
                    TP_SE_TAG(tp_se_lartg)(f, g, &cosr, &sinr, &r);
                    if (i < m) e[i] = r;
                    f = cosr * d[i] + sinr * e[i - 1];
                    e[i - 1] = cosr * e[i - 1] - sinr * d[i];
                    g = sinr * d[i - 1];
                    d[i - 1] = cosr * d[i - 1];
                    TP_SE_TAG(tp_se_lartg)(f, g, &cosl, &sinl, &r);
                    d[i] = r;
                    f = cosl * e[i - 1] + sinl * d[i - 1];
                    d[i - 1] = cosl * d[i - 1] - sinl * e[i - 1];
                    if (i > ll + 1) {
                        g = sinl * e[i - 2];
                        e[i - 2] = cosl * e[i - 2];
                    }
                    const int64_t k = i - ll - 1;
                    cs1[k] = cosr; sn1[k] = -sinr; cs2[k] = cosl; sn2[k] = -sinl;
                }
                e[ll] = f;
                if (SV_FABS(e[ll]) <= thresh) e[ll] = 0;
                TP_SE_TAG(tp_sv_lasr_columns)(0, v, n, n, ll, count, cs2, sn2);
                TP_SE_TAG(tp_sv_lasr_columns)(0, u, n, n, ll, count, cs1, sn1);
            }
        }
    }
    for (int64_t i = 0; i < n; i++)              /* positive values, through V^T's rows */
        if (d[i] < 0) {
            d[i] = -d[i];
            for (int64_t j = 0; j < n; j++) SV_AT(v, n, j, i) = -SV_AT(v, n, j, i);
        }
    for (int64_t i = 0; i < n - 1; i++) {        /* descending: selection of the smallest */
        const int64_t last = n - 1 - i;
        int64_t isub = 0;
        SV_T smin = d[0];
        for (int64_t j = 1; j <= last; j++)
            if (d[j] <= smin) { isub = j; smin = d[j]; }
        if (isub != last) {
            d[isub] = d[last];
            d[last] = smin;
            for (int64_t j = 0; j < n; j++) {
                SV_T t = SV_AT(v, n, j, isub);
                SV_AT(v, n, j, isub) = SV_AT(v, n, j, last);
                SV_AT(v, n, j, last) = t;
                t = SV_AT(u, n, j, isub);
                SV_AT(u, n, j, isub) = SV_AT(u, n, j, last);
                SV_AT(u, n, j, last) = t;
            }
        }
    }
    return 0;
}

/* x (n x n) transposed in place. */
static inline TP_DEVICE void TP_SE_TAG(tp_sv_transpose)(SV_T *x, int64_t n) {
    for (int64_t i = 0; i < n; i++)
        for (int64_t j = i + 1; j < n; j++) {
            const SV_T t = SV_AT(x, n, i, j);
            SV_AT(x, n, i, j) = SV_AT(x, n, j, i);
            SV_AT(x, n, j, i) = t;
        }
}

/* xBDSDC(uplo, 'I') for n <= 25: the bidiagonal (d, e) of order n (upper or lower) to its
 * singular values in d and vectors in u and v (n x n, col-major; V^T's rows are v's
 * columns). work: 6 n. */
static inline TP_DEVICE int64_t TP_SE_TAG(tp_sv_bdsdc)(int upper, int64_t n, SV_T *d, SV_T *e,
                                                       SV_T *u, SV_T *v, SV_T *work) {
    if (n == 1) {
        u[0] = SV_SIGN((SV_T)1, d[0]);
        v[0] = 1;
        d[0] = SV_FABS(d[0]);
        return 0;
    }
    SV_T *rot_c = work + 4 * n, *rot_s = work + 5 * n;
    if (!upper)                                   /* rotated to upper from the left */
        for (int64_t i = 0; i < n - 1; i++) {
            SV_T cs, sn, r;
            TP_SE_TAG(tp_se_lartg)(d[i], e[i], &cs, &sn, &r);
            d[i] = r;
            e[i] = sn * d[i + 1];
            d[i + 1] = cs * d[i + 1];
            rot_c[i] = cs;
            rot_s[i] = -sn;
        }
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < n; i++) SV_AT(u, n, i, j) = SV_AT(v, n, i, j) = i == j;
    const int64_t info = TP_SE_TAG(tp_sv_bdsqr)(n, d, e, v, u, work);
    if (!upper) {               /* U = G^T U: the rotations on U's rows, as U^T's columns */
        TP_SE_TAG(tp_sv_transpose)(u, n);
        TP_SE_TAG(tp_sv_lasr_columns)(0, u, n, n, 0, n - 1, rot_c, rot_s);
        TP_SE_TAG(tp_sv_transpose)(u, n);
    }
    return info;
}

/* The SVD of the square factor s (order k, col-major, overwritten) by xGEBD2, xBDSDC and
 * the reflectors back: u and v (k x k, col-major, V^T = v^T). work: 10 k. */
static inline TP_DEVICE int64_t TP_SE_TAG(tp_sv_square)(SV_T *s, int64_t k, SV_T *sv, SV_T *u,
                                                        SV_T *v, SV_T *work) {
    SV_T *e = work, *tauq = work + k, *taup = work + 2 * k, *rest = work + 3 * k;
    TP_SE_TAG(tp_sv_gebd2)(s, k, k, k, sv, e, tauq, taup);
    const int64_t info = TP_SE_TAG(tp_sv_bdsdc)(1, k, sv, e, u, v, rest);
    for (int64_t i = k - 1; i >= 0; i--) {      /* u = Q u: reflectors last to first */
        const int64_t below = i + 1 < k ? i + 1 : i;
        TP_SE_TAG(tp_sv_reflect_left)(u, k, i, k - i, 0, k, &SV_AT(s, k, below, i), 1, tauq[i]);
    }
    for (int64_t i = k - 2; i >= 0; i--) {      /* v = P v (V^T = V^T P^T) */
        const int64_t right = i + 2 < k ? i + 2 : i + 1;
        TP_SE_TAG(tp_sv_reflect_left)(v, k, i + 1, k - i - 1, 0, k, &SV_AT(s, k, i, right), k,
                                      taup[i]);
    }
    return info;
}

/* xGESDD('S' or 'A') of a (m x n, row-major), min(m, n) = k <= 25: uo (m x ucols), sv (k),
 * vt (vrows x n), row-major, ucols = vrows = k or (full) m and n. work: big^2 + big k +
 * 3 k^2 + 12 k (TP_SVD_WORK). Returns 0, or nonzero where the iteration did not converge. */
static inline TP_DEVICE int64_t TP_SE_TAG(tp_sv_gesdd)(const SV_T *in, int64_t m, int64_t n,
                                                       int64_t full, SV_T *uo, SV_T *sv,
                                                       SV_T *vto, SV_T *work) {
    const int tall = m >= n;
    const int64_t k = tall ? n : m, big = tall ? m : n;
    const int64_t ucols = full ? m : k, vrows = full ? n : k;
    SV_T *x = work;                                /* big x k: A, or A^T when wide */
    SV_T *s = x + big * k, *us = s + k * k, *vs = us + k * k;      /* vs: V, V^T = vs^T */
    SV_T *q = vs + k * k;                         /* big x big */
    SV_T *vec = q + big * big;                     /* 12 k */
    int64_t info;
    const int factor_first = big >= (int64_t)((double)k * 11.0 / 6.0);
    if (factor_first) {
        /* The QR of A (or A^T): x = Q R; the SVD of R (or L = R^T); U, V^T through Q. */
        for (int64_t j = 0; j < k; j++)
            for (int64_t i = 0; i < big; i++)
                SV_AT(x, big, i, j) = tall ? in[i * n + j] : in[j * n + i];
        SV_T *tau = vec;
        TP_SE_TAG(tp_sv_geqr2)(x, big, big, k, tau);
        for (int64_t j = 0; j < k; j++)
            for (int64_t i = 0; i < k; i++) {
                const SV_T r = i <= j ? SV_AT(x, big, i, j) : 0;   /* R(i, j) */
                if (tall) SV_AT(s, k, i, j) = r;
                else SV_AT(s, k, j, i) = r;                          /* L = R^T */
            }
        info = TP_SE_TAG(tp_sv_square)(s, k, sv, us, vs, vec + k);
        const int64_t qcols = full ? big : k;
        for (int64_t j = 0; j < qcols; j++)        /* Q's first qcols columns (xORG2R) */
            for (int64_t i = 0; i < big; i++) SV_AT(q, big, i, j) = i == j;
        for (int64_t i = k - 1; i >= 0; i--) {
            const int64_t below = i + 1 < big ? i + 1 : i;
            TP_SE_TAG(tp_sv_reflect_left)(q, big, i, big - i, 0, qcols, &SV_AT(x, big, below, i),
                                          1, tau[i]);
        }
        if (tall) {        /* U = Q[:, :k] us, then Q's other columns; V^T = vs^T */
            for (int64_t i = 0; i < m; i++) {
                for (int64_t j = 0; j < k; j++) {
                    SV_T acc = 0;
                    for (int64_t l = 0; l < k; l++) acc += SV_AT(q, big, i, l) * SV_AT(us, k, l, j);
                    uo[i * ucols + j] = acc;
                }
                for (int64_t j = k; j < ucols; j++) uo[i * ucols + j] = SV_AT(q, big, i, j);
            }
            for (int64_t i = 0; i < k; i++)
                for (int64_t j = 0; j < n; j++) vto[i * n + j] = SV_AT(vs, k, j, i);
        } else {           /* U = us; V^T = vs^T Q[:, :k]^T, then Q's other columns as rows */
            for (int64_t i = 0; i < m; i++)
                for (int64_t j = 0; j < k; j++) uo[i * ucols + j] = SV_AT(us, k, i, j);
            for (int64_t i = 0; i < k; i++)
                for (int64_t j = 0; j < n; j++) {
                    SV_T acc = 0;
                    for (int64_t l = 0; l < k; l++) acc += SV_AT(vs, k, l, i) * SV_AT(q, big, j, l);
                    vto[i * n + j] = acc;
                }
            for (int64_t i = k; i < vrows; i++)
                for (int64_t j = 0; j < n; j++) vto[i * n + j] = SV_AT(q, big, j, i);
        }
        return info;
    }
    /* Bidiagonalise A itself (x: m x n col-major), then U = Q [us 0; 0 I],
     * V = P [vs 0; 0 I] (V^T its transpose). */
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < m; i++) SV_AT(x, m, i, j) = in[i * n + j];
    SV_T *e = vec, *tauq = vec + k, *taup = vec + 2 * k;
    TP_SE_TAG(tp_sv_gebd2)(x, m, m, n, sv, e, tauq, taup);
    info = TP_SE_TAG(tp_sv_bdsdc)(tall, k, sv, e, us, vs, vec + 3 * k);
    SV_T *uf = q;                                  /* m x ucols, col-major */
    for (int64_t j = 0; j < ucols; j++)
        for (int64_t i = 0; i < m; i++)
            SV_AT(uf, m, i, j) = i < k && j < k ? SV_AT(us, k, i, j) : (SV_T)(i == j);
    const int64_t nq = tall ? k : k - 1, q0 = tall ? 0 : 1;    /* left reflectors */
    for (int64_t r = nq - 1; r >= 0; r--) {
        const int64_t top = r + q0, below = top + 1 < m ? top + 1 : top;
        TP_SE_TAG(tp_sv_reflect_left)(uf, m, top, m - top, 0, ucols, &SV_AT(x, m, below, r), 1,
                                      tauq[r]);
    }
    for (int64_t i = 0; i < m; i++)
        for (int64_t j = 0; j < ucols; j++) uo[i * ucols + j] = SV_AT(uf, m, i, j);
    SV_T *vf = q;                                  /* V: n x vrows, col-major */
    for (int64_t j = 0; j < vrows; j++)
        for (int64_t i = 0; i < n; i++)
            SV_AT(vf, n, i, j) = i < k && j < k ? SV_AT(vs, k, i, j) : (SV_T)(i == j);
    const int64_t np = tall ? k - 1 : k, p0 = tall ? 1 : 0;    /* right reflectors */
    for (int64_t r = np - 1; r >= 0; r--) {
        const int64_t left = r + p0, right = left + 1 < n ? left + 1 : left;
        TP_SE_TAG(tp_sv_reflect_left)(vf, n, left, n - left, 0, vrows, &SV_AT(x, m, r, right),
                                      m, taup[r]);
    }
    for (int64_t i = 0; i < vrows; i++)
        for (int64_t j = 0; j < n; j++) vto[i * n + j] = SV_AT(vf, n, j, i);
    return info;
}

#undef SV_T
#undef SV_FABS
#undef SV_SQRT
#undef SV_SIGN
#undef SV_EPS
#undef SV_SAFMIN
#undef SV_AT
