/* tp_cholesky.h: blocked Cholesky of one row-major matrix on the host (lower, reading the
 * lower triangle), for tp_linalg.h's tp_cholesky_<tag> driver, at every size (the device
 * keeps tp_linalg.h's unblocked item: one thread per matrix).
 *
 * Right-looking, in steps of TP_CHOLESKY_BLOCK columns (LAPACK's potrf): with the matrix
 * split at the step's block as [[A11, .], [A21, A22]],
 *   1. A11 = L11 L11^T, unblocked (one thread: a block is tens of microseconds);
 *   2. L21 = A21 L11^-T, row by row (the rows are independent: shared out between threads
 *      in chunks), each chunk then packed for step 3 as both of GEMM's operands;
 *   3. A22 -= L21 L21^T on tp_gemm.h's micro-kernels, in row blocks of the lower triangle
 *      (bottom first: the longest rows are taken first, so that the threads end together).
 * Step 3 is nearly all of the work (n^3/3 of n^3/3 + n^2 nb/2 multiply-adds) and runs at
 * GEMM's speed: the micro-kernel adds a product into C, so the packed copy of L21 that
 * stands as its left operand is negated (exactly) to subtract. Row blocks cover whole tiles
 * up to their last row, so a tile on the diagonal also writes a few entries above it: they
 * are never read, and are zeroed at the end (a band MR wide).
 *
 * A non-positive (or NaN) pivot stops the factorization and fills the result with NaN, as
 * the unblocked item and JAX do. Sums are reassociated (blocks, SIMD lanes, fused
 * multiply-adds in the micro-kernels), as LAPACK's blocked potrf reassociates them. */
#ifndef TRANSPILE_CHOLESKY_H
#define TRANSPILE_CHOLESKY_H

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The micro-kernels and packing, without GEMM's exported entries (see the end of
 * tp_gemm.h); a translation unit with no GEMM of its own leaves some of them unused. */
#define TP_GEMM_PARTS_ONLY
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#include "tp_gemm.h"
#pragma GCC diagnostic pop
#undef TP_GEMM_PARTS_ONLY

/* Sizes measured on this project's machine (AMD EPYC, AVX-512, 2 threads; see the commit
 * that set them). Overridable with -D, as tp_gemm.h's. */
#ifndef TP_CHOLESKY_BLOCK
#define TP_CHOLESKY_BLOCK 64          /* columns per step: GEMM's k in step 3 */
#endif
#ifndef TP_CHOLESKY_PARALLEL_MIN
#define TP_CHOLESKY_PARALLEL_MIN 256  /* n below which one thread is faster */
#endif

/* Rows per chunk of step 2: a multiple of both MR and NR (the packed strips of a chunk start
 * where whole strips start), at least 32. */
static int64_t __attribute__((unused)) tp_cholesky_chunk_rows(int64_t mr, int64_t nr) {
    int64_t a = mr, b = nr;
    while (b != 0) { const int64_t r = a % b; a = b; b = r; }
    const int64_t lcm = mr / a * nr;
    return (32 + lcm - 1) / lcm * lcm;
}

