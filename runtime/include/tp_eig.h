/* Eigen-decomposition of general (non-symmetric) square matrices, real or complex, for
 * jnp.linalg.eig / eigvals and jnp.roots, with no LAPACK:
 *   1. Householder reduction to upper Hessenberg form H = Q^H A Q;
 *   2. the implicit single-shift complex QR algorithm on H (Wilkinson shifts from the
 *      trailing 2 x 2 block, an exceptional shift every tenth step without deflation),
 *      accumulating the rotations into Z: A = Z T Z^H with T upper triangular (Schur form);
 *   3. eigenvectors of T by back substitution (a tiny denominator is raised to eps |T|, as
 *      LAPACK's trevc does), mapped back by Z, each normalised to unit 2-norm with its
 *      largest component real and positive;
 *   4. the inverse of the eigenvector matrix (Gaussian elimination, partial pivoting), for
 *      the derivative of the eigenvalues.
 * Everything is computed in double precision, with the complex numbers as separate real
 * and imaginary arrays (no _Complex, so that CUDA compiles it too). Eigenvalues come in the
 * order the Schur form's diagonal holds them (LAPACK's order may differ).
 * Output per matrix: (2n + 1) x n complex values, interleaved as NumPy stores them: row 0
 * the eigenvalues, rows 1..n the eigenvectors (as columns), rows n+1..2n their inverse.
 * NaN or inf in the input, or no convergence in 60 n steps, gives NaN everywhere.
 * Work (caller's): 6 n^2 + 4 n doubles per matrix. */
#ifndef TRANSPILE_EIG_H
#define TRANSPILE_EIG_H

#include <float.h>
#include <math.h>
#include <stdint.h>
#include "tp_complex.h"
#include "tp_kernel_api.h"

#ifndef TP_DEVICE
#define TP_DEVICE
#endif
#define TP_EIG_FN static inline TP_DEVICE

/* |z| as |re| + |im|: the cheap norm the deflation tests use (as EISPACK's). */
TP_EIG_FN double tp_eig_l1(double re, double im) { return fabs(re) + fabs(im); }

/* (ar + i ai) / (br + i bi) by Smith's algorithm (no overflow for large parts). */
TP_EIG_FN void tp_eig_div(double ar, double ai, double br, double bi, double *cr, double *ci) {
    if (fabs(br) >= fabs(bi)) {
        const double r = bi / br, d = br + bi * r;
        *cr = (ar + ai * r) / d;
        *ci = (ai - ar * r) / d;
    } else {
        const double r = br / bi, d = bi + br * r;
        *cr = (ar * r + ai) / d;
        *ci = (ai * r - ar) / d;
    }
}

/* The principal square root of re + i im. */
TP_EIG_FN void tp_eig_sqrt(double re, double im, double *sr, double *si) {
    const double m = hypot(re, im);
    if (m == 0) { *sr = 0; *si = 0; return; }
    double t = sqrt(0.5 * (m + fabs(re)));
    if (re >= 0) { *sr = t; *si = im / (2 * t); }
    else { *sr = fabs(im) / (2 * t); *si = im >= 0 ? t : -t; }
}

/* 1. H (n x n, re/im arrays) to upper Hessenberg form; Z^T (Z transposed, so that every
 * later update of Z walks along rows) accumulates the reflections. sr/si: n each. */
