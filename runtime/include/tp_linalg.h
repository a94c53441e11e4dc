/* Dense factorizations for batches of row-major matrices, in the algorithms NumPy's LAPACK
 * calls use, so that results (pivot choices, signs) agree with NumPy's:
 *   LU with partial pivoting (getrf: the first row of largest |value| is the pivot),
 *   Cholesky, lower (potrf; reads the lower triangle),
 *   Householder QR (geqrf/orgqr: beta = -sign(alpha) * norm, tau = 0 for a zero column).
 * A singular matrix or one that is not positive definite gives inf/NaN results, never an
 * error (JAX's behaviour under jit). Working space comes from the caller (`work`, `piv`),
 * so a helper never allocates. Batches run in parallel when there is enough work. */
#ifndef TRANSPILE_LINALG_H
#define TRANSPILE_LINALG_H

#include <math.h>
#include <stdint.h>
#include <string.h>
#include "tp_kernel_api.h"
#ifndef TP_DEVICE_HELPERS
#include "tp_cholesky.h"         /* the blocked Cholesky of the host's larger matrices */
#endif

/* TP_DEVICE: empty in C; `__host__ __device__` under the CUDA prelude (tp_cuda.h). Each
 * helper is written for one matrix of the batch (`tp_X_tag_item(..., s)`), so a CUDA kernel
 * gives each matrix a thread; the drivers below run the batch with OpenMP, except under the
 * CUDA prelude (TP_DEVICE_HELPERS), which launches the items itself. */
#ifndef TP_DEVICE
#define TP_DEVICE
#endif
#define TP_LINALG_ITEM static inline TP_DEVICE void

/* Cholesky's dot products: summed in SIMD lanes (OpenMP's reduction clause allows that
 * reassociation without -ffast-math; LAPACK's blocked potrf reassociates too). Plain loops on
 * the device, where each matrix has one thread. (The host's threads share a matrix in
 * tp_cholesky.h's blocked algorithm.) */
#ifdef TP_DEVICE_HELPERS
#define TP_LINALG_SIMD_SUM
#define TP_LINALG_SIMD_DOT
#else
#define TP_LINALG_SIMD_SUM _Pragma("omp simd reduction(+:acc)")
#define TP_LINALG_SIMD_DOT _Pragma("omp simd reduction(+:dot)")
#endif

/* LU and the triangular solves after it: plain loops on the device (a thread per matrix),
 * register tiles over strips of columns on the host (tp_triangular.h; the same LU bits). */
#ifdef TP_DEVICE_HELPERS
#define TP_LU(tag) tp_lu_##tag
#define TP_LU_SUBSTITUTE(tag, lu, x, n, k) tp_lu_substitute_rows_##tag(lu, x, n, k)
#else
#define TP_LU(tag) tp_lu_tiled_##tag
#include "tp_triangular.h"
#ifdef _OPENMP
#include <omp.h>
#endif
#define TP_LU_SUBSTITUTE(tag, lu, x, n, k) tp_lu_substitute_##tag(lu, x, n, k, 0, k)
#endif

#define TP_LINALG_PARALLEL(batch, n) \
    _Pragma("omp parallel for schedule(static) if((batch) > 1 && (batch) * (n) * (n) * (n) > 262144)")

