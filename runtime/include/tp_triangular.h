/* tp_triangular.h: LU factorization with partial pivoting and the two triangular solves after
 * it (L unit lower, U upper, both in one row-major n x n array), tiled for the CPU.
 *
 * Row by row, `x[i, :] -= l[i, j] * x[j, :]` loads and stores x's row i once per j: the loop
 * is bound by those stores, not by arithmetic (a 100 x 100 solve with 150 right-hand sides, a
 * complex 50 x 50 one after its real embedding, took 0.27 ms, twice NumPy's LAPACK). Here a
 * tile of TP_TRSM_ROWS rows by one strip of TP_TRSM_BYTES of columns is held in registers
 * while the sum over j runs, so each loaded x[j, strip] feeds TP_TRSM_ROWS rows and nothing
 * is stored until the tile is done; the strip of x (n rows) stays in L1 for both solves.
 * Strips are independent, so a caller may hand them to different threads. The LU is the
 * same right-looking elimination in panels of one strip's width: the panel's columns
 * eliminated one by one, then the rows beside it (a forward solve) and the trailing
 * matrix (tiles of `a22 -= l21 @ u12`) updated once per panel instead of once per column.
 *
 * Rounding: every element of the LU and of the forward solve receives its terms in the order
 * j = 0, 1, ..., and of the back solve in the order j = n - 1, n - 2, ..., exactly as the
 * plain loops of tp_linalg.h (the device's) do, with no fused multiply-add (the runtime is
 * built with -ffp-contract=off): the same pivots and bits on the host and the device.
 *
 * Host only: CUDA modules (TP_DEVICE_HELPERS) keep tp_linalg.h's plain loops, one matrix per
 * thread. */
#ifndef TRANSPILE_TRIANGULAR_H
#define TRANSPILE_TRIANGULAR_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#ifndef TP_TRSM_ROWS
#define TP_TRSM_ROWS 4
#endif
/* A strip's width in bytes: two vector registers per row, so a tile is 2 * TP_TRSM_ROWS
 * accumulators (8 of AVX-512's 32 zmm registers, of AVX's 16 ymm or of SSE's 16 xmm; wider
 * vectors than the ISA's were split by the compiler, ten times slower without AVX). */
#ifndef TP_TRSM_BYTES
#if defined(__AVX512F__)
#define TP_TRSM_BYTES 128
#elif defined(__AVX__)
#define TP_TRSM_BYTES 64
#else
#define TP_TRSM_BYTES 32
#endif
#endif

/* Right-hand sides narrower than a strip (the last strip of k columns) are copied into a
 * zero-padded strip on the stack when it is at most this big, and solved as a full one;
 * beyond it, row by row. */
#ifndef TP_TRSM_PAD_BYTES
#define TP_TRSM_PAD_BYTES 65536
#endif

/* acc[r] -= a[r * lda + j] * b[j * ldb + (0:W)] for j < depth (both halves), j ascending,
 * or descending when `down` (the back solve's order, which the device's loops share). */
#define TP_TRSM_ACCUMULATE(T, V, L, acc, a, lda, b, ldb, depth, down)                         \
    for (int64_t step = 0; step < (depth); step++) {                                          \
        const int64_t j = (down) ? (depth) - 1 - step : step;                                 \
        V low, high;                                                                          \
        memcpy(&low, (b) + j * (ldb), sizeof(V));                                             \
        memcpy(&high, (b) + j * (ldb) + (L), sizeof(V));                                      \
        _Pragma("GCC unroll 8")                                                               \
        for (int r = 0; r < TP_TRSM_ROWS; r++) {                                              \
            const T factor = (a)[r * (lda) + j];                                     \
            acc[r][0] -= factor * low;                                                        \
            acc[r][1] -= factor * high;                                                       \
        }                                                                                     \
    }
#define TP_TRSM_LOAD(V, L, acc, x, ldx)                                                       \
    _Pragma("GCC unroll 8")                                                                   \
    for (int r = 0; r < TP_TRSM_ROWS; r++) {                                                  \
        memcpy(&acc[r][0], (x) + r * (ldx), sizeof(V));                                       \
        memcpy(&acc[r][1], (x) + r * (ldx) + (L), sizeof(V));                                 \
    }
