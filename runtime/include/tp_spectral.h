/* Spectral decompositions for batches of row-major real matrices, by Jacobi rotations
 * (accurate to working precision, simple, and needing no LAPACK):
 *   eigh: LAPACK's xSYEVD route on the lower triangle (tp_symmetric_eigen_impl.h: Householder
 *         tridiagonalisation, implicit QL/QR, back-transformation), so eigenvalues ascend and
 *         the eigenvectors (columns) carry the signs JAX's and NumPy's LAPACK give them.
 *   svd:  with vectors and min(m, n) <= 25, LAPACK's xGESDD route (tp_svd_route_impl.h), so
 *         the vectors carry the signs JAX's and NumPy's LAPACK give them; otherwise one-sided
 *         (Hestenes) Jacobi on the columns of the taller of A and A^T; singular values
 *         descending; left vectors of zero singular values, and the extra columns of
 *         full_matrices, complete an orthonormal basis.
 * Each rotation is skipped once it no longer changes the diagonal in working precision,
 * and sweeps stop when none was applied, so a sweep count bounds the work even for NaN.
 * Working space comes from the caller; a helper never allocates. */
#ifndef TRANSPILE_SPECTRAL_H
#define TRANSPILE_SPECTRAL_H

#include <float.h>
#include <math.h>
#include <stdint.h>
#include "tp_kernel_api.h"

/* TP_DEVICE: empty in C; `__host__ __device__` under the CUDA prelude (tp_cuda.h). As in
 * tp_linalg.h, each decomposition is written for one matrix of the batch
 * (`tp_X_tag_item(..., s)`), so a CUDA kernel gives each matrix a thread; the drivers below
 * run the batch with OpenMP, except under the CUDA prelude (TP_DEVICE_HELPERS), which
 * launches the items itself. */
#ifndef TP_DEVICE
#define TP_DEVICE
#endif
#define TP_SPECTRAL_ITEM static inline TP_DEVICE void

#define TP_JACOBI_MAX_SWEEPS 80
/* xGESDD's route (tp_svd_route_impl.h) up to this order of min(m, n), where LAPACK's xBDSDC
 * iterates (its SMLSIZ); the Jacobi above it. */
#define TP_SVD_ROUTE_MAX_ORDER 25
/* The svd's working space per matrix (lower_helpers.py allocates the same): up to order 25
 * the route's A (big x k), R, U and V of the bidiagonal (3 k^2), Q (big^2) and 12 k vectors
 * (the Jacobi, without vectors, uses the first big^2 + k^2 of it); above, the Jacobi's. */
#define TP_SVD_WORK(big, k)                                                                   \
    ((k) <= TP_SVD_ROUTE_MAX_ORDER ? (big) * (big) + (big) * (k) + 3 * (k) * (k) + 12 * (k)   \
                                   : (big) * (big) + (k) * (k))
#define TP_SPECTRAL_MAX(T) (sizeof(T) == sizeof(float) ? (T)FLT_MAX : (T)DBL_MAX)

#define TP_SE_T float
#define TP_SE_TAG(name) name##_f32
#define TP_SE_SQRT sqrtf
#define TP_SE_FABS fabsf
#define TP_SE_COPYSIGN copysignf
#define TP_SE_EPSILON FLT_EPSILON
#define TP_SE_TINY FLT_MIN
#include "tp_symmetric_eigen_impl.h"
#include "tp_svd_route_impl.h"
#undef TP_SE_T
#undef TP_SE_TAG
#undef TP_SE_SQRT
#undef TP_SE_FABS
#undef TP_SE_COPYSIGN
#undef TP_SE_EPSILON
#undef TP_SE_TINY
#define TP_SE_T double
#define TP_SE_TAG(name) name##_f64
#define TP_SE_SQRT sqrt
#define TP_SE_FABS fabs
#define TP_SE_COPYSIGN copysign
#define TP_SE_EPSILON DBL_EPSILON
#define TP_SE_TINY DBL_MIN
#include "tp_symmetric_eigen_impl.h"
#include "tp_svd_route_impl.h"
#undef TP_SE_T
#undef TP_SE_TAG
#undef TP_SE_SQRT
#undef TP_SE_FABS
#undef TP_SE_COPYSIGN
#undef TP_SE_EPSILON
#undef TP_SE_TINY

/* Dynamic: the sweep count, so the work, differs from matrix to matrix. The condition reads
 * the driver's `batch` and `n` themselves (_Pragma's string takes no macro arguments). */