TP_EIG_FN void tp_eig_hessenberg(double *hr, double *hi, double *zr, double *zi,
                                 double *vr, double *vi, double *tr, double *ti, int64_t n) {
    for (int64_t i = 0; i < n * n; i++) { zr[i] = 0; zi[i] = 0; }
    for (int64_t i = 0; i < n; i++) zr[i * n + i] = 1;
    for (int64_t k = 0; k + 2 < n; k++) {
        double alpha2 = 0;
        for (int64_t i = k + 1; i < n; i++)
            alpha2 += hr[i * n + k] * hr[i * n + k] + hi[i * n + k] * hi[i * n + k];
        const double alpha = sqrt(alpha2);
        if (alpha == 0) continue;
        const double x0r = hr[(k + 1) * n + k], x0i = hi[(k + 1) * n + k];
        const double x0 = hypot(x0r, x0i);
        const double pr = x0 > 0 ? x0r / x0 : 1, pi = x0 > 0 ? x0i / x0 : 0;
        const double betar = -pr * alpha, betai = -pi * alpha;      /* -phase(x0) |x| */
        for (int64_t i = k + 1; i < n; i++) { vr[i] = hr[i * n + k]; vi[i] = hi[i * n + k]; }
        vr[k + 1] -= betar;
        vi[k + 1] -= betai;
        double vnorm2 = 0;
        for (int64_t i = k + 1; i < n; i++) vnorm2 += vr[i] * vr[i] + vi[i] * vi[i];
        const double tau = 2 / vnorm2;
        /* H <- (I - tau v v^H) H and Z^T <- (I - tau conj(v) v^T) Z^T (that is, Z <- Z P):
         * s = v^H M (or v^T M), accumulated row by row, then M -= tau v s. */
        for (int pass = 0; pass < 2; pass++) {
            double *mr = pass ? zr : hr, *mi = pass ? zi : hi;
            /* H: s = conj(v)^T H, then H -= tau v s; Z^T: s = v^T Z^T, then -= tau conj(v) s */
            const double sign = pass ? -1 : 1;
            const int64_t j0 = pass ? 0 : k;
            for (int64_t j = j0; j < n; j++) { tr[j] = 0; ti[j] = 0; }
            for (int64_t i = k + 1; i < n; i++) {
                const double ar = vr[i], ai = sign * vi[i];
                for (int64_t j = j0; j < n; j++) {
                    tr[j] += ar * mr[i * n + j] + ai * mi[i * n + j];
                    ti[j] += ar * mi[i * n + j] - ai * mr[i * n + j];
                }
            }
            for (int64_t i = k + 1; i < n; i++) {            /* times v_i (or conj(v_i)) */
                const double ar = vr[i], ai = sign * vi[i];
                for (int64_t j = j0; j < n; j++) {
                    mr[i * n + j] -= tau * (ar * tr[j] - ai * ti[j]);
                    mi[i * n + j] -= tau * (ar * ti[j] + ai * tr[j]);
                }
            }
        }
        {                                                  /* H <- H P */
            double *mr = hr, *mi = hi;
            for (int64_t i = 0; i < n; i++) {
                double sr = 0, si = 0;                    /* s = M[i, :] v */
                for (int64_t j = k + 1; j < n; j++) {
                    sr += mr[i * n + j] * vr[j] - mi[i * n + j] * vi[j];
                    si += mr[i * n + j] * vi[j] + mi[i * n + j] * vr[j];
                }
                for (int64_t j = k + 1; j < n; j++) {     /* M[i, j] -= tau s conj(v_j) */
                    mr[i * n + j] -= tau * (sr * vr[j] + si * vi[j]);
                    mi[i * n + j] -= tau * (si * vr[j] - sr * vi[j]);
                }
            }
        }
        hr[(k + 1) * n + k] = betar;
        hi[(k + 1) * n + k] = betai;
        for (int64_t i = k + 2; i < n; i++) { hr[i * n + k] = 0; hi[i * n + k] = 0; }
    }
}

/* The rotation G = [[c, s], [-conj(s), c]] with G [x; y] = [r; 0]. */
TP_EIG_FN void tp_eig_givens(double xr, double xi, double yr, double yi, double *c, double *sr,
                             double *si) {
    const double ax = hypot(xr, xi), r = hypot(ax, hypot(yr, yi));
    if (r == 0) { *c = 1; *sr = 0; *si = 0; return; }
    if (ax == 0) { *c = 0; *sr = yr / r; *si = -yi / r; return; }
    *c = ax / r;
    const double ur = xr / ax, ui = xi / ax;              /* s = (x / |x|) conj(y) / r */
    *sr = (ur * yr + ui * yi) / r;
    *si = (ui * yr - ur * yi) / r;
}