#define TP_LINALG(tag, T, SQRT, FABS, LOG)                                                    \
    /* a (n x n) factored in place as P A = L U; piv[j] is the row swapped with row j.        \
     * Returns the permutation's parity (+1 or -1). */                                        \
    static inline TP_DEVICE int tp_lu_##tag(T *a, int64_t *piv, int64_t n) {                 \
        int parity = 1;                                                                       \
        for (int64_t j = 0; j < n; j++) {                                                     \
            int64_t p = j;                                                                    \
            T best = FABS(a[j * n + j]);                                                      \
            for (int64_t i = j + 1; i < n; i++)                                               \
                if (FABS(a[i * n + j]) > best) { best = FABS(a[i * n + j]); p = i; }          \
            piv[j] = p;                                                                       \
            if (p != j) {                                                                     \
                parity = -parity;                                                             \
                for (int64_t c = 0; c < n; c++) {                                             \
                    T t = a[j * n + c]; a[j * n + c] = a[p * n + c]; a[p * n + c] = t;        \
                }                                                                             \
            }                                                                                 \
            const T pivot = a[j * n + j];                                                     \
            if (pivot != 0)                           /* a zero pivot: skip, as getrf */      \
                for (int64_t i = j + 1; i < n; i++) a[i * n + j] /= pivot;                    \
            for (int64_t i = j + 1; i < n; i++) {                                             \
                const T l = a[i * n + j];                                                     \
                for (int64_t c = j + 1; c < n; c++) a[i * n + c] -= l * a[j * n + c];         \
            }                                                                                 \
        }                                                                                     \
        return parity;                                                                        \
    }                                                                                         \
    /* A solve's factorization: lu = a's LU (in work), x = b with the pivots' row swaps. */   \
    static inline TP_DEVICE void tp_solve_factor_##tag(                                       \
            const T *a, const T *b, T *x, T *work, int64_t *piv, int64_t n, int64_t k,        \
            int64_t s) {                                                                      \
        T *lu = work + s * n * n, *out = x + s * n * k;                                       \
        int64_t *pv = piv + s * n;                                                            \
        memcpy(lu, a + s * n * n, sizeof(T) * (size_t)(n * n));                               \
        memcpy(out, b + s * n * k, sizeof(T) * (size_t)(n * k));                              \
        TP_LU(tag)(lu, pv, n);                                                               \
        for (int64_t j = 0; j < n; j++)                                                       \
            if (pv[j] != j)                                                                   \
                for (int64_t c = 0; c < k; c++) {                                             \
                    T t = out[j * k + c]; out[j * k + c] = out[pv[j] * k + c];                \
                    out[pv[j] * k + c] = t;                                                   \
                }                                                                             \
    }                                                                                         \
    /* L y = x, then U z = y, in place, row by row (the device's; the host runs               \
     * tp_triangular.h's tiles). */                                                           \
    static inline TP_DEVICE void tp_lu_substitute_rows_##tag(const T *lu, T *out, int64_t n,  \
                                                             int64_t k) {                     \
        for (int64_t i = 0; i < n; i++)               /* L y = P b, L unit lower */          \
            for (int64_t j = 0; j < i; j++)                                                   \
                for (int64_t c = 0; c < k; c++) out[i * k + c] -= lu[i * n + j] * out[j * k + c]; \
        for (int64_t i = n - 1; i >= 0; i--) {        /* U x = y, j from the last row up */   \
            for (int64_t j = n - 1; j > i; j--)                                               \
                for (int64_t c = 0; c < k; c++) out[i * k + c] -= lu[i * n + j] * out[j * k + c]; \
            for (int64_t c = 0; c < k; c++) out[i * k + c] /= lu[i * n + i];                  \
        }                                                                                     \
    }                                                                                         \
    TP_LINALG_ITEM tp_solve_##tag##_item(                                                     \
            const T *a, const T *b, T *x, T *work, int64_t *piv, int64_t batch, int64_t n,    \
            int64_t n2, int64_t k, int64_t s) {                                               \
        (void)batch; (void)n2;                                                                \
        tp_solve_factor_##tag(a, b, x, work, piv, n, k, s);                                   \
        TP_LU_SUBSTITUTE(tag, work + s * n * n, x + s * n * k, n, k);                         \
    }                                                                                         \
    TP_LINALG_ITEM tp_det_##tag##_item(                                                       \
            const T *a, T *det, T *work, int64_t *piv, int64_t batch, int64_t n, int64_t n2,  \
            int64_t s) {                                                                      \
        (void)batch; (void)n2;                                                                \
        {                                                                                     \
            T *lu = work + s * n * n;                                                         \
            memcpy(lu, a + s * n * n, sizeof(T) * (size_t)(n * n));                           \
            T d = (T)TP_LU(tag)(lu, piv + s * n, n);                                         \
            for (int64_t j = 0; j < n; j++) d *= lu[j * n + j];                               \
            det[s] = d;                                                                       \
        }                                                                                     \
    }                                                                                         \
    /* out[s] = (sign, log|det|); a zero pivot gives (0, -inf), as NumPy. */                  \
    TP_LINALG_ITEM tp_slogdet_##tag##_item(                                                   \
            const T *a, T *out, T *work, int64_t *piv, int64_t batch, int64_t n, int64_t n2,  \
            int64_t s) {                                                                      \
        (void)batch; (void)n2;                                                                \
        {                                                                                     \
            T *lu = work + s * n * n;                                                         \
            memcpy(lu, a + s * n * n, sizeof(T) * (size_t)(n * n));                           \
            T sign = (T)TP_LU(tag)(lu, piv + s * n, n), logdet = 0;                          \
            for (int64_t j = 0; j < n; j++) {                                                 \
                const T d = lu[j * n + j];                                                    \
                if (d == 0) { sign = 0; logdet = -INFINITY; break; }                          \
                if (d < 0) sign = -sign;                                                      \
                logdet += LOG(FABS(d));                                                       \
            }                                                                                 \
            out[2 * s] = sign;                                                                \
            out[2 * s + 1] = logdet;                                                          \
        }                                                                                     \
    }                                                                                         \
    TP_LINALG_ITEM tp_cholesky_##tag##_item(                                                  \
            const T *a, T *l, int64_t batch, int64_t n, int64_t n2, int64_t s) {              \
        (void)batch; (void)n2;                                                                \
        {                                                                                     \
            const T *in = a + s * n * n;                                                      \
            T *out = l + s * n * n;                                                           \
            int positive = 1;                                                                 \
            memset(out, 0, sizeof(T) * (size_t)(n * n));                                      \
            for (int64_t j = 0; j < n && positive; j++) {                                     \
                T acc = 0;                                                                    \
                TP_LINALG_SIMD_SUM                                                            \
                for (int64_t c = 0; c < j; c++) acc += out[j * n + c] * out[j * n + c];       \
                const T d = in[j * n + j] - acc;                                              \
                if (!(d > 0)) { positive = 0; break; }     /* also catches NaN */             \
                const T root = SQRT(d);                                                       \
                out[j * n + j] = root;                                                        \
                /* The rows below: independent dot products with row j, vectorised. */      \
                for (int64_t i = j + 1; i < n; i++) {                                         \
                    T dot = 0;                                                                \
                    TP_LINALG_SIMD_DOT                                                        \
                    for (int64_t c = 0; c < j; c++) dot += out[i * n + c] * out[j * n + c];   \
                    out[i * n + j] = (in[i * n + j] - dot) / root;                            \
                }                                                                             \
            }                                                                                 \
            if (!positive)                            /* JAX: NaN where not positive definite */ \
                for (int64_t i = 0; i < n * n; i++) out[i] = (T)NAN;                          \
        }                                                                                     \
    }                                                                                         \
    /* Householder QR of a (m x n) in place: R above the diagonal, the reflectors' vectors    \
     * (v[0] = 1 implied) below it, their scales in tau (min(m, n) of them). */               \
    static inline TP_DEVICE void tp_geqrf_##tag(T *a, T *tau, int64_t m, int64_t n) {         \
        const int64_t kmax = m < n ? m : n;                                                   \
        for (int64_t j = 0; j < kmax; j++) {                                                  \
            const T alpha = a[j * n + j];                                                     \
            T scale = 0;                                                                      \
            for (int64_t i = j + 1; i < m; i++)                                               \
                if (FABS(a[i * n + j]) > scale) scale = FABS(a[i * n + j]);                   \
            T ssq = 0;                                                                        \
            for (int64_t i = j + 1; i < m && scale > 0; i++) {                                \
                const T r = a[i * n + j] / scale;                                             \
                ssq += r * r;                                                                 \
            }                                                                                 \
            const T xnorm = scale * SQRT(ssq);                                                \
            if (xnorm == 0) { tau[j] = 0; continue; }         /* H = I, as dlarfg */          \
            const T big = FABS(alpha) > xnorm ? FABS(alpha) : xnorm;                          \
            const T ra = alpha / big, rx = xnorm / big;                                       \
            const T norm = big * SQRT(ra * ra + rx * rx);                                     \
            const T beta = alpha >= 0 ? -norm : norm;                                         \
            tau[j] = (beta - alpha) / beta;                                                   \
            const T inv = 1 / (alpha - beta);                                                 \
            for (int64_t i = j + 1; i < m; i++) a[i * n + j] *= inv;                          \
            a[j * n + j] = beta;                                                              \
            for (int64_t c = j + 1; c < n; c++) {                                             \
                T w = a[j * n + c];                                                           \
                for (int64_t i = j + 1; i < m; i++) w += a[i * n + j] * a[i * n + c];         \
                w *= tau[j];                                                                  \
                a[j * n + c] -= w;                                                            \
                for (int64_t i = j + 1; i < m; i++) a[i * n + c] -= w * a[i * n + j];         \
            }                                                                                 \
        }                                                                                     \
    }                                                                                         \
    TP_LINALG_ITEM tp_qr_r_##tag##_item(                                                      \
            const T *a, T *r, T *work, int64_t batch, int64_t m, int64_t n, int64_t complete, \
            int64_t s) {                                                                      \
        const int64_t kmax = m < n ? m : n, rows = complete ? m : kmax;                       \
        (void)batch;                                                                          \
        {                                                                                     \
            T *qr = work + s * (m * n + kmax);                                                \
            memcpy(qr, a + s * m * n, sizeof(T) * (size_t)(m * n));                           \
            tp_geqrf_##tag(qr, qr + m * n, m, n);                                             \
            T *out = r + s * rows * n;                                                        \
            for (int64_t i = 0; i < rows; i++)                                                \
                for (int64_t c = 0; c < n; c++) out[i * n + c] = c >= i ? qr[i * n + c] : 0;  \
        }                                                                                     \
    }                                                                                         \
    /* Q = H_0 H_1 ... H_{k-1} applied to the first `cols` columns of I (orgqr). */           \
    TP_LINALG_ITEM tp_qr_q_##tag##_item(                                                      \
            const T *a, T *q, T *work, int64_t batch, int64_t m, int64_t n, int64_t complete, \
            int64_t s) {                                                                      \
        const int64_t kmax = m < n ? m : n, cols = complete ? m : kmax;                       \
        (void)batch;                                                                          \
        {                                                                                     \
            T *qr = work + s * (m * n + kmax), *tau = qr + m * n;                             \
            memcpy(qr, a + s * m * n, sizeof(T) * (size_t)(m * n));                           \
            tp_geqrf_##tag(qr, tau, m, n);                                                    \
            T *out = q + s * m * cols;                                                        \
            for (int64_t i = 0; i < m; i++)                                                   \
                for (int64_t c = 0; c < cols; c++) out[i * cols + c] = i == c;                \
            for (int64_t j = kmax - 1; j >= 0; j--) {                                         \
                if (tau[j] == 0) continue;                                                    \
                for (int64_t c = 0; c < cols; c++) {                                          \
                    T w = out[j * cols + c];                                                  \
                    for (int64_t i = j + 1; i < m; i++) w += qr[i * n + j] * out[i * cols + c]; \
                    w *= tau[j];                                                              \
                    out[j * cols + c] -= w;                                                   \
                    for (int64_t i = j + 1; i < m; i++) out[i * cols + c] -= w * qr[i * n + j]; \
                }                                                                             \
            }                                                                                 \
        }                                                                                     \
    }                                                                                         \
    TP_LINALG_DRIVERS(tag, T)