#define TP_SPECTRAL_PARALLEL \
    _Pragma("omp parallel for schedule(dynamic) if((batch) > 1 && (batch) * (n) * (n) * (n) > 262144)")

#define TP_SPECTRAL(tag, T, SQRT, FABS, HYPOT, EPS)                                            \
    /* c, s of the rotation that zeroes the off-diagonal entry of [[app, apq], [apq, aqq]]    \
     * (Rutishauser's formulas: the smaller angle, no overflow for large ratios). */          \
    static inline TP_DEVICE void tp_jacobi_rotation_##tag(T app, T aqq, T apq, T *c,          \
                                                          T *s) {                     \
        const T theta = (aqq - app) / (2 * apq);                                              \
        const T t = (theta >= 0 ? 1 : -1) / (FABS(theta) + HYPOT(theta, (T)1));               \
        *c = 1 / HYPOT(t, (T)1);                                                              \
        *s = t * *c;                                                                          \
    }                                                                                         \
    /* out[s] is (n + 1) x n: row 0 the eigenvalues ascending, rows 1..n the eigenvectors    \
     * as columns. a is read from its lower triangle. work: n * n + 4 n per matrix. */        \
    TP_SPECTRAL_ITEM tp_eigh_##tag##_item(                                                    \
            const T *a, T *out, T *work, int64_t batch, int64_t n, int64_t n2,                \
            int64_t s) {                                                                      \
        (void)batch; (void)n2;                                                                \
        {                                                                                     \
            const T *in = a + s * n * n;                                                      \
            T *m = work + s * (n * n + 4 * n), *w = out + s * (n + 1) * n, *v = w + n;        \
            int finite = 1;                                                                   \
            for (int64_t i = 0; i < n; i++)                                                   \
                for (int64_t j = 0; j <= i; j++) {                                            \
                    const T x = in[i * n + j];                                                \
                    m[i * n + j] = x;                                                         \
                    if (!(FABS(x) <= TP_SPECTRAL_MAX(T))) finite = 0;                         \
                }                                                                             \
            if (finite && tp_se_syevd_##tag(m, w, v, m + n * n, n) != 0) finite = 0;          \
            for (int64_t i = 0; i < n; i++)                                                   \
                if (!(FABS(w[i]) <= TP_SPECTRAL_MAX(T))) finite = 0;                          \
            if (!finite) {          /* NaN or inf in, or no convergence: NaN out, as JAX */  \
                for (int64_t i = 0; i < (n + 1) * n; i++) w[i] = (T)NAN;                      \
            }                                                                                 \
        }                                                                                     \
    }                                                                                         \
    /* One-sided Jacobi on the columns u[0..cols) (each of length rows, stored contiguously) \
     * accumulating the rotations in the columns of v (cols x cols, column-major). */         \
    static inline TP_DEVICE void tp_hestenes_##tag(T *u, T *v, int64_t rows, int64_t cols) { \
        for (int64_t i = 0; i < cols * cols; i++) v[i] = 0;                                   \
        for (int64_t i = 0; i < cols; i++) v[i * cols + i] = 1;                               \
        for (int sweep = 0; sweep < TP_JACOBI_MAX_SWEEPS; sweep++) {                          \
            int rotated = 0;                                                                  \
            for (int64_t p = 0; p < cols - 1; p++)                                            \
                for (int64_t q = p + 1; q < cols; q++) {                                      \
                    T *up = u + p * rows, *uq = u + q * rows;                                 \
                    T alpha = 0, beta = 0, gamma = 0;                                         \
                    for (int64_t k = 0; k < rows; k++) {                                      \
                        alpha += up[k] * up[k];                                               \
                        beta += uq[k] * uq[k];                                                \
                        gamma += up[k] * uq[k];                                               \
                    }                                                                         \
                    /* Orthogonal to working precision already: nothing to do. */             \
                    if (!(FABS(gamma) > EPS * SQRT(alpha) * SQRT(beta))) continue;            \
                    T c, s;                                                                   \
                    tp_jacobi_rotation_##tag(alpha, beta, gamma, &c, &s);                     \
                    rotated = 1;                                                              \
                    for (int64_t k = 0; k < rows; k++) {                                      \
                        const T x = up[k], y = uq[k];                                         \
                        up[k] = c * x - s * y;                                                \
                        uq[k] = s * x + c * y;                                                \
                    }                                                                         \
                    T *vp = v + p * cols, *vq = v + q * cols;                                 \
                    for (int64_t k = 0; k < cols; k++) {                                      \
                        const T x = vp[k], y = vq[k];                                         \
                        vp[k] = c * x - s * y;                                                \
                        vq[k] = s * x + c * y;                                                \
                    }                                                                         \
                }                                                                             \
            if (!rotated) break;                                                              \
        }                                                                                     \
    }                                                                                         \
    /* Columns [have, want) of q (each of length rows, contiguous) made orthonormal to the   \
     * earlier ones: each from the unit vector least inside their span, orthogonalised twice. */ \
    static inline TP_DEVICE void tp_complete_basis_##tag(T *q, int64_t rows, int64_t have,   \
                                                         int64_t want) {                      \
        for (int64_t j = have; j < want; j++) {                                               \
            int64_t best = 0;                                                                 \
            T best_rest = -1;                                                                 \
            for (int64_t i = 0; i < rows; i++) {       /* |e_i's part outside the span|^2 */ \
                T inside = 0;                                                                 \
                for (int64_t c = 0; c < j; c++) inside += q[c * rows + i] * q[c * rows + i];  \
                if (1 - inside > best_rest) { best_rest = 1 - inside; best = i; }             \
            }                                                                                 \
            T *x = q + j * rows;                                                              \
            for (int64_t i = 0; i < rows; i++) x[i] = i == best;                              \
            for (int pass = 0; pass < 2; pass++)                                              \
                for (int64_t c = 0; c < j; c++) {                                             \
                    T dot = 0;                                                                \
                    for (int64_t i = 0; i < rows; i++) dot += q[c * rows + i] * x[i];         \
                    for (int64_t i = 0; i < rows; i++) x[i] -= dot * q[c * rows + i];         \
                }                                                                             \
            T norm = 0;                                                                       \
            for (int64_t i = 0; i < rows; i++) norm += x[i] * x[i];                           \
            norm = SQRT(norm);                                                                \
            for (int64_t i = 0; i < rows; i++) x[i] /= norm;                                  \
        }                                                                                     \
    }                                                                                         \
    /* out[s] packs U (m x ucols), the singular values (k = min(m, n)), and V^T (vrows x n),  \
     * where ucols = vrows = k, or m and n with full_matrices; without compute_uv, only the   \
     * values. work: TP_SVD_WORK(big, small) per matrix, big = max(m, n), small = min. With   \
     * vectors and k <= 25, xGESDD's route (LAPACK's signs, tp_svd_route_impl.h). */          \
    TP_SPECTRAL_ITEM tp_svd_##tag##_item(                                                     \
            const T *a, T *out, T *work, int64_t batch, int64_t m, int64_t n,                \
            int64_t full, int64_t compute_uv, int64_t s) {                                    \
        const int64_t tall = m >= n, big = tall ? m : n, k = tall ? n : m;                    \
        const int64_t ucols = full ? m : k, vrows = full ? n : k;                             \
        const int64_t per = compute_uv ? m * ucols + k + vrows * n : k;                       \
        (void)batch;                                                                          \
        {                                                                                     \
            const T *in = a + s * m * n;                                                      \
            T *u = work + s * TP_SVD_WORK(big, k), *v = u + big * big;                        \
            T *sv = out + s * per, *uo = sv + k, *vt = uo + m * ucols;                        \
            if (compute_uv) { uo = out + s * per; sv = uo + m * ucols; vt = sv + k; }         \
            if (compute_uv && k <= TP_SVD_ROUTE_MAX_ORDER) {                                  \
                int finite = 1;                                                               \
                for (int64_t i = 0; i < m * n; i++)                                           \
                    if (!(FABS(in[i]) <= TP_SPECTRAL_MAX(T))) finite = 0;                     \
                if (!finite || tp_sv_gesdd_##tag(in, m, n, full, uo, sv, vt, u) != 0)         \
                    for (int64_t i = 0; i < per; i++) out[s * per + i] = (T)NAN;              \
                return;                                                                       \
            }                                                                                 \
            /* u's column c: column c of A (tall), or row c of A (A^T is tall). */            \
            for (int64_t c = 0; c < k; c++)                                                   \
                for (int64_t i = 0; i < big; i++)                                             \
                    u[c * big + i] = tall ? in[i * n + c] : in[c * n + i];                    \
            tp_hestenes_##tag(u, v, big, k);                                                  \
            int finite = 1;                                                                   \
            for (int64_t c = 0; c < k; c++) {                                                 \
                T norm = 0;                                                                   \
                for (int64_t i = 0; i < big; i++) norm += u[c * big + i] * u[c * big + i];    \
                sv[c] = SQRT(norm);                                                           \
                if (!(sv[c] <= TP_SPECTRAL_MAX(T))) finite = 0;                              \
            }                                                                                 \
            if (!finite) {                       /* NaN or inf in: NaN out, as JAX */        \
                for (int64_t i = 0; i < per; i++) out[s * per + i] = (T)NAN;                  \
                return;                                                                       \
            }                                                                                 \
            for (int64_t i = 1; i < k; i++)            /* stable insertion sort, descending */ \
                for (int64_t j = i; j > 0 && sv[j] > sv[j - 1]; j--) {                        \
                    T t = sv[j]; sv[j] = sv[j - 1]; sv[j - 1] = t;                            \
                    for (int64_t r = 0; r < big; r++) {                                       \
                        t = u[j * big + r]; u[j * big + r] = u[(j - 1) * big + r];            \
                        u[(j - 1) * big + r] = t;                                             \
                    }                                                                         \
                    for (int64_t r = 0; r < k; r++) {                                         \
                        t = v[j * k + r]; v[j * k + r] = v[(j - 1) * k + r];                  \
                        v[(j - 1) * k + r] = t;                                               \
                    }                                                                         \
                }                                                                             \
            if (!compute_uv) return;                                                          \
            int64_t nonzero = 0;                                                              \
            for (int64_t c = 0; c < k; c++)                                                   \
                if (sv[c] > 0) {                                                              \
                    for (int64_t i = 0; i < big; i++) u[c * big + i] /= sv[c];                \
                    nonzero = c + 1;                                                          \
                }                                                                             \
            const int64_t ucount = tall ? ucols : vrows;   /* columns of the tall side used */ \
            tp_complete_basis_##tag(u, big, nonzero, ucount);                                 \
            if (tall) {                  /* A = u S v^T: U = u, V^T = v^T */                  \
                for (int64_t i = 0; i < m; i++)                                               \
                    for (int64_t c = 0; c < ucols; c++) uo[i * ucols + c] = u[c * big + i];   \
                for (int64_t r = 0; r < vrows; r++)                                           \
                    for (int64_t j = 0; j < n; j++) vt[r * n + j] = v[r * k + j];             \
            } else {                     /* A^T = u S v^T: U = v, V^T = u^T */                \
                for (int64_t i = 0; i < m; i++)                                               \
                    for (int64_t c = 0; c < ucols; c++) uo[i * ucols + c] = v[c * k + i];     \
                for (int64_t r = 0; r < vrows; r++)                                           \
                    for (int64_t j = 0; j < n; j++) vt[r * n + j] = u[r * big + j];           \
            }                                                                                 \
        }                                                                                     \
    }                                                                                         \
    TP_SPECTRAL_DRIVERS(tag, T)

/* The batch drivers: every item, in parallel when there is enough work. */
#define TP_SPECTRAL_DRIVER(name, PARAMS, ARGS)                                                \
    TP_KERNEL_API __attribute__((noinline)) void name PARAMS {                                \
        TP_SPECTRAL_PARALLEL                                                                  \
        for (int64_t s = 0; s < batch; s++) name##_item ARGS;                                 \
    }
#ifdef TP_DEVICE_HELPERS
#define TP_SPECTRAL_DRIVERS(tag, T)
#else
#define TP_SPECTRAL_DRIVERS(tag, T)                                                           \
    TP_SPECTRAL_DRIVER(tp_eigh_##tag, (const T *a, T *out, T *work, int64_t batch, int64_t n, \
                       int64_t n2), (a, out, work, batch, n, n2, s))                          \
    TP_SPECTRAL_DRIVER(tp_svd_##tag, (const T *a, T *out, T *work, int64_t batch, int64_t m,  \
                       int64_t n, int64_t full, int64_t compute_uv),                          \
                       (a, out, work, batch, m, n, full, compute_uv, s))
#endif

TP_SPECTRAL(f32, float, sqrtf, fabsf, hypotf, FLT_EPSILON)
TP_SPECTRAL(f64, double, sqrt, fabs, hypot, DBL_EPSILON)

#endif /* TRANSPILE_SPECTRAL_H */