/* Rows k, k+1 of M from column j0 on: M <- G M. */
TP_EIG_FN void tp_eig_rotate_rows(double *mr, double *mi, int64_t n, int64_t k, int64_t j0,
                                  double c, double sr, double si) {
    for (int64_t j = j0; j < n; j++) {
        const double ar = mr[k * n + j], ai = mi[k * n + j];
        const double br = mr[(k + 1) * n + j], bi = mi[(k + 1) * n + j];
        mr[k * n + j] = c * ar + (sr * br - si * bi);
        mi[k * n + j] = c * ai + (sr * bi + si * br);
        mr[(k + 1) * n + j] = c * br - (sr * ar + si * ai);
        mi[(k + 1) * n + j] = c * bi - (sr * ai - si * ar);
    }
}

/* Columns k, k+1 of M in rows 0..i1-1: M <- M G^H. */
TP_EIG_FN void tp_eig_rotate_columns(double *mr, double *mi, int64_t n, int64_t k, int64_t i1,
                                     double c, double sr, double si) {
    for (int64_t i = 0; i < i1; i++) {
        const double ar = mr[i * n + k], ai = mi[i * n + k];
        const double br = mr[i * n + k + 1], bi = mi[i * n + k + 1];
        mr[i * n + k] = c * ar + (sr * br + si * bi);
        mi[i * n + k] = c * ai + (sr * bi - si * br);
        mr[i * n + k + 1] = c * br - (sr * ar - si * ai);
        mi[i * n + k + 1] = c * bi - (sr * ai + si * ar);
    }
}

/* Rows k, k+1 of M^T: the columns update M <- M G^H on a matrix stored transposed. */
TP_EIG_FN void tp_eig_rotate_transposed(double *mr, double *mi, int64_t n, int64_t k, double c,
                                        double sr, double si) {
    for (int64_t j = 0; j < n; j++) {
        const double ar = mr[k * n + j], ai = mi[k * n + j];
        const double br = mr[(k + 1) * n + j], bi = mi[(k + 1) * n + j];
        mr[k * n + j] = c * ar + (sr * br + si * bi);
        mi[k * n + j] = c * ai + (sr * bi - si * br);
        mr[(k + 1) * n + j] = c * br - (sr * ar - si * ai);
        mi[(k + 1) * n + j] = c * bi - (sr * ai + si * ar);
    }
}