/* The batch drivers: every item, in parallel when there is enough work. */
#ifndef TP_DEVICE_HELPERS
/* A solve with fewer matrices than threads and enough right-hand sides: each matrix is
 * factored by one thread, then its strips of columns are substituted by all of them (the
 * substitutions are most of the work: n^2 k multiply-adds against the LU's n^3 / 3), taken
 * in turn so that a thread the system deschedules leaves its strips to the others (as
 * tp_gemm's chunks). From as many multiply-adds as a product goes parallel at
 * (TP_GEMM_PARALLEL_MIN): NPBench's contour_integral, a 100 x 100 real solve with 150
 * right-hand sides each step, 1.5M. */
#ifndef TP_SOLVE_SPLIT_MIN
#define TP_SOLVE_SPLIT_MIN (1 << 20)
#endif
static inline int tp_solve_splits_columns(int64_t batch, int64_t n, int64_t k, int64_t width) {
#ifdef _OPENMP
    return batch < omp_get_max_threads() && k > width && n * n * k >= TP_SOLVE_SPLIT_MIN;
#else
    (void)batch; (void)n; (void)k; (void)width;
    return 0;
#endif
}
#define TP_SOLVE_DRIVER(tag, T)                                                               \
    TP_KERNEL_API __attribute__((noinline)) void tp_solve_##tag(                              \
            const T *a, const T *b, T *x, T *work, int64_t *piv, int64_t batch, int64_t n,    \
            int64_t n2, int64_t k) {                                                          \
        const int64_t width = tp_trsm_width_##tag;                                            \
        if (!tp_solve_splits_columns(batch, n, k, width)) {                                   \
            TP_LINALG_PARALLEL(batch, n)                                                      \
            for (int64_t s = 0; s < batch; s++)                                               \
                tp_solve_##tag##_item(a, b, x, work, piv, batch, n, n2, k, s);                \
            return;                                                                           \
        }                                                                                     \
        for (int64_t s = 0; s < batch; s++) {                                                 \
            tp_solve_factor_##tag(a, b, x, work, piv, n, k, s);                               \
            const T *lu = work + s * n * n;                                                   \
            T *out = x + s * n * k;                                                           \
            _Pragma("omp parallel for schedule(dynamic, 1)")                                  \
            for (int64_t c = 0; c < k; c += width)                                            \
                tp_lu_substitute_##tag(lu, out, n, k, c, c + width < k ? c + width : k);      \
        }                                                                                     \
    }
