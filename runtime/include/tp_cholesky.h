/* tp_cholesky.h: blocked Cholesky of one row-major matrix on the host (lower, reading the
 * lower triangle), for tp_linalg.h's tp_cholesky_<tag> driver, for matrices of more than
 * one block (a matrix of one block, and every matrix on the device, takes tp_linalg.h's
 * unblocked item).
 *
 * Right-looking, in steps of TP_CHOLESKY_BLOCK columns (LAPACK's potrf): with the matrix
 * split at the step's block as [[A11, .], [A21, A22]],
 *   1. A11 = L11 L11^T, unblocked (one thread: a block is tens of microseconds);
 *   2. L21 = A21 L11^-T, in chunks of rows (independent: shared out between threads), each
 *      solved transposed and then packed for step 3 as both of GEMM's operands;
 *   3. A22 -= L21 L21^T on tp_gemm.h's micro-kernels, in row blocks of the lower triangle:
 *      the top block first (its thread then does step 1 of the next step), then the others
 *      bottom first (the longest rows first, so that the threads end together).
 * Step 3 is nearly all of the work (n^3/6 of n^3/6 + n^2 nb/4 multiply-adds) and runs at
 * GEMM's speed: the micro-kernel adds a product into C, so the packed copy of L21 that
 * stands as its left operand is negated (exactly) to subtract. Row blocks cover whole tiles
 * up to their last row, so a tile on the diagonal also writes a few entries above it: they
 * are never read, and are zeroed at the end (a band MR wide).
 *
 * A non-positive (or NaN) pivot stops the factorization and fills the result with NaN, as
 * the unblocked item and JAX do. Sums are reassociated (blocks, SIMD lanes, fused
 * multiply-adds in the micro-kernels), as LAPACK's blocked potrf reassociates them.
 *
 * One-thread CPU time at n = 1000, f64 (AMD EPYC, AVX-512): 9.2-9.5 ms, against 24.6-28 ms
 * for the unblocked item; the block size mattered little (48: 9.4-9.9, 128: 9.7-10.1). */
#ifndef TRANSPILE_CHOLESKY_H
#define TRANSPILE_CHOLESKY_H

#include <math.h>
#include <sched.h>
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

/* Sizes measured on this project's machine (AMD EPYC, AVX-512, 2 cores shared with other
 * jobs), overridable with -D as tp_gemm.h's. The block size hardly mattered (see the top);
 * threads: on a quiet machine two beat one from n = 160-200 (n = 384: 0.74 against 1.03 ms),
 * but a region costs a time slice whenever the system deschedules one of its threads (at
 * load 6, medians of 10-15 ms from n = 192 to 512, against 0.2-1.9 ms on one thread), so
 * a matrix gets threads only where that risk is a small part of its time. */
#ifndef TP_CHOLESKY_BLOCK
#define TP_CHOLESKY_BLOCK 96          /* columns per step: GEMM's k in step 3 */
#endif
#ifndef TP_CHOLESKY_INNER
#define TP_CHOLESKY_INNER 16          /* rows per substitution in step 2, between products */
#endif
#ifndef TP_CHOLESKY_PARALLEL_MIN
#define TP_CHOLESKY_PARALLEL_MIN 384  /* n below which one thread is faster */
#endif

/* Rows per chunk of step 2: a multiple of both MR and NR (the packed strips of a chunk start
 * where whole strips start), at least 32. */
static int64_t __attribute__((unused)) tp_cholesky_chunk_rows(int64_t mr, int64_t nr) {
    int64_t a = mr, b = nr;
    while (b != 0) { const int64_t r = a % b; a = b; b = r; }
    const int64_t lcm = mr / a * nr;
    return (32 + lcm - 1) / lcm * lcm;
}

/* Sharing a phase's work between the threads of a region without OpenMP's barriers: each
 * thread claims items from a shared counter until none is left, then waits until every item
 * is finished, yielding the processor meanwhile. A barrier spins instead; on a machine shared
 * with other jobs the thread it waits for is often descheduled, and the spinning keeps it so
 * for a time slice (n = 1000 on two threads at load 6: a median of 100-460 ms against 14-29
 * on one thread, with two barriers per step). `finished` is released by each item's thread
 * and acquired by the waiters, so all that the items wrote is visible after the wait. */