/* 2. The Hessenberg H to Schur form T (in place), Z^T updated. 0 if it did not converge. */
TP_EIG_FN int tp_eig_schur(double *hr, double *hi, double *zr, double *zi, int64_t n) {
    double norm = 0;
    for (int64_t i = 0; i < n * n; i++) norm += tp_eig_l1(hr[i], hi[i]);
    int64_t hi_ = n - 1, steps = 0, since = 0;
    while (hi_ > 0) {
        int64_t l = hi_;
        for (; l > 0; l--) {                               /* a negligible subdiagonal */
            double s = tp_eig_l1(hr[(l - 1) * n + l - 1], hi[(l - 1) * n + l - 1]) +
                       tp_eig_l1(hr[l * n + l], hi[l * n + l]);
            if (s == 0) s = norm;
            if (tp_eig_l1(hr[l * n + l - 1], hi[l * n + l - 1]) <= DBL_EPSILON * s) break;
        }
        if (l > 0) { hr[l * n + l - 1] = 0; hi[l * n + l - 1] = 0; }
        if (l == hi_) { hi_--; since = 0; continue; }      /* one eigenvalue deflated */
        if (++steps > 60 * n) return 0;
        since++;
        double mur, mui;
        const int64_t m = hi_ - 1;
        if (since % 10 == 0) {                             /* exceptional shift */
            mur = hr[hi_ * n + hi_] + fabs(hr[hi_ * n + m]) + fabs(hi[hi_ * n + m]);
            mui = hi[hi_ * n + hi_];
        } else {                                           /* Wilkinson's shift */
            const double ar = hr[m * n + m], ai = hi[m * n + m], dr = hr[hi_ * n + hi_],
                         di = hi[hi_ * n + hi_];
            const double br = hr[m * n + hi_], bi = hi[m * n + hi_];     /* b c */
            const double cr = hr[hi_ * n + m], ci = hi[hi_ * n + m];
            const double bcr = br * cr - bi * ci, bci = br * ci + bi * cr;
            const double hr_ = 0.5 * (ar - dr), hi2 = 0.5 * (ai - di);
            double sr, si;                                 /* sqrt(((a-d)/2)^2 + bc) */
            tp_eig_sqrt(hr_ * hr_ - hi2 * hi2 + bcr, 2 * hr_ * hi2 + bci, &sr, &si);
            /* The root of the 2 x 2 block closer to d: (a + d)/2 -+ sqrt(.). */
            const double pr = 0.5 * (ar + dr), pi = 0.5 * (ai + di);
            const double d1 = tp_eig_l1(pr + sr - dr, pi + si - di);
            const double d2 = tp_eig_l1(pr - sr - dr, pi - si - di);
            mur = d1 <= d2 ? pr + sr : pr - sr;
            mui = d1 <= d2 ? pi + si : pi - si;
        }
        for (int64_t k = l; k < hi_; k++) {
            double xr, xi, yr, yi;
            if (k == l) {
                xr = hr[l * n + l] - mur; xi = hi[l * n + l] - mui;
                yr = hr[(l + 1) * n + l]; yi = hi[(l + 1) * n + l];
            } else {                                       /* chase the bulge */
                xr = hr[k * n + k - 1]; xi = hi[k * n + k - 1];
                yr = hr[(k + 1) * n + k - 1]; yi = hi[(k + 1) * n + k - 1];
            }
            double c, sr, si;
            tp_eig_givens(xr, xi, yr, yi, &c, &sr, &si);
            tp_eig_rotate_rows(hr, hi, n, k, k == l ? l : k - 1, c, sr, si);
            if (k > l) { hr[(k + 1) * n + k - 1] = 0; hi[(k + 1) * n + k - 1] = 0; }
            tp_eig_rotate_columns(hr, hi, n, k, k + 2 < hi_ + 1 ? k + 3 : hi_ + 1, c, sr, si);
            tp_eig_rotate_transposed(zr, zi, n, k, c, sr, si);
        }
    }
    return 1;
}

/* 3. Eigenvectors of T (columns of X, upper triangular), then V = Z X (Z given as Z^T),
 * normalised. */
TP_EIG_FN void tp_eig_vectors(const double *tr, const double *ti, const double *zr,
                              const double *zi, double *xr, double *xi, double *vr,
                              double *vi, int64_t n) {
    double norm = 0;
    for (int64_t i = 0; i < n * n; i++) norm = fmax(norm, tp_eig_l1(tr[i], ti[i]));
    const double small = fmax(DBL_EPSILON * norm, DBL_MIN);
    for (int64_t i = 0; i < n * n; i++) { xr[i] = 0; xi[i] = 0; }
    for (int64_t k = 0; k < n; k++) {
        xr[k * n + k] = 1;
        for (int64_t up = 1; up <= k; up++) {             /* rows k-1 down to 0 */
            const int64_t j = k - up;
            double sr = 0, si = 0;
            for (int64_t m = j + 1; m <= k; m++) {
                sr += tr[j * n + m] * xr[m * n + k] - ti[j * n + m] * xi[m * n + k];
                si += tr[j * n + m] * xi[m * n + k] + ti[j * n + m] * xr[m * n + k];
            }
            double dr = tr[j * n + j] - tr[k * n + k], di = ti[j * n + j] - ti[k * n + k];
            if (tp_eig_l1(dr, di) < small) { dr = small; di = 0; }
            double qr, qi;
            tp_eig_div(-sr, -si, dr, di, &qr, &qi);
            xr[j * n + k] = qr;
            xi[j * n + k] = qi;
            if (tp_eig_l1(qr, qi) > 1e150)                 /* rescale before overflow */
                for (int64_t m = j; m <= k; m++) {
                    xr[m * n + k] *= 1e-150;
                    xi[m * n + k] *= 1e-150;
                }
        }
    }
    for (int64_t k = 0; k < n; k++) {
        double norm2 = 0, big = -1, br = 1, bi = 0;
        for (int64_t i = 0; i < n; i++) {
            double sr = 0, si = 0;
            for (int64_t m = 0; m <= k; m++) {              /* Z[i][m] = Z^T[m][i] */
                sr += zr[m * n + i] * xr[m * n + k] - zi[m * n + i] * xi[m * n + k];
                si += zr[m * n + i] * xi[m * n + k] + zi[m * n + i] * xr[m * n + k];
            }
            vr[i * n + k] = sr;
            vi[i * n + k] = si;
            const double a = hypot(sr, si);
            norm2 += a * a;
            if (a > big) { big = a; br = sr; bi = si; }
        }
        /* unit norm, largest component real and positive: multiply by conj(b) / (|b| |v|) */
        const double scale = 1 / (sqrt(norm2) * (big > 0 ? big : 1));
        const double fr = (big > 0 ? br : 1) * scale, fi = (big > 0 ? -bi : 0) * scale;
        for (int64_t i = 0; i < n; i++) {
            const double ar = vr[i * n + k], ai = vi[i * n + k];
            vr[i * n + k] = ar * fr - ai * fi;
            vi[i * n + k] = ar * fi + ai * fr;
        }
    }
}