#endif

#define TP_LINALG_DRIVER(name, tag, T, PARAMS, ARGS, n)                                       \
    TP_KERNEL_API __attribute__((noinline)) void tp_##name##_##tag PARAMS {                   \
        TP_LINALG_PARALLEL(batch, n)                                                          \
        for (int64_t s = 0; s < batch; s++) tp_##name##_##tag##_item ARGS;                    \
    }
#ifdef TP_DEVICE_HELPERS
#define TP_LINALG_DRIVERS(tag, T)
#else
#define TP_LINALG_DRIVERS(tag, T)                                                             \
    TP_SOLVE_DRIVER(tag, T)                                                                   \
    TP_LINALG_DRIVER(det, tag, T, (const T *a, T *det, T *work, int64_t *piv, int64_t batch,  \
                     int64_t n, int64_t n2), (a, det, work, piv, batch, n, n2, s), n)         \
    TP_LINALG_DRIVER(slogdet, tag, T, (const T *a, T *out, T *work, int64_t *piv,             \
                     int64_t batch, int64_t n, int64_t n2),                                   \
                     (a, out, work, piv, batch, n, n2, s), n)                                 \
    TP_CHOLESKY_DRIVER(tag, T)                                                                \
    TP_LINALG_DRIVER(qr_r, tag, T, (const T *a, T *r, T *work, int64_t batch, int64_t m,      \
                     int64_t n, int64_t complete), (a, r, work, batch, m, n, complete, s), n) \
    TP_LINALG_DRIVER(qr_q, tag, T, (const T *a, T *q, T *work, int64_t batch, int64_t m,      \
                     int64_t n, int64_t complete), (a, q, work, batch, m, n, complete, s), n)