#define TP_TRSM_STORE(V, L, acc, x, ldx)                                                      \
    _Pragma("GCC unroll 8")                                                                   \
    for (int r = 0; r < TP_TRSM_ROWS; r++) {                                                  \
        memcpy((x) + r * (ldx), &acc[r][0], sizeof(V));                                       \
        memcpy((x) + r * (ldx) + (L), &acc[r][1], sizeof(V));                                 \
    }

#define TP_TRIANGULAR(tag, T, FABS, I)                                                        \
    /* One vector register's worth of T (GCC's and Clang's vector extension: the tile's       \
     * accumulators stay in registers, where plain arrays were kept on the stack), and of    \
     * the same-sized integer I (lane masks). */                                             \
    typedef T tp_trsm_vec_##tag __attribute__((vector_size(TP_TRSM_BYTES / 2)));              \
    typedef I tp_trsm_mask_##tag __attribute__((vector_size(TP_TRSM_BYTES / 2)));             \
    enum { tp_trsm_lanes_##tag = TP_TRSM_BYTES / 2 / (int)sizeof(T),                          \
           tp_trsm_width_##tag = 2 * tp_trsm_lanes_##tag };                                   \
    /* c[r, 0:W] -= sum over j < depth of a[r, j] * b[j, 0:W] for r < TP_TRSM_ROWS, j          \
     * ascending (row strides ldc, lda, ldb). */                                              \
    static __attribute__((noinline)) void tp_trsm_update_tile_##tag(                          \
            T *c, int64_t ldc, const T *a, int64_t lda, const T *b, int64_t ldb,              \
            int64_t depth) {                                                                  \
        typedef tp_trsm_vec_##tag V;                                                          \
        enum { L = tp_trsm_lanes_##tag };                                                     \
        V acc[TP_TRSM_ROWS][2];                                                               \
        TP_TRSM_LOAD(V, L, acc, c, ldc)                                                       \
        TP_TRSM_ACCUMULATE(T, V, L, acc, a, lda, b, ldb, depth, 0)                             \
        TP_TRSM_STORE(V, L, acc, c, ldc)                                                      \
    }                                                                                         \
    /* Rows i0 .. i0 + TP_TRSM_ROWS - 1 of L y = x (L: lu's unit lower triangle, row stride   \
     * ld), for one full strip (x at its column 0): the rows above the tile (solved), then    \
     * the tile's own triangle. */                                                            \
    static __attribute__((noinline)) void tp_trsm_lower_tile_##tag(                           \
            const T *lu, int64_t ld, T *x, int64_t ldx, int64_t i0) {                         \
        typedef tp_trsm_vec_##tag V;                                                          \
        enum { L = tp_trsm_lanes_##tag };                                                     \
        const T *a = lu + i0 * ld;                                                            \
        V acc[TP_TRSM_ROWS][2];                                                               \
        TP_TRSM_LOAD(V, L, acc, x + i0 * ldx, ldx)                                            \
        TP_TRSM_ACCUMULATE(T, V, L, acc, a, ld, x, ldx, i0, 0)                                 \
        _Pragma("GCC unroll 8")                                                               \
        for (int r = 1; r < TP_TRSM_ROWS; r++)                                                \
            _Pragma("GCC unroll 8")                                                           \
            for (int q = 0; q < r; q++) {                                                     \
                const T factor = a[r * ld + i0 + q];                                          \
                acc[r][0] -= factor * acc[q][0];                                              \
                acc[r][1] -= factor * acc[q][1];                                              \
            }                                                                                 \
        TP_TRSM_STORE(V, L, acc, x + i0 * ldx, ldx)                                           \
    }                                                                                         \
    /* Rows i0 .. i0 + TP_TRSM_ROWS - 1 of U z = y (m rows): the rows below the tile          \
     * (solved), then the tile's triangle from its last row up, each row divided by its       \
     * diagonal. */                                                                           \
    static __attribute__((noinline)) void tp_trsm_upper_tile_##tag(                           \
            const T *lu, int64_t ld, int64_t m, T *x, int64_t ldx, int64_t i0) {              \
        typedef tp_trsm_vec_##tag V;                                                          \
        enum { L = tp_trsm_lanes_##tag };                                                     \
        const int64_t i1 = i0 + TP_TRSM_ROWS;                                                 \
        const T *a = lu + i0 * ld;                                                            \
        V acc[TP_TRSM_ROWS][2];                                                               \
        TP_TRSM_LOAD(V, L, acc, x + i0 * ldx, ldx)                                            \
        TP_TRSM_ACCUMULATE(T, V, L, acc, a + i1, ld, x + i1 * ldx, ldx, m - i1, 1)            \
        _Pragma("GCC unroll 8")                                                               \
        for (int r = TP_TRSM_ROWS - 1; r >= 0; r--) {                                         \
            _Pragma("GCC unroll 8")                                                           \
            for (int q = TP_TRSM_ROWS - 1; q > r; q--) {                                      \
                const T factor = a[r * ld + i0 + q];                                          \
                acc[r][0] -= factor * acc[q][0];                                              \
                acc[r][1] -= factor * acc[q][1];                                              \
            }                                                                                 \
            const T diagonal = a[r * ld + i0 + r];                                            \
            acc[r][0] /= diagonal;                                                            \
            acc[r][1] /= diagonal;                                                            \
        }                                                                                     \
        TP_TRSM_STORE(V, L, acc, x + i0 * ldx, ldx)                                           \
    }                                                                                         \
    /* x[i, 0:w] -= sum over j in [j0, j1) of a[i, j] * b[j, 0:w] (one row), j ascending or \
     * descending (`down`). */                                                                \
    static inline void tp_trsm_row_##tag(const T *a, int64_t lda, const T *b, int64_t ldb,    \
                                         T *x, int64_t ldx, int64_t i, int64_t j0,            \
                                         int64_t j1, int64_t w, int down) {                   \
        T *xi = x + i * ldx;                                                                  \
        for (int64_t step = 0; step < j1 - j0; step++) {                                      \
            const int64_t j = down ? j1 - 1 - step : j0 + step;                               \
            const T factor = a[i * lda + j];                                                  \
            const T *bj = b + j * ldb;                                                        \
            _Pragma("omp simd")                                                               \
            for (int64_t c = 0; c < w; c++) xi[c] -= factor * bj[c];                          \
        }                                                                                     \
    }                                                                                         \
    /* L y = x for the w columns at x (m rows; row strides ld and ldx): tiles of               \
     * TP_TRSM_ROWS rows where w is a full strip, then the last m % TP_TRSM_ROWS rows. */      \
    static inline void tp_trsm_lower_strip_##tag(const T *lu, int64_t ld, int64_t m, T *x,    \
                                                 int64_t ldx, int64_t w) {                    \
        const int64_t tiled = w == tp_trsm_width_##tag ? m - m % TP_TRSM_ROWS : 0;            \
        for (int64_t i0 = 0; i0 < tiled; i0 += TP_TRSM_ROWS)                                  \
            tp_trsm_lower_tile_##tag(lu, ld, x, ldx, i0);                                     \
        for (int64_t i = tiled; i < m; i++)                                                   \
            tp_trsm_row_##tag(lu, ld, x, ldx, x, ldx, i, 0, i, w, 0);                         \
    }                                                                                         \
    /* U z = y for the w columns at x: the last m % TP_TRSM_ROWS rows first, then tiles        \
     * upwards. */                                                                            \
    static inline void tp_trsm_upper_strip_##tag(const T *lu, int64_t ld, int64_t m, T *x,    \
                                                 int64_t ldx, int64_t w) {                    \
        const int64_t tiled = w == tp_trsm_width_##tag ? m - m % TP_TRSM_ROWS : 0;            \
        for (int64_t i = m - 1; i >= tiled; i--) {                                            \
            tp_trsm_row_##tag(lu, ld, x, ldx, x, ldx, i, i + 1, m, w, 1);                     \
            for (int64_t c = 0; c < w; c++) x[i * ldx + c] /= lu[i * ld + i];                 \
        }                                                                                     \
        for (int64_t i0 = tiled - TP_TRSM_ROWS; i0 >= 0; i0 -= TP_TRSM_ROWS)                  \
            tp_trsm_upper_tile_##tag(lu, ld, m, x, ldx, i0);                                  \
    }                                                                                         \
    /* Both solves for the columns [c0, c1) of the (n x k) right-hand sides x, one strip of    \
     * at most tp_trsm_width columns at a time; a narrower last strip is solved padded with  \
     * zero columns when the padded copy fits TP_TRSM_PAD_BYTES. */                           \
    static inline void tp_lu_substitute_##tag(const T *lu, T *x, int64_t n, int64_t k,        \
                                              int64_t c0, int64_t c1) {                       \
        enum { W = tp_trsm_width_##tag };                                                     \
        for (int64_t c = c0; c < c1; c += W) {                                                \
            const int64_t w = c1 - c < W ? c1 - c : W;                                        \
            if (w == W || n * W * (int64_t)sizeof(T) > TP_TRSM_PAD_BYTES) {                   \
                tp_trsm_lower_strip_##tag(lu, n, n, x + c, k, w);                             \
                tp_trsm_upper_strip_##tag(lu, n, n, x + c, k, w);                             \
                continue;                                                                     \
            }                                                                                 \
            T padded[TP_TRSM_PAD_BYTES / sizeof(T)];                                          \
            for (int64_t i = 0; i < n; i++)                                                   \
                for (int64_t q = 0; q < W; q++)                                               \
                    padded[i * W + q] = q < w ? x[i * k + c + q] : 0;                         \
            tp_trsm_lower_strip_##tag(lu, n, n, padded, W, W);                                \
            tp_trsm_upper_strip_##tag(lu, n, n, padded, W, W);                                \
            for (int64_t i = 0; i < n; i++)                                                   \
                for (int64_t q = 0; q < w; q++) x[i * k + c + q] = padded[i * W + q];         \
        }                                                                                     \
    }                                                                                         \
    /* c (rows x cols, row stride ld) -= a (rows x depth) @ b (depth x cols), all three in     \
     * one matrix of row stride ld: tiles, then the rows and columns that do not fill one. */  \
    static inline void tp_lu_update_##tag(T *c, const T *a, const T *b, int64_t ld,           \
                                          int64_t rows, int64_t cols, int64_t depth) {        \
        enum { W = tp_trsm_width_##tag };                                                     \
        const int64_t tiled_rows = rows - rows % TP_TRSM_ROWS, tiled_cols = cols - cols % W;  \
        for (int64_t c0 = 0; c0 < tiled_cols; c0 += W) {                                      \
            for (int64_t r0 = 0; r0 < tiled_rows; r0 += TP_TRSM_ROWS)                         \
                tp_trsm_update_tile_##tag(c + r0 * ld + c0, ld, a + r0 * ld, ld, b + c0, ld,  \
                                          depth);                                             \
            for (int64_t i = tiled_rows; i < rows; i++)                                       \
                tp_trsm_row_##tag(a, ld, b + c0, ld, c + c0, ld, i, 0, depth, W, 0);          \
        }                                                                                     \
        if (tiled_cols < cols)                                                                \
            for (int64_t i = 0; i < rows; i++)                                                \
                tp_trsm_row_##tag(a, ld, b + tiled_cols, ld, c + tiled_cols, ld, i, 0, depth, \
                                  cols - tiled_cols, 0);                                      \
    }                                                                                         \
    /* One column j of a full-width panel (columns j0 .. j0 + W - 1): a[i, c] -= a[i, j] *    \
     * a[j, c] for the rows below j and the panel's columns right of j. Each row's panel     \
     * segment is one strip: both vectors are updated whole and the columns up to j kept    \
     * by a lane mask, where a loop over the j1 - j - 1 columns left was short and variable  \
     * (its vector prologue and tail cost more than the work: a third of a 100 x 100 LU). */ \
    static __attribute__((noinline)) void tp_lu_panel_step_##tag(T *a, int64_t n, int64_t j0,  \
                                                                 int64_t j) {                 \
        typedef tp_trsm_vec_##tag V;                                                          \
        typedef tp_trsm_mask_##tag M;                                                         \
        enum { L = tp_trsm_lanes_##tag };                                                     \
        M right_low, right_high;                /* lanes of the columns after j: all ones */  \
        for (int q = 0; q < L; q++) {                                                         \
            right_low[q] = j0 + q > j ? -1 : 0;                                               \
            right_high[q] = j0 + L + q > j ? -1 : 0;                                          \
        }                                                                                     \
        V u_low, u_high;                                                                      \
        memcpy(&u_low, a + j * n + j0, sizeof(V));                                            \
        memcpy(&u_high, a + j * n + j0 + L, sizeof(V));                                       \
        for (int64_t i = j + 1; i < n; i++) {                                                 \
            T *row = a + i * n + j0;                                                          \
            const T l = a[i * n + j];                                                         \
            V low, high;                                                                      \
            memcpy(&low, row, sizeof(V));                                                     \
            memcpy(&high, row + L, sizeof(V));                                                \
            const M new_low = (M)(low - l * u_low), new_high = (M)(high - l * u_high);        \
            low = (V)((new_low & right_low) | ((M)low & ~right_low));                         \
            high = (V)((new_high & right_high) | ((M)high & ~right_high));                    \
            memcpy(row, &low, sizeof(V));                                                     \
            memcpy(row + L, &high, sizeof(V));                                                \
        }                                                                                     \
    }                                                                                         \
    /* a (n x n) factored in place as P A = L U, as tp_linalg.h's tp_lu (the same pivots and  \
     * bits), in panels of tp_trsm_width columns. Returns the permutation's parity. */        \
    static inline int tp_lu_tiled_##tag(T *a, int64_t *piv, int64_t n) {                      \
        int parity = 1;                                                                       \
        for (int64_t j0 = 0; j0 < n; j0 += tp_trsm_width_##tag) {                             \
            const int64_t j1 = j0 + tp_trsm_width_##tag < n ? j0 + tp_trsm_width_##tag : n;   \
            for (int64_t j = j0; j < j1; j++) {       /* the panel, column by column */       \
                int64_t p = j;                                                                \
                T best = FABS(a[j * n + j]);                                                  \
                for (int64_t i = j + 1; i < n; i++)                                           \
                    if (FABS(a[i * n + j]) > best) { best = FABS(a[i * n + j]); p = i; }      \
                piv[j] = p;                                                                   \
                if (p != j) {                                                                 \
                    parity = -parity;                                                         \
                    for (int64_t c = 0; c < n; c++) {                                         \
                        T t = a[j * n + c]; a[j * n + c] = a[p * n + c]; a[p * n + c] = t;    \
                    }                                                                         \
                }                                                                             \
                const T pivot = a[j * n + j];                                                 \
                if (pivot != 0)                       /* a zero pivot: skip, as getrf */      \
                    for (int64_t i = j + 1; i < n; i++) a[i * n + j] /= pivot;                \
                if (j1 - j0 == tp_trsm_width_##tag)                                           \
                    tp_lu_panel_step_##tag(a, n, j0, j);                                      \
                else                                                                          \
                    for (int64_t i = j + 1; i < n; i++) {                                     \
                        const T l = a[i * n + j];                                             \
                        for (int64_t c = j + 1; c < j1; c++) a[i * n + c] -= l * a[j * n + c]; \
                    }                                                                         \
            }                                                                                 \
            if (j1 == n) break;                                                               \
            for (int64_t c = j1; c < n; c += tp_trsm_width_##tag)    /* u12 = l11^-1 a12 */   \
                tp_trsm_lower_strip_##tag(a + j0 * n + j0, n, j1 - j0, a + j0 * n + c, n,     \
                                          n - c < tp_trsm_width_##tag ? n - c                 \
                                                                      : tp_trsm_width_##tag); \
            tp_lu_update_##tag(a + j1 * n + j1, a + j1 * n + j0, a + j0 * n + j1, n, n - j1,  \
                               n - j1, j1 - j0);                                              \
        }                                                                                     \
        return parity;                                                                        \
    }

TP_TRIANGULAR(f32, float, fabsf, int32_t)
TP_TRIANGULAR(f64, double, fabs, int64_t)

#endif /* TRANSPILE_TRIANGULAR_H */