/* 4. Y = V^-1 (V is destroyed; perm: n doubles). 0 if V is singular. */
TP_EIG_FN int tp_eig_inverse(double *vr, double *vi, double *yr, double *yi, double *perm,
                             int64_t n) {
    for (int64_t i = 0; i < n * n; i++) { yr[i] = 0; yi[i] = 0; }
    for (int64_t i = 0; i < n; i++) yr[i * n + i] = 1;
    (void)perm;
    for (int64_t k = 0; k < n; k++) {
        int64_t p = k;
        for (int64_t i = k + 1; i < n; i++)
            if (tp_eig_l1(vr[i * n + k], vi[i * n + k]) > tp_eig_l1(vr[p * n + k], vi[p * n + k]))
                p = i;
        if (tp_eig_l1(vr[p * n + k], vi[p * n + k]) == 0) return 0;
        if (p != k)
            for (int64_t j = 0; j < n; j++) {
                double t = vr[k * n + j]; vr[k * n + j] = vr[p * n + j]; vr[p * n + j] = t;
                t = vi[k * n + j]; vi[k * n + j] = vi[p * n + j]; vi[p * n + j] = t;
                t = yr[k * n + j]; yr[k * n + j] = yr[p * n + j]; yr[p * n + j] = t;
                t = yi[k * n + j]; yi[k * n + j] = yi[p * n + j]; yi[p * n + j] = t;
            }
        for (int64_t i = 0; i < n; i++) {
            if (i == k) continue;
            double fr, fi;
            tp_eig_div(vr[i * n + k], vi[i * n + k], vr[k * n + k], vi[k * n + k], &fr, &fi);
            if (fr == 0 && fi == 0) continue;
            for (int64_t j = 0; j < n; j++) {
                vr[i * n + j] -= fr * vr[k * n + j] - fi * vi[k * n + j];
                vi[i * n + j] -= fr * vi[k * n + j] + fi * vr[k * n + j];
                yr[i * n + j] -= fr * yr[k * n + j] - fi * yi[k * n + j];
                yi[i * n + j] -= fr * yi[k * n + j] + fi * yr[k * n + j];
            }
        }
    }
    for (int64_t k = 0; k < n; k++)
        for (int64_t j = 0; j < n; j++) {
            double qr, qi;
            tp_eig_div(yr[k * n + j], yi[k * n + j], vr[k * n + k], vi[k * n + k], &qr, &qi);
            yr[k * n + j] = qr;
            yi[k * n + j] = qi;
        }
    return 1;
}

/* One matrix: hr/hi already hold it; writes the (2n+1) x n packed result to `out` (a
 * tp_c64 or tp_c128 array, parts of the real type TR). */