#endif

/* Cholesky on the host: a matrix of one block by the unblocked item (no copy, no working
 * memory), a larger one by tp_cholesky.h's blocked algorithm. Matrices run in parallel over
 * the batch when there is one for each thread, or when each is too small for threads of its
 * own; else each matrix runs on all threads. The item is also the fallback when working
 * memory cannot be had, and the device's algorithm. */
#define TP_CHOLESKY_DRIVER(tag, T)                                                            \
    TP_KERNEL_API __attribute__((noinline)) void tp_cholesky_##tag(                           \
            const T *a, T *l, int64_t batch, int64_t n, int64_t n2) {                         \
        const int small = n < TP_CHOLESKY_PARALLEL_MIN;                                       \
        const int per_matrix = batch > 1 && (small || batch >= TP_GEMM_MAX_THREADS());       \
        (void)per_matrix;                                  /* (without OpenMP) */             \
        TP_LINALG_PARALLEL(per_matrix ? batch : 1, n)                                         \
        for (int64_t s = 0; s < batch; s++)                                                   \
            if (n <= TP_CHOLESKY_BLOCK ||                                                     \
                !tp_cholesky_blocked_##tag(a + s * n * n, l + s * n * n, n,                   \
                                           !per_matrix && !small))                            \
                tp_cholesky_##tag##_item(a, l, batch, n, n2, s);                              \
    }

TP_LINALG(f32, float, sqrtf, fabsf, logf)
TP_LINALG(f64, double, sqrt, fabs, log)

#endif /* TRANSPILE_LINALG_H */