#define TP_CHOLESKY(tag, T, SQRT)                                                             \
    /* The kb x kb block at d (row stride ld) factored in place, as the unblocked item        \
     * does; 0 at a pivot that is not positive. */                                            \
    static int tp_cholesky_diagonal_##tag(T *d, int64_t ld, int64_t kb) {                     \
        for (int64_t j = 0; j < kb; j++) {                                                    \
            T *row_j = d + j * ld, acc = 0;                                                   \
            _Pragma("omp simd reduction(+:acc)")                                              \
            for (int64_t c = 0; c < j; c++) acc += row_j[c] * row_j[c];                       \
            const T pivot = row_j[j] - acc;                                                   \
            if (!(pivot > 0)) return 0;                      /* also catches NaN */           \
            const T root = SQRT(pivot);                                                       \
            row_j[j] = root;                                                                  \
            for (int64_t i = j + 1; i < kb; i++) {                                            \
                T *row_i = d + i * ld, dot = 0;                                               \
                _Pragma("omp simd reduction(+:dot)")                                          \
                for (int64_t c = 0; c < j; c++) dot += row_i[c] * row_j[c];                   \
                row_i[j] = (row_i[j] - dot) / root;                                           \
            }                                                                                 \
        }                                                                                     \
        return 1;                                                                             \
    }                                                                                         \
    /* One step's rows [r0, r0 + rows) of L21 (at x, row stride ld) times L11^-T, L11 the     \
     * factored block at d, through xt (kb x w, w >= rows: the chunk transposed, so that the  \
     * substitution runs down its columns with every row of the chunk in one vector, instead \
     * of as dot products a few elements long, a chain of dependent sums each); then written \
     * back, and packed from xt for step 3: negated as the left operand (MR-high strips, at  \
     * ap) and as the right operand L21^T (NR-wide strips, at bp). */                        \
    static void tp_cholesky_panel_chunk_##tag(T *x, int64_t rows, const T *d, int64_t ld,     \
                                              int64_t kb, T *restrict xt, int64_t w,          \
                                              T *restrict ap, T *restrict bp) {               \
        enum { MR = TP_GEMM_MR_##tag, NR = 2 * TP_GEMM_VL_##tag };                            \
        for (int64_t r = 0; r < rows; r++)                                                    \
            for (int64_t p = 0; p < kb; p++) xt[p * w + r] = x[r * ld + p];                   \
        for (int64_t p = 0; p < kb; p++) {                                                    \
            T *restrict done = xt + p * w;                                                    \
            const T pivot = d[p * ld + p];                                                    \
            for (int64_t r = 0; r < rows; r++) done[r] /= pivot;                              \
            for (int64_t c = p + 1; c < kb; c++) {                                            \
                T *restrict next = xt + c * w;                                                \
                const T factor = d[c * ld + p];                                               \
                for (int64_t r = 0; r < rows; r++) next[r] -= factor * done[r];               \
            }                                                                                 \
        }                                                                                     \
        for (int64_t r = 0; r < rows; r++)                                                    \
            for (int64_t p = 0; p < kb; p++) x[r * ld + p] = xt[p * w + r];                   \
        for (int64_t s0 = 0; s0 < rows; s0 += MR, ap += MR * kb)                              \
            for (int64_t p = 0; p < kb; p++)                                                  \
                for (int64_t i = 0; i < MR; i++)                                              \
                    ap[p * MR + i] = s0 + i < rows ? -xt[p * w + s0 + i] : 0;                 \
        for (int64_t s0 = 0; s0 < rows; s0 += NR, bp += NR * kb)                              \
            for (int64_t p = 0; p < kb; p++)                                                  \
                for (int64_t j = 0; j < NR; j++)                                              \
                    bp[p * NR + j] = s0 + j < rows ? xt[p * w + s0 + j] : 0;                  \
    }                                                                                         \
    /* Step 3 for the trailing rows [i0, i0 + rows) (from the step's trailing corner c, row   \
     * stride ld): the columns left of the block in one pass, then the block's own square    \
     * one MR strip at a time, each up to its last row (whole rows would compute the square  \
     * whole, half of it above the diagonal: a fifth more work at n = 1000). */              \
    static void tp_cholesky_update_##tag(int64_t i0, int64_t rows, int64_t kb, const T *ap,   \
                                         const T *bp, T *c, int64_t ld) {                     \
        enum { MR = TP_GEMM_MR_##tag, NR = 2 * TP_GEMM_VL_##tag };                            \
        if (i0 > 0)                                                                           \
            tp_gemm_macro_##tag(rows, i0, kb, ap + i0 * kb, bp, c + i0 * ld, ld, 1, NR);      \
        for (int64_t s0 = 0; s0 < rows; s0 += MR) {                                           \
            const int64_t strip = rows - s0 < MR ? rows - s0 : MR;                            \
            tp_gemm_macro_##tag(strip, s0 + strip, kb, ap + (i0 + s0) * kb, bp + i0 * kb,     \
                                c + (i0 + s0) * ld + i0, ld, 1, NR);                          \
        }                                                                                     \
    }                                                                                         \
    /* Steps 1-3 over the whole of `out` (n x n, its lower triangle A's), on the threads of   \
     * the enclosing region; *positive (shared) ends 0 at a pivot that is not. The          \
     * thread that updates the rows of the next diagonal block (the last row block taken:   \
     * the update goes bottom first) factors that block as soon as it has, so that a step    \
     * waits on two barriers, not three. */                                                  \
    static void tp_cholesky_steps_##tag(T *out, int64_t n, T *ap, T *bp, T *xt,               \
                                        int *positive) {                                      \
        enum { MR = TP_GEMM_MR_##tag, NR = 2 * TP_GEMM_VL_##tag };                            \
        const int64_t nb = TP_CHOLESKY_BLOCK, chunk = tp_cholesky_chunk_rows(MR, NR);         \
        /* row blocks of step 3: whole chunks (their strips start on a column strip) of about \
         * TP_GEMM_MC rows, at least one whole diagonal block */                              \
        const int64_t mc = TP_GEMM_MC > chunk ? TP_GEMM_MC / chunk * chunk : chunk;           \
        const int64_t first = mc < nb ? mc : nb;                                              \
        _Pragma("omp single")                                                                 \
        *positive = tp_cholesky_diagonal_##tag(out, n, n < first ? n : first);                \
        for (int64_t k0 = 0, kb = first; k0 + kb < n && *positive;) {                        \
            const int64_t t = k0 + kb, m = n - t, next = m < first ? m : first;               \
            const T *d = out + k0 * n + k0;                                                   \
            _Pragma("omp for schedule(dynamic, 1)")                                           \
            for (int64_t r0 = 0; r0 < m; r0 += chunk)                                         \
                tp_cholesky_panel_chunk_##tag(out + (t + r0) * n + k0,                        \
                                              m - r0 < chunk ? m - r0 : chunk, d, n, kb, xt,  \
                                              chunk, ap + r0 * kb, bp + r0 * kb);             \
            const int64_t blocks = (m + mc - 1) / mc;                                         \
            _Pragma("omp for schedule(dynamic, 1)")                                           \
            for (int64_t b = blocks - 1; b >= 0; b--) {                                       \
                tp_cholesky_update_##tag(b * mc, m - b * mc < mc ? m - b * mc : mc, kb, ap,   \
                                         bp, out + t * n + t, n);                             \
                if (b == 0) *positive = tp_cholesky_diagonal_##tag(out + t * n + t, n, next); \
            }                                                                                 \
            k0 = t;                                                                           \
            kb = next;                                                                        \
        }                                                                                     \
    }                                                                                         \
    /* L of the n x n matrix `in` into `out` (not overlapping), on the threads or not.        \
     * Returns 0, writing nothing, when its working memory cannot be allocated. */           \
    static int tp_cholesky_blocked_##tag(const T *in, T *out, int64_t n, int threads) {       \
        enum { MR = TP_GEMM_MR_##tag, NR = 2 * TP_GEMM_VL_##tag };                            \
        const int64_t nb = TP_CHOLESKY_BLOCK, chunk = tp_cholesky_chunk_rows(MR, NR);         \
        const int most = threads ? TP_GEMM_MAX_THREADS() : 1;                                 \
        const int one_block = n <= nb;             /* step 1 alone: no working memory */      \
        const size_t packed = sizeof(T) * (size_t)(tp_gemm_round_up(n, chunk) * nb);          \
        T *ap = one_block ? NULL : tp_gemm_alloc(packed);                                     \
        T *bp = one_block ? NULL : tp_gemm_alloc(packed);                                     \
        T *xts = one_block ? NULL : tp_gemm_alloc(sizeof(T) * (size_t)(most * chunk * nb));   \
        if (!one_block && (ap == NULL || bp == NULL || xts == NULL)) {                        \
            free(ap);                                                                         \
            free(bp);                                                                         \
            free(xts);                                                                        \
            return 0;                                                                         \
        }                                                                                     \
        int positive = 1;                                                                     \
        _Pragma("omp parallel if(threads && !one_block) num_threads(most)")                   \
        {                                                                                     \
            int team = 1, me = 0;                                                             \
            TP_GEMM_THREAD_ID(team, me);                                                      \
            (void)team;                                                                       \
            _Pragma("omp for schedule(static)")                                               \
            for (int64_t i = 0; i < n; i++) {                                                 \
                memcpy(out + i * n, in + i * n, sizeof(T) * (size_t)(i + 1));                 \
                memset(out + i * n + i + 1, 0, sizeof(T) * (size_t)(n - i - 1));              \
            }                                                                                 \
            T *xt = one_block ? NULL : xts + (int64_t)me * chunk * nb;   /* this thread's */ \
            tp_cholesky_steps_##tag(out, n, ap, bp, xt, &positive);                           \
            if (positive) {                                                                   \
                _Pragma("omp for schedule(static)")   /* the diagonal tiles' entries above */ \
                for (int64_t i = 0; i < n; i++) {                                             \
                    const int64_t end = n - i < MR ? n : i + MR;                              \
                    if (end > i + 1)                                                          \
                        memset(out + i * n + i + 1, 0, sizeof(T) * (size_t)(end - i - 1));   \
                }                                                                             \
            } else {                          /* JAX: NaN where not positive definite */      \
                _Pragma("omp for schedule(static)")                                           \
                for (int64_t i = 0; i < n * n; i++) out[i] = (T)NAN;                          \
            }                                                                                 \
        }                                                                                     \
        free(ap);                                                                             \
        free(bp);                                                                             \
        free(xts);                                                                            \
        return 1;                                                                             \
    }

TP_CHOLESKY(f32, float, sqrtf)
TP_CHOLESKY(f64, double, sqrt)

#endif /* TRANSPILE_CHOLESKY_H */