typedef struct { int64_t claimed, finished; } tp_cholesky_phase;
/* A wait spins first, for about as long as the threads' shares of a phase usually differ
 * when none is descheduled (tens of microseconds): yielding at once gives the processor to
 * the other jobs for their time slices, however soon the item waited for finishes (two
 * threads at load 6: n = 512 took 16 ms, against 1 ms on one thread). */
#ifndef TP_CHOLESKY_SPINS
#define TP_CHOLESKY_SPINS 2000
#endif
#if defined(__x86_64__) || defined(__i386__)
#define TP_CHOLESKY_PAUSE() __builtin_ia32_pause()
#else
#define TP_CHOLESKY_PAUSE() ((void)0)
#endif
static void __attribute__((unused)) tp_cholesky_wait(tp_cholesky_phase *phase, int64_t items) {
    for (int spins = 0; __atomic_load_n(&phase->finished, __ATOMIC_ACQUIRE) < items; spins++)
        if (spins < TP_CHOLESKY_SPINS) TP_CHOLESKY_PAUSE();
        else sched_yield();
}
/* Runs the statement after `item` (which names the item `item`) for each of the `items`
 * items that this thread claims, then waits until all of them are finished. */
#define TP_CHOLESKY_SHARE(phase, items, item, ...)                                            \
    do {                                                                                      \
        for (int64_t item; (item = __atomic_fetch_add(&(phase)->claimed, 1,                   \
                                                      __ATOMIC_RELAXED)) < (items);) {        \
            (void)item;                                                                       \
            __VA_ARGS__;                                                                      \
            __atomic_fetch_add(&(phase)->finished, 1, __ATOMIC_RELEASE);                      \
        }                                                                                     \
        tp_cholesky_wait((phase), (items));                                                   \
    } while (0)

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
    /* xt (kb x rows, row stride w: a chunk of L21's rows, transposed) times L11^-T, L11 the   \
     * factored block at d (row stride ld), by substitution down xt's columns, every row of   \
     * the chunk in one vector (as dot products along the rows instead, a few elements long, \
     * each a chain of dependent sums, it took a third of the whole). In sub-blocks of       \
     * TP_CHOLESKY_INNER rows of xt: each solved, then subtracted from the rows below in one \
     * product on the micro-kernels (most of the work; the negated block of L11 packed into  \
     * dp, the solved rows into xp). */                                                      \
    static void tp_cholesky_solve_##tag(T *xt, int64_t w, int64_t rows, const T *d,           \
                                        int64_t ld, int64_t kb, T *restrict dp,               \
                                        T *restrict xp) {                                     \
        enum { MR = TP_GEMM_MR_##tag, NR = 2 * TP_GEMM_VL_##tag };                            \
        for (int64_t q = 0; q < kb; q += TP_CHOLESKY_INNER) {                                 \
            const int64_t qb = kb - q < TP_CHOLESKY_INNER ? kb - q : TP_CHOLESKY_INNER;       \
            const int64_t rest = kb - q - qb;                                                 \
            for (int64_t p = q; p < q + qb; p++) {                                            \
                T *restrict done = xt + p * w;                                                \
                const T pivot = d[p * ld + p];                                                \
                for (int64_t r = 0; r < rows; r++) done[r] /= pivot;                          \
                for (int64_t c = p + 1; c < q + qb; c++) {                                    \
                    T *restrict next = xt + c * w;                                            \
                    const T factor = d[c * ld + p];                                           \
                    for (int64_t r = 0; r < rows; r++) next[r] -= factor * done[r];           \
                }                                                                             \
            }                                                                                 \
            if (rest == 0) break;                                                             \
            tp_gemm_pack_a_##tag(rest, qb, d + (q + qb) * ld + q, ld, 1, dp);                 \
            const int64_t packed = (rest + MR - 1) / MR * MR * qb;                            \
            for (int64_t e = 0; e < packed; e++) dp[e] = -dp[e];                              \
            tp_gemm_pack_b_##tag(qb, rows, xt + q * w, w, 1, xp, NR);                         \
            tp_gemm_macro_##tag(rest, rows, qb, dp, xp, xt + (q + qb) * w, w, 1, NR);         \
        }                                                                                     \
    }                                                                                         \
    /* One step's rows [r0, r0 + rows) of L21 (at x, row stride ld): transposed into xt      \
     * (kb x w, w >= rows), solved, written back, and packed from xt for step 3: negated as   \
     * the left operand (MR-high strips, at ap), and as the right operand L21^T (NR-wide      \
     * strips, at bp). dp and xp: tp_cholesky_solve's. */                                     \
    static void tp_cholesky_panel_chunk_##tag(T *x, int64_t rows, const T *d, int64_t ld,     \
                                              int64_t kb, T *restrict xt, int64_t w,          \
                                              T *restrict dp, T *restrict xp,                 \
                                              T *restrict ap, T *restrict bp) {               \
        enum { MR = TP_GEMM_MR_##tag, NR = 2 * TP_GEMM_VL_##tag, S = TP_GEMM_SQUARE_##tag };  \
        tp_gemm_pack_strip_##tag(kb, rows, w, x, ld, 1, xt);                                  \
        tp_cholesky_solve_##tag(xt, w, rows, d, ld, kb, dp, xp);                              \
        int64_t r0 = 0;                        /* back: S x S squares, then the edges */      \
        for (; r0 + S <= rows; r0 += S) {                                                     \
            int64_t p0 = 0;                                                                   \
            for (; p0 + S <= kb; p0 += S)                                                     \
                tp_gemm_square_##tag(xt + p0 * w + r0, w, S, x + r0 * ld + p0, ld);           \
            for (int64_t r = r0; r < r0 + S; r++)                                             \
                for (int64_t p = p0; p < kb; p++) x[r * ld + p] = xt[p * w + r];              \
        }                                                                                     \
        for (int64_t r = r0; r < rows; r++)                                                   \
            for (int64_t p = 0; p < kb; p++) x[r * ld + p] = xt[p * w + r];                   \
        tp_gemm_pack_a_##tag(rows, kb, xt, 1, w, ap);                                         \
        const int64_t packed = (rows + MR - 1) / MR * MR * kb;                                \
        for (int64_t e = 0; e < packed; e++) ap[e] = -ap[e];                                  \
        tp_gemm_pack_b_##tag(kb, rows, xt, w, 1, bp, NR);                                     \
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
    /* in's lower triangle into out, zeros above: rows [r0, r1). */                          \
    static void tp_cholesky_copy_##tag(const T *in, T *out, int64_t n, int64_t r0,            \
                                       int64_t r1) {                                          \
        for (int64_t i = r0; i < r1; i++) {                                                   \
            memcpy(out + i * n, in + i * n, sizeof(T) * (size_t)(i + 1));                     \
            memset(out + i * n + i + 1, 0, sizeof(T) * (size_t)(n - i - 1));                  \
        }                                                                                     \
    }                                                                                         \
    /* The whole factorization, by every thread of the enclosing region (each with its own   \
     * scratch), the work of each phase shared out through `phases` (zeroed, one per phase). \
     * The update's first row block is the top one, whose thread then factors the next      \
     * diagonal block while the others update the rest (bottom first: the longest rows      \
     * first, so that the threads end together), off the path that every thread waits on.  */\
    static void tp_cholesky_team_##tag(const T *in, T *out, int64_t n, T *ap, T *bp,          \
                                       T *scratch, tp_cholesky_phase *phases,                 \
                                       int *positive) {                                       \
        enum { MR = TP_GEMM_MR_##tag, NR = 2 * TP_GEMM_VL_##tag };                            \
        const int64_t nb = TP_CHOLESKY_BLOCK, chunk = tp_cholesky_chunk_rows(MR, NR);         \
        /* row blocks of step 3: whole chunks (their strips start on a column strip) of about \
         * TP_GEMM_MC rows, at least one whole diagonal block */                              \
        const int64_t mc = TP_GEMM_MC > chunk ? TP_GEMM_MC / chunk * chunk : chunk;           \
        const int64_t first = mc < nb ? mc : nb, rows_per_copy = 64;                          \
        T *xt = scratch, *dp = xt + chunk * nb;                                               \
        T *xp = dp + tp_gemm_round_up(nb, MR) * TP_CHOLESKY_INNER;                            \
        tp_cholesky_phase *phase = phases;                                                    \
        TP_CHOLESKY_SHARE(phase, (n + rows_per_copy - 1) / rows_per_copy, c,                  \
            tp_cholesky_copy_##tag(in, out, n, c * rows_per_copy,                             \
                                   n < (c + 1) * rows_per_copy ? n : (c + 1) * rows_per_copy));\
        phase++;                                                                              \
        TP_CHOLESKY_SHARE(phase, 1, unused,                                                   \
            *positive = tp_cholesky_diagonal_##tag(out, n, n < first ? n : first));           \
        phase++;                                                                              \
        for (int64_t k0 = 0, kb = first; k0 + kb < n && *positive; phase += 2) {             \
            const int64_t t = k0 + kb, m = n - t, next = m < first ? m : first;               \
            const int64_t chunks = (m + chunk - 1) / chunk, blocks = (m + mc - 1) / mc;       \
            const T *d = out + k0 * n + k0;                                                   \
            TP_CHOLESKY_SHARE(phase, chunks, c,                                               \
                tp_cholesky_panel_chunk_##tag(out + (t + c * chunk) * n + k0,                 \
                                              m - c * chunk < chunk ? m - c * chunk : chunk,  \
                                              d, n, kb, xt, chunk, dp, xp, ap + c * chunk * kb,\
                                              bp + c * chunk * kb));                          \
            TP_CHOLESKY_SHARE(phase + 1, blocks, task, {                                      \
                const int64_t b = task == 0 ? 0 : blocks - task, i0 = b * mc;                 \
                tp_cholesky_update_##tag(i0, m - i0 < mc ? m - i0 : mc, kb, ap, bp,           \
                                         out + t * n + t, n);                                 \
                if (b == 0) *positive = tp_cholesky_diagonal_##tag(out + t * n + t, n, next); \
            });                                                                               \
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
        const size_t packed = sizeof(T) * (size_t)(tp_gemm_round_up(n, chunk) * nb);          \
        T *ap = tp_gemm_alloc(packed), *bp = tp_gemm_alloc(packed);                           \
        /* each thread's scratch: a chunk transposed, and tp_cholesky_solve's dp and xp */    \
        const int64_t mine = chunk * nb + (tp_gemm_round_up(nb, MR) + chunk) * TP_CHOLESKY_INNER; \
        T *xts = tp_gemm_alloc(sizeof(T) * (size_t)(most * mine));                            \
        /* phases: the copy, the first block, two per later step (the steps' blocks are at    \
         * least min(nb, chunk) wide: see tp_cholesky_team) */                                \
        const int64_t narrowest = nb < chunk ? nb : chunk;                                    \
        tp_cholesky_phase *phases = calloc((size_t)(4 + 2 * (n / narrowest + 1)),             \
                                           sizeof *phases);                                   \
        if (ap == NULL || bp == NULL || xts == NULL || phases == NULL) {                      \
            free(ap);                                                                         \
            free(bp);                                                                         \
            free(xts);                                                                        \
            free(phases);                                                                     \
            return 0;                                                                         \
        }                                                                                     \
        int positive = 1;                                                                     \
        _Pragma("omp parallel if(threads) num_threads(most)")                                 \
        {                                                                                     \
            int team = 1, me = 0;                                                             \
            TP_GEMM_THREAD_ID(team, me);                                                      \
            (void)team;                                                                       \
            tp_cholesky_team_##tag(in, out, n, ap, bp, xts + (int64_t)me * mine, phases,      \
                                   &positive);                                                \
            if (positive) {                                                                   \
                _Pragma("omp for schedule(static) nowait")  /* the diagonal tiles' entries */ \
                for (int64_t i = 0; i < n; i++) {           /* above it */                    \
                    const int64_t end = n - i < MR ? n : i + MR;                              \
                    if (end > i + 1)                                                          \
                        memset(out + i * n + i + 1, 0, sizeof(T) * (size_t)(end - i - 1));   \
                }                                                                             \
            } else {                          /* JAX: NaN where not positive definite */      \
                _Pragma("omp for schedule(static) nowait")                                    \
                for (int64_t i = 0; i < n * n; i++) out[i] = (T)NAN;                          \
            }                                                                                 \
        }                                                                                     \
        free(ap);                                                                             \
        free(bp);                                                                             \
        free(xts);                                                                            \
        free(phases);                                                                         \
        return 1;                                                                             \
    }

TP_CHOLESKY(f32, float, sqrtf)
TP_CHOLESKY(f64, double, sqrt)

#endif /* TRANSPILE_CHOLESKY_H */