#define TP_EIG_SOLVE(TR, out, work, n)                                                       \
    do {                                                                                     \
        double *hr = work, *hi = hr + n * n, *zr = hi + n * n, *zi = zr + n * n;             \
        double *xr = zi + n * n, *xi = xr + n * n, *tvr = xi + n * n, *tvi = tvr + n;        \
        double *tsr = tvi + n, *tsi = tsr + n;                                               \
        int ok = finite;                                                                     \
        if (ok) {                                                                            \
            tp_eig_hessenberg(hr, hi, zr, zi, tvr, tvi, tsr, tsi, n);                        \
            ok = tp_eig_schur(hr, hi, zr, zi, n);                                            \
        }                                                                                    \
        if (ok) {                                                                            \
            for (int64_t k = 0; k < n; k++) {                                                \
                out[k].re = (TR)hr[k * n + k];                                               \
                out[k].im = (TR)hi[k * n + k];                                               \
            }                                                                                \
            /* V overwrites T's storage (T is only read before V's first entry is made). */ \
            tp_eig_vectors(hr, hi, zr, zi, xr, xi, hr, hi, n);                               \
            for (int64_t i = 0; i < n * n; i++) {                                            \
                out[n + i].re = (TR)hr[i];                                                   \
                out[n + i].im = (TR)hi[i];                                                   \
            }                                                                                \
            ok = tp_eig_inverse(hr, hi, xr, xi, tvr, n);                                     \
            for (int64_t i = 0; i < n * n; i++) {                                            \
                out[n + n * n + i].re = ok ? (TR)xr[i] : (TR)NAN;                            \
                out[n + n * n + i].im = ok ? (TR)xi[i] : (TR)NAN;                            \
            }                                                                                \
        } else {                                                                             \
            for (int64_t i = 0; i < (2 * n + 1) * n; i++) out[i].re = out[i].im = (TR)NAN;   \
        }                                                                                    \
    } while (0)

/* How an input element's parts are read: real (0) or tp_c64/tp_c128 (1). */
#define TP_EIG_RE_0(x) ((double)(x))
#define TP_EIG_IM_0(x) 0.0
#define TP_EIG_RE_1(x) ((double)(x).re)
#define TP_EIG_IM_1(x) ((double)(x).im)

/* tp_eig_<in>_item: matrix s of the batch. */
#define TP_EIG(tag, TI, IS_COMPLEX, TO, TR)                                                  \
    static inline TP_DEVICE void tp_eig_##tag##_item(const TI *a, TO *out, double *work,    \
                                                     int64_t batch, int64_t n, int64_t s) {  \
        (void)batch;                                                                         \
        const TI *in = a + s * n * n;                                                        \
        double *mine = work + s * (6 * n * n + 4 * n);                                       \
        TO *o = out + s * (2 * n + 1) * n;                                                   \
        int finite = 1;                                                                      \
        for (int64_t i = 0; i < n * n; i++) {                                                \
            const double re = TP_EIG_RE_##IS_COMPLEX(in[i]);                                 \
            const double im = TP_EIG_IM_##IS_COMPLEX(in[i]);                                 \
            mine[i] = re;                                                                    \
            mine[n * n + i] = im;                                                            \
            if (!(fabs(re) <= DBL_MAX && fabs(im) <= DBL_MAX)) finite = 0;                   \
        }                                                                                    \
        TP_EIG_SOLVE(TR, o, mine, n);                                                        \
    }

TP_EIG(f32, float, 0, tp_c64, float)
TP_EIG(f64, double, 0, tp_c128, double)
TP_EIG(c64, tp_c64, 1, tp_c64, float)
TP_EIG(c128, tp_c128, 1, tp_c128, double)

#ifndef TP_DEVICE_HELPERS
#define TP_EIG_DRIVER(tag, TI, TO)                                                           \
    TP_KERNEL_API __attribute__((noinline)) void tp_eig_##tag(                               \
            const TI *a, TO *out, double *work, int64_t batch, int64_t n) {                  \
        _Pragma("omp parallel for schedule(dynamic) if(batch > 1 && batch * n * n * n > 262144)") \
        for (int64_t s = 0; s < batch; s++) tp_eig_##tag##_item(a, out, work, batch, n, s);  \
    }
TP_EIG_DRIVER(f32, float, tp_c64)
TP_EIG_DRIVER(f64, double, tp_c128)
TP_EIG_DRIVER(c64, tp_c64, tp_c64)
TP_EIG_DRIVER(c128, tp_c128, tp_c128)
#endif

#endif /* TRANSPILE_EIG_H */
