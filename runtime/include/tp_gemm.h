/* tp_gemm.h: batched matrix products C[b] = A[b] @ B[b] on strided operands.
 *
 * Included by generated programs that have a matrix product; self-contained. They call one
 * function per dtype:
 *
 *   tp_gemm_<tag>(batch, m, n, k,
 *                 a, a_batch_stride, a_row_stride, a_col_stride,
 *                 b, b_batch_stride, b_row_stride, b_col_stride,
 *                 c, c_batch_stride, c_row_stride)        (C's columns are contiguous)
 *
 * Strides are in elements and may be zero (a broadcast operand: one shared matrix for every
 * batch element is read in place, never copied per batch) or negative (reversed views).
 *
 * Floats (f32, f64) follow the usual blocked algorithm (Goto / BLIS):
 *   for each NC-wide column panel of B, for each KC-deep slice of k:
 *     pack the KC x NC block of B into NR-wide strips (contiguous, zero-padded);
 *     for each MC-high row block of A:
 *       pack the MC x KC block of A into MR-high strips;
 *       for each MR x NR tile of C: the micro-kernel walks KC, keeping the tile in registers.
 * KC x NR of B stays in L1 while A's strips stream from L2; the packed B block lives in L3.
 * The micro-kernel is chosen by the compiler's predefined macros (builds use -march=native and
 * the cache key names the CPU's features): AVX-512, AVX2 with FMA, or portable C that the
 * compiler auto-vectorises. Never assumed: each is behind #if.
 *
 * Rounding: the AVX-512 and AVX2 kernels use fused multiply-adds (one rounding per step, as
 * BLAS does); the portable kernel multiplies then adds (generated code is built with
 * -ffp-contract=off, so nothing is fused behind our back). Either way every element of C is a
 * sum over k whose order depends on the blocking (KC slices are added in turn), so results
 * match NumPy within reassociation error, not bit for bit.
 *
 * Products with one row or one column (vector @ matrix, matrix @ vector) are memory-bound:
 * they skip packing and stream the matrix once (tp_gemv_*). Tiny products use a direct loop.
 * Small ones (both operands within TP_GEMM_IN_PLACE_BYTES, an RNN step's) run the
 * micro-kernels on the operands in place, packing only partial strips (tp_gemm_in_place).
 * Integers use a simple exact loop that wraps (accumulates in the unsigned type), like NumPy.
 *
 * Threads: OpenMP, above TP_GEMM_PARALLEL_MIN multiply-adds. Many batch elements: each thread
 * takes whole products. One product: C is cut into chunks the threads take in turn
 * (tp_gemm_chunked: blocks of MC rows, or column panels when A is one row block and each
 * thread packs all of A once), each with its own packing buffers, so no thread waits for
 * another inside a product, and one that the system deschedules leaves its chunks to the
 * others (MLP f64 value_and_grad at load ~10: median 54-77 -> 17-30 ms). Other small batches:
 * one rectangle of C per thread (rows x columns chosen to keep the rectangles square-ish),
 * each running the serial algorithm on its rectangle. (The
 * threads sharing one packing of A instead, a barrier per KC slice, measured slower on two
 * threads: 512^2 f32 1.54 against 1.31 ms, 256x784 @ 784x256 f64 1.10 against 1.02 ms: the
 * waits, and half of each packed block in the other core's cache.) A vector times a
 * row-major matrix: a band of the matrix's rows per thread (tp_vecmat_bands_*). */
#ifndef TRANSPILE_GEMM_H
#define TRANSPILE_GEMM_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "tp_complex.h"
#include "tp_kernel_api.h"
#ifdef _OPENMP
#include <omp.h>
#endif
#if defined(__AVX512F__) || (defined(__AVX2__) && defined(__FMA__))
#include <immintrin.h>
#endif

#define TP_GEMM_INLINE static inline __attribute__((always_inline, unused))

/* Block sizes (elements), measured on this project's machine (AMD EPYC, AVX-512): KC=512
 * beat 256 and 384 by a few per cent, MC and NC mattered little. Overridable with -D (through
 * TRANSPILE_CFLAGS) for tuning; MC is rounded down to the micro-kernel's MR. */
#ifndef TP_GEMM_KC
#define TP_GEMM_KC 512
#endif
#ifndef TP_GEMM_MC
#define TP_GEMM_MC 144
#endif
#ifndef TP_GEMM_NC
#define TP_GEMM_NC 3072
#endif
#ifndef TP_GEMM_PARALLEL_MIN
#define TP_GEMM_PARALLEL_MIN (1 << 20)     /* multiply-adds below which one thread is faster */
#endif
#define TP_GEMM_SMALL (32 * 32 * 32)       /* below this, packing costs more than it saves */
#ifndef TP_GEMM_PANEL_STRIPS
#define TP_GEMM_PANEL_STRIPS 4             /* NR-wide strips in a column chunk (threads) */
#endif
#ifndef TP_GEMM_IN_PLACE_BYTES
/* Products whose operands take at most this many bytes together are computed without packing
 * (tp_gemm_in_place): both stay in L1/L2, where the kernel's strided reads cost little. */
#define TP_GEMM_IN_PLACE_BYTES (96 * 1024)
#endif

/* ---- micro-kernels: an MR x NR tile of C += (MR x kc strip of A) @ (kc x NR strip of B) ----
 * A strip is read at a[p * a_ps + r * a_rs], a B strip at b[p * b_ps + j]: packed, a_ps = MR,
 * a_rs = 1, b_ps = NR; in place (tp_gemm_in_place), the operands' own strides. The tile is
 * written to c with row stride ldc; `accumulate` adds it to what c holds (later KC slices)
 * instead of storing. */
#if defined(__AVX512F__)
#define TP_GEMM_ISA "avx512"
#define TP_GEMM_MR_f32 12
#define TP_GEMM_MR_f64 12
#define TP_GEMM_VL_f32 16
#define TP_GEMM_VL_f64 8
#define TP_VEC_f32 __m512
#define TP_VEC_f64 __m512d
#define TP_VLOAD_f32 _mm512_loadu_ps
#define TP_VLOAD_f64 _mm512_loadu_pd
#define TP_VSTORE_f32 _mm512_storeu_ps
#define TP_VSTORE_f64 _mm512_storeu_pd
#define TP_VSET1_f32 _mm512_set1_ps
#define TP_VSET1_f64 _mm512_set1_pd
#define TP_VZERO_f32 _mm512_setzero_ps
#define TP_VZERO_f64 _mm512_setzero_pd
#define TP_VADD_f32 _mm512_add_ps
#define TP_VADD_f64 _mm512_add_pd
#define TP_VFMA_f32 _mm512_fmadd_ps          /* a * b + c, one rounding */
#define TP_VFMA_f64 _mm512_fmadd_pd
#elif defined(__AVX2__) && defined(__FMA__)
#define TP_GEMM_ISA "avx2"
#define TP_GEMM_MR_f32 6
#define TP_GEMM_MR_f64 6
#define TP_GEMM_VL_f32 8
#define TP_GEMM_VL_f64 4
#define TP_VEC_f32 __m256
#define TP_VEC_f64 __m256d
#define TP_VLOAD_f32 _mm256_loadu_ps
#define TP_VLOAD_f64 _mm256_loadu_pd
#define TP_VSTORE_f32 _mm256_storeu_ps
#define TP_VSTORE_f64 _mm256_storeu_pd
#define TP_VSET1_f32 _mm256_set1_ps
#define TP_VSET1_f64 _mm256_set1_pd
#define TP_VZERO_f32 _mm256_setzero_ps
#define TP_VZERO_f64 _mm256_setzero_pd
#define TP_VADD_f32 _mm256_add_ps
#define TP_VADD_f64 _mm256_add_pd
#define TP_VFMA_f32 _mm256_fmadd_ps
#define TP_VFMA_f64 _mm256_fmadd_pd
#else
#define TP_GEMM_ISA "portable"
#define TP_GEMM_MR_f32 6
#define TP_GEMM_MR_f64 6
#define TP_GEMM_VL_f32 8                     /* NR = 2 * VL, as for the vector kernels */
#define TP_GEMM_VL_f64 4
#endif

#ifdef TP_VEC_f32
/* NV vectors of B per step (NR = NV * VL columns), ROWS = PART thirds of MR broadcasts of A:
 * NV * ROWS accumulators stay in registers (2 x 12 = 24 of AVX-512's 32, 2 x 6 = 12 of AVX2's
 * 16). Loops over r and v are fully unrolled. NV = 2, PART = 3 is the kernel; the others
 * serve edges: products at most one vector wide (n <= VL), and the last strip of A's rows,
 * which would otherwise compute 2 * VL columns or MR rows to keep fewer. A is read at
 * a[p * a_ps + r * a_rs]: a packed strip (a_ps = MR, a_rs = 1; a shorter kernel reads the
 * first ROWS of each step) or, for narrow products, A's own rows in place (1, row stride). */
#define TP_GEMM_MICRO_NV(tag, T, NV, PART)                                                    \
    TP_GEMM_INLINE void tp_gemm_micro##NV##_##PART##_##tag(int64_t kc, const T *restrict a,   \
                                                           int64_t a_ps, int64_t a_rs,        \
                                                           const T *restrict b, int64_t b_ps, \
                                                           T *restrict c, int64_t ldc,        \
                                                           int accumulate) {                  \
        enum { MR = TP_GEMM_MR_##tag, VL = TP_GEMM_VL_##tag, ROWS = MR * PART / 3 };          \
        TP_VEC_##tag acc[NV][ROWS];                                                           \
        _Pragma("GCC unroll 2") for (int v = 0; v < NV; v++)                                  \
            _Pragma("GCC unroll 16") for (int r = 0; r < ROWS; r++)                           \
                acc[v][r] = TP_VZERO_##tag();                                                 \
        for (int64_t p = 0; p < kc; p++) {                                                    \
            TP_VEC_##tag bv[NV];                                                              \
            _Pragma("GCC unroll 2") for (int v = 0; v < NV; v++)                              \
                bv[v] = TP_VLOAD_##tag(b + p * b_ps + v * VL);                                \
            _Pragma("GCC unroll 16") for (int r = 0; r < ROWS; r++) {                         \
                const TP_VEC_##tag ar = TP_VSET1_##tag(a[p * a_ps + r * a_rs]);               \
                _Pragma("GCC unroll 2") for (int v = 0; v < NV; v++)                          \
                    acc[v][r] = TP_VFMA_##tag(ar, bv[v], acc[v][r]);                          \
            }                                                                                 \
        }                                                                                     \
        _Pragma("GCC unroll 16") for (int r = 0; r < ROWS; r++)                               \
            _Pragma("GCC unroll 2") for (int v = 0; v < NV; v++) {                            \
                T *at = c + r * ldc + v * VL;                                                 \
                if (accumulate) acc[v][r] = TP_VADD_##tag(acc[v][r], TP_VLOAD_##tag(at));     \
                TP_VSTORE_##tag(at, acc[v][r]);                                               \
            }                                                                                 \
    }
#else
/* Portable: plain loops the compiler vectorises over j; multiply, then add. */
#define TP_GEMM_MICRO_NV(tag, T, NV, PART)                                                    \
    TP_GEMM_INLINE void tp_gemm_micro##NV##_##PART##_##tag(int64_t kc, const T *restrict a,   \
                                                           int64_t a_ps, int64_t a_rs,        \
                                                           const T *restrict b, int64_t b_ps, \
                                                           T *restrict c, int64_t ldc,        \
                                                           int accumulate) {                  \
        enum { MR = TP_GEMM_MR_##tag, NR = NV * TP_GEMM_VL_##tag, ROWS = MR * PART / 3 };     \
        T acc[ROWS][NR];                                                                      \
        memset(acc, 0, sizeof acc);                                                           \
        for (int64_t p = 0; p < kc; p++)                                                      \
            for (int r = 0; r < ROWS; r++) {                                                  \
                const T ar = a[p * a_ps + r * a_rs];                                          \
                _Pragma("omp simd")                                                           \
                for (int j = 0; j < NR; j++) acc[r][j] += ar * b[p * b_ps + j];               \
            }                                                                                 \
        for (int r = 0; r < ROWS; r++)                                                        \
            for (int j = 0; j < NR; j++)                                                      \
                c[r * ldc + j] = accumulate ? c[r * ldc + j] + acc[r][j] : acc[r][j];         \
    }
#endif
#define TP_GEMM_MICRO(tag, T)                                                                 \
    TP_GEMM_MICRO_NV(tag, T, 1, 1) TP_GEMM_MICRO_NV(tag, T, 1, 2) TP_GEMM_MICRO_NV(tag, T, 1, 3) \
    TP_GEMM_MICRO_NV(tag, T, 2, 1) TP_GEMM_MICRO_NV(tag, T, 2, 2) TP_GEMM_MICRO_NV(tag, T, 2, 3) \
    /* A tile of `rows` <= MR rows and nr (VL or 2 VL) columns: the kernel for the next third \
     * of MR up. */                                                                           \
    TP_GEMM_INLINE void tp_gemm_micro_##tag(int64_t rows, int64_t nr, int64_t kc,             \
                                            const T *restrict a, int64_t a_ps, int64_t a_rs,  \
                                            const T *restrict b, int64_t b_ps, T *restrict c, \
                                            int64_t ldc, int accumulate) {                    \
        enum { MR = TP_GEMM_MR_##tag, VL = TP_GEMM_VL_##tag };                                \
        const int part = rows <= MR / 3 ? 1 : rows <= MR * 2 / 3 ? 2 : 3;                     \
        if (nr == VL && part == 1)                                                            \
            tp_gemm_micro1_1_##tag(kc, a, a_ps, a_rs, b, b_ps, c, ldc, accumulate);           \
        else if (nr == VL && part == 2)                                                       \
            tp_gemm_micro1_2_##tag(kc, a, a_ps, a_rs, b, b_ps, c, ldc, accumulate);           \
        else if (nr == VL)                                                                    \
            tp_gemm_micro1_3_##tag(kc, a, a_ps, a_rs, b, b_ps, c, ldc, accumulate);           \
        else if (part == 1)                                                                   \
            tp_gemm_micro2_1_##tag(kc, a, a_ps, a_rs, b, b_ps, c, ldc, accumulate);           \
        else if (part == 2)                                                                   \
            tp_gemm_micro2_2_##tag(kc, a, a_ps, a_rs, b, b_ps, c, ldc, accumulate);           \
        else                                                                                  \
            tp_gemm_micro2_3_##tag(kc, a, a_ps, a_rs, b, b_ps, c, ldc, accumulate);           \
    }

/* ---- square tiles for packing: out[t * w + x] = src[x * xs + t] for t < S, x < lanes ------
 * Packing reads an operand along k (the packed strip's steps) and across MR rows or NR columns
 * (its lanes). When the lanes are strided and the steps contiguous (A row-major, B
 * transposed: the weight-gradient and backward products of a layer), element-by-element
 * copying reads NR streams at a large stride (at a power-of-two stride, from a handful of
 * cache sets that keep evicting each other: 512 x 512 f32 B^T packed in 204 us against 23 us
 * for B). These tiles read S steps of S lanes as S vectors and transpose them in registers.
 * `lanes` is S or S / 2 (the other lanes' loads repeat lane 0 and are not stored). */
#ifdef TP_VEC_f32
#define TP_GEMM_SQUARE_f32 8
#define TP_GEMM_SQUARE_f64 4
TP_GEMM_INLINE void tp_gemm_square_f32(const float *src, int64_t xs, int lanes,
                                       float *out, int64_t w) {
    __m256 r[8], u[8], o[8];
    _Pragma("GCC unroll 8") for (int x = 0; x < 8; x++)
        r[x] = _mm256_loadu_ps(src + (x < lanes ? x : 0) * xs);
    _Pragma("GCC unroll 4") for (int x = 0; x < 8; x += 2) {     /* pairs of lanes */
        u[x] = _mm256_unpacklo_ps(r[x], r[x + 1]);
        u[x + 1] = _mm256_unpackhi_ps(r[x], r[x + 1]);
    }
    _Pragma("GCC unroll 2") for (int x = 0; x < 8; x += 4) {     /* quads */
        r[x] = _mm256_shuffle_ps(u[x], u[x + 2], 0x44);
        r[x + 1] = _mm256_shuffle_ps(u[x], u[x + 2], 0xEE);
        r[x + 2] = _mm256_shuffle_ps(u[x + 1], u[x + 3], 0x44);
        r[x + 3] = _mm256_shuffle_ps(u[x + 1], u[x + 3], 0xEE);
    }
    _Pragma("GCC unroll 4") for (int t = 0; t < 4; t++) {        /* 128-bit halves */
        o[t] = _mm256_permute2f128_ps(r[t], r[t + 4], 0x20);
        o[t + 4] = _mm256_permute2f128_ps(r[t], r[t + 4], 0x31);
    }
    _Pragma("GCC unroll 8") for (int t = 0; t < 8; t++) {
        if (lanes == 8) _mm256_storeu_ps(out + t * w, o[t]);
        else _mm_storeu_ps(out + t * w, _mm256_castps256_ps128(o[t]));
    }
}
TP_GEMM_INLINE void tp_gemm_square_f64(const double *src, int64_t xs, int lanes,
                                       double *out, int64_t w) {
    __m256d r[4], u[4];
    _Pragma("GCC unroll 4") for (int x = 0; x < 4; x++)
        r[x] = _mm256_loadu_pd(src + (x < lanes ? x : 0) * xs);
    u[0] = _mm256_unpacklo_pd(r[0], r[1]);
    u[1] = _mm256_unpackhi_pd(r[0], r[1]);
    u[2] = _mm256_unpacklo_pd(r[2], r[3]);
    u[3] = _mm256_unpackhi_pd(r[2], r[3]);
    r[0] = _mm256_permute2f128_pd(u[0], u[2], 0x20);
    r[1] = _mm256_permute2f128_pd(u[1], u[3], 0x20);
    r[2] = _mm256_permute2f128_pd(u[0], u[2], 0x31);
    r[3] = _mm256_permute2f128_pd(u[1], u[3], 0x31);
    _Pragma("GCC unroll 4") for (int t = 0; t < 4; t++) {
        if (lanes == 4) _mm256_storeu_pd(out + t * w, r[t]);
        else _mm_storeu_pd(out + t * w, _mm256_castpd256_pd128(r[t]));
    }
}
#else
/* Portable: the same tiles as plain loops (the order still reads whole cache lines). */
#define TP_GEMM_SQUARE_f32 8
#define TP_GEMM_SQUARE_f64 8
#define TP_GEMM_SQUARE(tag, T)                                                                \
    TP_GEMM_INLINE void tp_gemm_square_##tag(const T *src, int64_t xs, int lanes, T *out,     \
                                             int64_t w) {                                     \
        for (int x = 0; x < lanes; x++)                                                       \
            for (int t = 0; t < TP_GEMM_SQUARE_##tag; t++) out[t * w + x] = src[x * xs + t];  \
    }
TP_GEMM_SQUARE(f32, float)
TP_GEMM_SQUARE(f64, double)
#endif

/* ---- the float driver: packing, blocking, edges, threads ------------------------------- */
#define TP_GEMM_PARTS(tag, T)                                                                 \
    /* One packed strip: out[p * w + x] = src[x * xs + p * ps] for the kc steps p and the     \
     * `width` lanes x (rows of A: w = MR; columns of B: w = NR or VL), lanes width..w zero.  \
     * Inlined, so that w is a constant in each caller. Three layouts: lanes contiguous (B    \
     * row-major, A transposed): one copy per step; steps contiguous (A row-major, B          \
     * transposed): square tiles transposed in registers, S lanes at a time and a cache       \
     * line of steps per pass, so that every line read is used whole while it is in L1;       \
     * anything else (slices with steps): one element at a time. */                           \
    TP_GEMM_INLINE void tp_gemm_pack_strip_##tag(int64_t kc, int64_t width, int64_t w,        \
                                                 const T *src, int64_t xs, int64_t ps,        \
                                                 T *restrict out) {                           \
        enum { S = TP_GEMM_SQUARE_##tag, LINE = 64 / sizeof(T) > S ? 64 / sizeof(T) : S };    \
        if (xs == 1) {                                                                        \
            for (int64_t p = 0; p < kc; p++) {                                                \
                if (width == w) memcpy(out + p * w, src + p * ps, sizeof(T) * w);             \
                else memcpy(out + p * w, src + p * ps, sizeof(T) * width);                    \
            }                                                                                 \
        } else if (ps == 1) {                                                                 \
            int64_t p0 = 0;                                                                   \
            for (; p0 + LINE <= kc; p0 += LINE) {                                             \
                const T *from = src + p0;                                                     \
                T *to = out + p0 * w;                                                         \
                int64_t x = 0;                                                                \
                for (; x + S <= width; x += S)                                                \
                    for (int q = 0; q < LINE; q += S)                                         \
                        tp_gemm_square_##tag(from + x * xs + q, xs, S, to + q * w + x, w);    \
                for (; x + S / 2 <= width; x += S / 2)                                        \
                    for (int q = 0; q < LINE; q += S)                                         \
                        tp_gemm_square_##tag(from + x * xs + q, xs, S / 2, to + q * w + x, w);\
                for (; x < width; x++)                                                        \
                    for (int q = 0; q < LINE; q++) to[q * w + x] = from[x * xs + q];          \
            }                                                                                 \
            for (; p0 < kc; p0++)                                                             \
                for (int64_t x = 0; x < width; x++) out[p0 * w + x] = src[x * xs + p0];       \
        } else {                                                                              \
            for (int64_t p = 0; p < kc; p++)                                                  \
                for (int64_t x = 0; x < width; x++) out[p * w + x] = src[x * xs + p * ps];    \
        }                                                                                     \
        if (width < w)                                                                        \
            for (int64_t p = 0; p < kc; p++)                                                  \
                for (int64_t x = width; x < w; x++) out[p * w + x] = 0;                       \
    }                                                                                         \
    /* All the w-wide strips of a block whose lanes are contiguous (B row-major, A            \
     * transposed), step by step: each step's `lanes` values are one contiguous run, read     \
     * once, front to back, and dealt out to the strips (strip s at out + s * kc * w). Going  \
     * strip by strip instead reads w lanes of every step before moving on: kc short runs a   \
     * row stride apart (4 KiB for 512 doubles, all in the same few cache sets), which the    \
     * prefetchers do not follow; it took a tenth of the time of 128x512 @ 512x512 f64.       \
     * Inlined, so that w is a constant in each caller. */                                    \
    TP_GEMM_INLINE void tp_gemm_pack_runs_##tag(int64_t kc, int64_t lanes, int64_t w,         \
                                                const T *src, int64_t ps, T *restrict out) {  \
        const int64_t whole = lanes / w * w;                                                  \
        for (int64_t p = 0; p < kc; p++) {                                                    \
            const T *from = src + p * ps;                                                     \
            T *to = out + p * w;                                                              \
            for (int64_t x0 = 0; x0 < whole; x0 += w, to += kc * w)                           \
                memcpy(to, from + x0, sizeof(T) * w);                                         \
            if (whole < lanes) {                                                              \
                memcpy(to, from + whole, sizeof(T) * (lanes - whole));                        \
                memset(to + (lanes - whole), 0, sizeof(T) * (w - (lanes - whole)));           \
            }                                                                                 \
        }                                                                                     \
    }                                                                                         \
    /* MR-high strips of the mc x kc block of A at `a`, zero-padded to whole strips. */       \
    static void tp_gemm_pack_a_##tag(int64_t mc, int64_t kc, const T *a, int64_t rs,          \
                                     int64_t cs, T *restrict out) {                           \
        enum { MR = TP_GEMM_MR_##tag };                                                       \
        if (rs == 1 && cs != 1) {                                                             \
            tp_gemm_pack_runs_##tag(kc, mc, MR, a, cs, out);                                  \
            return;                                                                           \
        }                                                                                     \
        for (int64_t i0 = 0; i0 < mc; i0 += MR, out += MR * kc)                               \
            tp_gemm_pack_strip_##tag(kc, mc - i0 < MR ? mc - i0 : MR, MR, a + i0 * rs, rs, cs,\
                                     out);                                                    \
    }                                                                                         \
    /* nr-wide strips of the kc x nc block of B at `b`, zero-padded to whole strips (nr is    \
     * NR, or VL for a B at most one vector wide). */                                         \
    static void tp_gemm_pack_b_##tag(int64_t kc, int64_t nc, const T *b, int64_t rs,          \
                                     int64_t cs, T *restrict out, int64_t nr) {               \
        enum { NR = 2 * TP_GEMM_VL_##tag, VL = TP_GEMM_VL_##tag };                            \
        if (cs == 1 && rs != 1) {                                                             \
            if (nr == NR) tp_gemm_pack_runs_##tag(kc, nc, NR, b, rs, out);                    \
            else tp_gemm_pack_runs_##tag(kc, nc, VL, b, rs, out);                             \
            return;                                                                           \
        }                                                                                     \
        for (int64_t j0 = 0; j0 < nc; j0 += nr, out += nr * kc) {                             \
            const int64_t cols = nc - j0 < nr ? nc - j0 : nr;                                 \
            if (nr == NR) tp_gemm_pack_strip_##tag(kc, cols, NR, b + j0 * cs, cs, rs, out);   \
            else tp_gemm_pack_strip_##tag(kc, cols, VL, b + j0 * cs, cs, rs, out);            \
        }                                                                                     \
    }                                                                                         \
    /* One packed mc x kc block of A times one packed kc x nc block of B (nr-wide strips)     \
     * into C. */                                                                             \
    static void tp_gemm_macro_##tag(int64_t mc, int64_t nc, int64_t kc, const T *ap,          \
                                    const T *bp, T *c, int64_t ldc, int accumulate,           \
                                    int64_t nr) {                                             \
        enum { MR = TP_GEMM_MR_##tag, NR = 2 * TP_GEMM_VL_##tag };                            \
        T edge[MR * NR];                                                                      \
        for (int64_t j0 = 0; j0 < nc; j0 += nr) {                                             \
            const int64_t cols = nc - j0 < nr ? nc - j0 : nr;                                 \
            for (int64_t i0 = 0; i0 < mc; i0 += MR) {                                         \
                const int64_t rows = mc - i0 < MR ? mc - i0 : MR;                             \
                const T *a = ap + i0 * kc, *b = bp + j0 * kc;                                 \
                T *tile = c + i0 * ldc + j0;                                                  \
                const int whole = rows == MR && cols == nr;                                   \
                /* A partial tile goes to `edge` (the kernel for its rows computes whole      \
                 * vectors and the next third of MR up); the part inside C is kept. */        \
                T *out = whole ? tile : edge;                                                 \
                const int64_t ld = whole ? ldc : nr;                                          \
                tp_gemm_micro_##tag(rows, nr, kc, a, MR, 1, b, nr, out, ld,                   \
                                    whole && accumulate);                                     \
                if (whole) continue;                                                          \
                for (int64_t r = 0; r < rows; r++)                                            \
                    for (int64_t j = 0; j < cols; j++)                                        \
                        tile[r * ldc + j] = accumulate ? tile[r * ldc + j] + edge[r * nr + j] \
                                                       : edge[r * nr + j];                    \
            }                                                                                 \
        }                                                                                     \
    }                                                                                         \
    /* C = A @ B for a B at most one vector wide (n <= VL: a layer's 10 logits) with A's rows \
     * contiguous: the one-vector kernel reads MR rows of A in place (a stream each along k)  \
     * instead of a packed copy, which was a third of the time of 256x256 @ 256x10 f32. Rows  \
     * past the last whole MR strip are packed (zero-padded) as usual. ap/bp: MR x KC and     \
     * KC x VL at least. */                                                                   \
    static void tp_gemm_narrow_##tag(int64_t m, int64_t n, int64_t k, const T *a, int64_t ars,\
                                     const T *b, int64_t brs, int64_t bcs, T *c, int64_t ldc, \
                                     T *ap, T *bp) {                                          \
        enum { MR = TP_GEMM_MR_##tag, VL = TP_GEMM_VL_##tag };                                \
        const int64_t whole = m / MR * MR;                                                    \
        T edge[MR * VL];                                                                      \
        for (int64_t p0 = 0; p0 < k; p0 += TP_GEMM_KC) {                                      \
            const int64_t kc = k - p0 < TP_GEMM_KC ? k - p0 : TP_GEMM_KC;                     \
            tp_gemm_pack_b_##tag(kc, n, b + p0 * brs, brs, bcs, bp, VL);                      \
            if (whole < m)                                                                    \
                tp_gemm_pack_a_##tag(m - whole, kc, a + whole * ars + p0, ars, 1, ap);        \
            for (int64_t i0 = 0; i0 < m; i0 += MR) {                                          \
                const int64_t rows = m - i0 < MR ? m - i0 : MR;                               \
                if (i0 < whole)                                                               \
                    tp_gemm_micro_##tag(MR, VL, kc, a + i0 * ars + p0, 1, ars, bp, VL, edge,  \
                                        VL, 0);                                               \
                else                                                                          \
                    tp_gemm_micro_##tag(rows, VL, kc, ap, MR, 1, bp, VL, edge, VL, 0);        \
                for (int64_t r = 0; r < rows; r++)                                            \
                    for (int64_t j = 0; j < n; j++)                                           \
                        c[(i0 + r) * ldc + j] = p0 > 0 ? c[(i0 + r) * ldc + j] + edge[r * VL + j] \
                                                       : edge[r * VL + j];                    \
            }                                                                                 \
        }                                                                                     \
    }                                                                                         \
    /* C = A @ B for a small product: the micro-kernel reads A where it is (at its strides)   \
     * and B where it is when B's rows are contiguous, instead of packed copies. Packing pays \
     * when a packed block serves many tiles; in a small product it serves few (32x128 @     \
     * 128x128, an RNN step: B served 3 row strips, A 4 column strips) and the copies were a  \
     * fifth of their time. A transposed B is still packed, whole (its columns are its steps).\
     * So is the last partial strip of each operand (zero-padded: the kernels compute whole   \
     * strips). ap: MR x k at least; bp: k x n rounded up to NR strips. */                   \
    static void tp_gemm_in_place_##tag(int64_t m, int64_t n, int64_t k, const T *a,           \
                                       int64_t ars, int64_t acs, const T *b, int64_t brs,     \
                                       int64_t bcs, T *c, int64_t ldc, T *ap, T *bp) {        \
        enum { MR = TP_GEMM_MR_##tag, NR = 2 * TP_GEMM_VL_##tag };                            \
        const int64_t whole_rows = m / MR * MR;                                               \
        const int64_t whole_cols = bcs == 1 ? n / NR * NR : 0;  /* B's strips read in place */\
        T edge[MR * NR];                                                                      \
        if (whole_rows < m) tp_gemm_pack_a_##tag(m - whole_rows, k, a + whole_rows * ars, ars, \
                                                 acs, ap);                                    \
        if (whole_cols < n) tp_gemm_pack_b_##tag(k, n - whole_cols, b + whole_cols * bcs, brs, \
                                                 bcs, bp, NR);                                \
        for (int64_t j0 = 0; j0 < n; j0 += NR) {                                              \
            const int64_t cols = n - j0 < NR ? n - j0 : NR;                                   \
            const T *bs = j0 < whole_cols ? b + j0 : bp + (j0 - whole_cols) * k;              \
            const int64_t b_ps = j0 < whole_cols ? brs : NR;                                  \
            for (int64_t i0 = 0; i0 < m; i0 += MR) {                                          \
                const int64_t rows = m - i0 < MR ? m - i0 : MR;                               \
                const int in_place = i0 < whole_rows, whole = rows == MR && cols == NR;       \
                T *out = whole ? c + i0 * ldc + j0 : edge;                                    \
                tp_gemm_micro_##tag(rows, NR, k, in_place ? a + i0 * ars : ap,                \
                                    in_place ? acs : MR, in_place ? ars : 1, bs, b_ps, out,   \
                                    whole ? ldc : NR, 0);                                     \
                if (whole) continue;                                                          \
                for (int64_t r = 0; r < rows; r++)                                            \
                    for (int64_t j = 0; j < cols; j++)                                        \
                        c[(i0 + r) * ldc + j0 + j] = edge[r * NR + j];                        \
            }                                                                                 \
        }                                                                                     \
    }                                                                                         \
    /* Straight loops, for tiny products and when packing buffers cannot be allocated. */     \
    static void tp_gemm_direct_##tag(int64_t m, int64_t n, int64_t k, const T *a, int64_t ars,\
                                     int64_t acs, const T *b, int64_t brs, int64_t bcs, T *c, \
                                     int64_t ldc) {                                           \
        for (int64_t i = 0; i < m; i++) {                                                     \
            T *row = c + i * ldc;                                                             \
            for (int64_t j = 0; j < n; j++) row[j] = 0;                                       \
            for (int64_t p = 0; p < k; p++) {                                                 \
                const T x = a[i * ars + p * acs];                                             \
                const T *brow = b + p * brs;                                                  \
                for (int64_t j = 0; j < n; j++) row[j] += x * brow[j * bcs];                  \
            }                                                                                 \
        }                                                                                     \
    }                                                                                         \
    /* One product on one thread. `ap`/`bp` are packing buffers (MC x KC and KC x NC).        \
     * `b_packed` (or NULL) is set once B, when it fits one KC x NC block, has been packed    \
     * into `bp`: a caller passing the same B again (a batch sharing one matrix, stride 0)    \
     * and the same flag gets it reused, not packed once per batch element. */                \
    static void tp_gemm_serial_##tag(int64_t m, int64_t n, int64_t k, const T *a, int64_t ars,\
                                     int64_t acs, const T *b, int64_t brs, int64_t bcs, T *c, \
                                     int64_t ldc, T *ap, T *bp, int *b_packed) {              \
        enum { MR = TP_GEMM_MR_##tag, VL = TP_GEMM_VL_##tag };                                \
        const int64_t MC = TP_GEMM_MC / MR * MR, nr = n <= VL ? VL : 2 * VL;                  \
        const int one_block = n <= TP_GEMM_NC && k <= TP_GEMM_KC;                             \
        if (m == 0 || n == 0) return;                                                         \
        if (k == 0 || ap == NULL || bp == NULL || m * n * k < TP_GEMM_SMALL) {                \
            tp_gemm_direct_##tag(m, n, k, a, ars, acs, b, brs, bcs, c, ldc);                  \
            return;                                                                           \
        }                                                                                     \
        if (nr == VL && acs == 1) {                                                           \
            tp_gemm_narrow_##tag(m, n, k, a, ars, b, brs, bcs, c, ldc, ap, bp);               \
            return;                                                                           \
        }                                                                                     \
        if (nr == 2 * VL && k <= TP_GEMM_KC && n <= TP_GEMM_NC &&                             \
            (m * k + k * n) * (int64_t)sizeof(T) <= TP_GEMM_IN_PLACE_BYTES) {                 \
            tp_gemm_in_place_##tag(m, n, k, a, ars, acs, b, brs, bcs, c, ldc, ap, bp);        \
            return;                                                                           \
        }                                                                                     \
        for (int64_t j0 = 0; j0 < n; j0 += TP_GEMM_NC) {                                      \
            const int64_t nc = n - j0 < TP_GEMM_NC ? n - j0 : TP_GEMM_NC;                     \
            for (int64_t p0 = 0; p0 < k; p0 += TP_GEMM_KC) {                                  \
                const int64_t kc = k - p0 < TP_GEMM_KC ? k - p0 : TP_GEMM_KC;                 \
                if (!(one_block && b_packed && *b_packed))                                    \
                    tp_gemm_pack_b_##tag(kc, nc, b + p0 * brs + j0 * bcs, brs, bcs, bp, nr);  \
                if (one_block && b_packed) *b_packed = 1;                                     \
                for (int64_t i0 = 0; i0 < m; i0 += MC) {                                      \
                    const int64_t mc = m - i0 < MC ? m - i0 : MC;                             \
                    tp_gemm_pack_a_##tag(mc, kc, a + i0 * ars + p0 * acs, ars, acs, ap);      \
                    tp_gemm_macro_##tag(mc, nc, kc, ap, bp, c + i0 * ldc + j0, ldc, p0 > 0,   \
                                        nr);                                                  \
                }                                                                             \
            }                                                                                 \
        }                                                                                     \
    }                                                                                         \
    /* One product shared by the threads of the enclosing parallel region in chunks that      \
     * each thread takes in turn as it comes free (a dynamic schedule): blocks of MC rows, or \
     * when A is one row block, panels of TP_GEMM_PANEL_STRIPS strips of columns, A packed    \
     * whole (every KC slice) once per thread. Fixed halves made every product wait for the   \
     * later thread; on this shared machine a thread is often descheduled for milliseconds,   \
     * and with chunks the other thread takes over its share meanwhile. Returns 0, doing      \
     * nothing, for products it does not cut (the caller then splits C into rectangles);      \
     * every thread of the team gets the same answer, so all or none reach the `omp for`. */  \
    static int tp_gemm_chunked_##tag(int64_t m, int64_t n, int64_t k, const T *a, int64_t ars,\
                                     int64_t acs, const T *b, int64_t brs, int64_t bcs, T *c, \
                                     int64_t crs) {                                           \
        enum { MR = TP_GEMM_MR_##tag, NR = 2 * TP_GEMM_VL_##tag };                            \
        const int64_t MC = TP_GEMM_MC / MR * MR, panel = TP_GEMM_PANEL_STRIPS * NR;           \
        if (n <= NR || k > 4 * TP_GEMM_KC || m * n * k < TP_GEMM_SMALL) return 0;             \
        if (m > MC) {                                                                         \
            const int64_t chunks = (m + MC - 1) / MC;                                         \
            T *ap = tp_gemm_alloc(sizeof(T) * tp_gemm_a_block(MC, k, MR));                    \
            T *bp = tp_gemm_alloc(sizeof(T) * tp_gemm_b_block(n, k, NR));                     \
            int b_packed = 0;          /* B of one KC x NC block: packed by the first chunk */\
            _Pragma("omp for schedule(dynamic, 1)")                                           \
            for (int64_t ch = 0; ch < chunks; ch++) {                                         \
                const int64_t r0 = ch * MC, rows = m - r0 < MC ? m - r0 : MC;                 \
                tp_gemm_serial_##tag(rows, n, k, a + r0 * ars, ars, acs, b, brs, bcs,         \
                                     c + r0 * crs, crs, ap, bp, &b_packed);                   \
            }                                                                                 \
            free(ap);                                                                         \
            free(bp);                                                                         \
            return 1;                                                                         \
        }                                                                                     \
        const int64_t chunks = (n + panel - 1) / panel, rows = tp_gemm_round_up(m, MR);       \
        T *ap = tp_gemm_alloc(sizeof(T) * rows * k);                                          \
        T *bp = tp_gemm_alloc(sizeof(T) * panel * (k < TP_GEMM_KC ? k : TP_GEMM_KC));         \
        if (ap != NULL && bp != NULL)                                                         \
            for (int64_t p0 = 0; p0 < k; p0 += TP_GEMM_KC)                                    \
                tp_gemm_pack_a_##tag(m, k - p0 < TP_GEMM_KC ? k - p0 : TP_GEMM_KC,            \
                                     a + p0 * acs, ars, acs, ap + rows * p0);                 \
        _Pragma("omp for schedule(dynamic, 1)")                                               \
        for (int64_t ch = 0; ch < chunks; ch++) {                                             \
            const int64_t j0 = ch * panel, cols = n - j0 < panel ? n - j0 : panel;            \
            if (ap == NULL || bp == NULL) {                                                   \
                tp_gemm_direct_##tag(m, cols, k, a, ars, acs, b + j0 * bcs, brs, bcs, c + j0, \
                                     crs);                                                    \
                continue;                                                                     \
            }                                                                                 \
            for (int64_t p0 = 0; p0 < k; p0 += TP_GEMM_KC) {                                  \
                const int64_t kc = k - p0 < TP_GEMM_KC ? k - p0 : TP_GEMM_KC;                 \
                tp_gemm_pack_b_##tag(kc, cols, b + p0 * brs + j0 * bcs, brs, bcs, bp, NR);    \
                tp_gemm_macro_##tag(m, cols, kc, ap + rows * p0, bp, c + j0, crs, p0 > 0, NR);\
            }                                                                                 \
        }                                                                                     \
        free(ap);                                                                             \
        free(bp);                                                                             \
        return 1;                                                                             \
    }                                                                                         \
    /* y[l] = sum_p M[l, p] x[p] for l in [l0, l1): the matrix is streamed once, unpacked. */ \
    static void tp_gemv_##tag(int64_t l0, int64_t l1, int64_t k, const T *mat, int64_t mls,   \
                              int64_t mps, const T *x, int64_t xs, T *restrict y) {           \
        T *x_copy = mps == 1 && xs != 1 && k > 0 ? malloc(sizeof(T) * k) : NULL;              \
        if (x_copy != NULL) {       /* a strided x (a column): dot products want it packed */ \
            for (int64_t p = 0; p < k; p++) x_copy[p] = x[p * xs];                            \
            tp_gemv_##tag(l0, l1, k, mat, mls, mps, x_copy, 1, y);                            \
            free(x_copy);                                                                     \
            return;                                                                           \
        }                                                                                     \
        if (mps == 1 && xs == 1) {   /* rows of M and x contiguous: dot products, 8 rows      \
                                        per pass: each load of x serves eight, and eight      \
                                        streams keep more of memory busy (2000^2 f64 on       \
                                        one core: 1.43 ms with 4, 1.27 ms with 8, 16 no       \
                                        better) */                                            \
            int64_t l = l0;                                                                   \
            for (; l + 8 <= l1; l += 8) {                                                     \
                const T *r0 = mat + l * mls, *r1 = r0 + mls, *r2 = r1 + mls, *r3 = r2 + mls,  \
                        *r4 = r3 + mls, *r5 = r4 + mls, *r6 = r5 + mls, *r7 = r6 + mls;       \
                T s0 = 0, s1 = 0, s2 = 0, s3 = 0, s4 = 0, s5 = 0, s6 = 0, s7 = 0;             \
                _Pragma("omp simd reduction(+:s0, s1, s2, s3, s4, s5, s6, s7)")               \
                for (int64_t p = 0; p < k; p++) {                                             \
                    s0 += r0[p] * x[p];                                                       \
                    s1 += r1[p] * x[p];                                                       \
                    s2 += r2[p] * x[p];                                                       \
                    s3 += r3[p] * x[p];                                                       \
                    s4 += r4[p] * x[p];                                                       \
                    s5 += r5[p] * x[p];                                                       \
                    s6 += r6[p] * x[p];                                                       \
                    s7 += r7[p] * x[p];                                                       \
                }                                                                             \
                y[l] = s0, y[l + 1] = s1, y[l + 2] = s2, y[l + 3] = s3;                       \
                y[l + 4] = s4, y[l + 5] = s5, y[l + 6] = s6, y[l + 7] = s7;                   \
            }                                                                                 \
            for (; l < l1; l++) {                                                             \
                const T *row = mat + l * mls;                                                 \
                T s = 0;                                                                      \
                _Pragma("omp simd reduction(+:s)")                                            \
                for (int64_t p = 0; p < k; p++) s += row[p] * x[p];                           \
                y[l] = s;                                                                     \
            }                                                                                 \
            return;                                                                           \
        }                        /* else: y += x[p] * column p, eight columns per pass: */    \
        for (int64_t l = l0; l < l1; l++) y[l] = 0;  /* y's loads and stores are 1/8 of  */   \
        int64_t p = 0;                               /* the traffic (4: 1/4, measurably   */  \
        for (; p + 8 <= k; p += 8) {                 /* slower on 2000^2 f64)             */  \
            const T *c0 = mat + p * mps, *c1 = c0 + mps, *c2 = c1 + mps, *c3 = c2 + mps,      \
                    *c4 = c3 + mps, *c5 = c4 + mps, *c6 = c5 + mps, *c7 = c6 + mps;           \
            const T x0 = x[p * xs], x1 = x[(p + 1) * xs], x2 = x[(p + 2) * xs],               \
                    x3 = x[(p + 3) * xs], x4 = x[(p + 4) * xs], x5 = x[(p + 5) * xs],         \
                    x6 = x[(p + 6) * xs], x7 = x[(p + 7) * xs];                               \
            _Pragma("omp simd")                                                               \
            for (int64_t l = l0; l < l1; l++)                                                 \
                y[l] += ((x0 * c0[l * mls] + x1 * c1[l * mls]) +                              \
                         (x2 * c2[l * mls] + x3 * c3[l * mls])) +                             \
                        ((x4 * c4[l * mls] + x5 * c5[l * mls]) +                              \
                         (x6 * c6[l * mls] + x7 * c7[l * mls]));                              \
        }                                                                                     \
        for (; p < k; p++) {                                                                  \
            const T xp = x[p * xs], *cp = mat + p * mps;                                      \
            _Pragma("omp simd")                                                               \
            for (int64_t l = l0; l < l1; l++) y[l] += xp * cp[l * mls];                       \
        }                                                                                     \
    }                                                                                         \
    /* x @ M with M's rows contiguous (a vector times a row-major matrix), on every thread:   \
     * each takes a band of M's rows and sums it into its own partial y; the partials are     \
     * then added in thread order, each thread adding up its own chunk of y. One contiguous   \
     * band per thread is what the prefetchers follow best: splitting y instead (a strip of   \
     * every row each) measured 0.48 ms against 0.37 ms for 2000^2 f64 on 2 threads. */       \
    static void tp_vecmat_bands_##tag(int64_t len, int64_t k, const T *mat, int64_t mps,      \
                                      const T *x, int64_t xs, T *y) {                         \
        const int most = TP_GEMM_MAX_THREADS();                                               \
        T *partials = most > 1 ? malloc(sizeof(T) * len * (most - 1)) : NULL;                 \
        if (partials == NULL) {                 /* one thread, or memory is short */          \
            tp_gemv_##tag(0, len, k, mat, 1, mps, x, xs, y);                                  \
            return;                                                                           \
        }                                                                                     \
        _Pragma("omp parallel num_threads(most)")                                             \
        {                                                                                     \
            int threads = 1, me = 0;                                                          \
            TP_GEMM_THREAD_ID(threads, me);                                                   \
            const int64_t p0 = k * me / threads, p1 = k * (me + 1) / threads;                 \
            T *mine = me == 0 ? y : partials + (me - 1) * len;                                \
            tp_gemv_##tag(0, len, p1 - p0, mat + p0 * mps, 1, mps, x + p0 * xs, xs, mine);    \
            _Pragma("omp barrier")                                                            \
            const int64_t chunks = (len + 63) / 64;                                           \
            const int64_t l0 = chunks * me / threads * 64;                                    \
            const int64_t l1 = chunks * (me + 1) / threads * 64 < len                         \
                                   ? chunks * (me + 1) / threads * 64 : len;                  \
            for (int t = 1; t < threads; t++)                                                 \
                for (int64_t l = l0; l < l1; l++) y[l] += partials[(t - 1) * len + l];        \
        }                                                                                     \
        free(partials);                                                                       \
    }

/* Threads for the float products (see the top of the file). */
#define TP_GEMM_FLOAT_ENTRY(tag, T)                                                           \
    TP_KERNEL_API void tp_gemm_##tag(                                                         \
            int64_t batch, int64_t m, int64_t n, int64_t k, const T *a, int64_t abs_,         \
            int64_t ars, int64_t acs, const T *b, int64_t bbs, int64_t brs, int64_t bcs,      \
            T *c, int64_t cbs, int64_t crs) {                                                 \
        const int parallel = batch * m * n * k >= TP_GEMM_PARALLEL_MIN;                       \
        if (m == 1 && bcs == 1 && brs != 1 && batch == 1 && parallel) {                       \
            tp_vecmat_bands_##tag(n, k, b, brs, a, acs, c);                                   \
            return;                                                                           \
        }                                                                                     \
        if (m == 1 || n == 1) {   /* vector @ matrix or matrix @ vector: no packing */        \
            const int64_t len = m == 1 ? n : m;                                               \
            const int64_t mls = m == 1 ? bcs : ars, mps = m == 1 ? brs : acs;                 \
            const int64_t xs = m == 1 ? acs : brs;                                            \
            _Pragma("omp parallel if(parallel)")                                              \
            for (int64_t bi = 0; bi < batch; bi++) {                                          \
                const T *mat = m == 1 ? b + bi * bbs : a + bi * abs_;                         \
                const T *x = m == 1 ? a + bi * abs_ : b + bi * bbs;                           \
                T *y = c + bi * cbs;                                                          \
                tp_gemm_split_##tag(len, mat, mls, mps, x, xs, y, k);                         \
            }                                                                                 \
            return;                                                                           \
        }                                                                                     \
        _Pragma("omp parallel if(parallel)")                                                  \
        {                                                                                     \
            int threads = 1, me = 0;                                                          \
            TP_GEMM_THREAD_ID(threads, me);                                                   \
            const int chunked = batch == 1 && threads > 1 &&                                  \
                tp_gemm_chunked_##tag(m, n, k, a, ars, acs, b, brs, bcs, c, crs);             \
            const size_t a_size = tp_gemm_a_block(m, k, TP_GEMM_MR_##tag);                    \
            const size_t b_size = tp_gemm_b_block(n, k, 2 * TP_GEMM_VL_##tag);               \
            T *ap = chunked ? NULL : tp_gemm_alloc(sizeof(T) * a_size);                       \
            T *bp = chunked ? NULL : tp_gemm_alloc(sizeof(T) * b_size);                       \
            int b_packed = 0;                                                                 \
            int *shared_b = bbs == 0 ? &b_packed : NULL;                                      \
            const int64_t band = tp_gemm_band_rows(m, n, threads, TP_GEMM_MR_##tag);          \
            if (chunked) {                                                                    \
            } else if (batch >= threads) {                                                    \
                for (int64_t bi = me; bi < batch; bi += threads)                              \
                    tp_gemm_serial_##tag(m, n, k, a + bi * abs_, ars, acs, b + bi * bbs, brs, \
                                         bcs, c + bi * cbs, crs, ap, bp, shared_b);           \
            } else if (band > 0) {                                                            \
                for (int64_t bi = 0; bi < batch; bi++) {                                      \
                    int band_b_packed = 0;  /* this thread's packing of this element's B */   \
                    _Pragma("omp for schedule(dynamic, 1) nowait")                            \
                    for (int64_t r0 = 0; r0 < m; r0 += band) {                                \
                        const int64_t rows = m - r0 < band ? m - r0 : band;                   \
                        tp_gemm_serial_##tag(rows, n, k, a + bi * abs_ + r0 * ars, ars, acs,  \
                                             b + bi * bbs, brs, bcs, c + bi * cbs + r0 * crs, \
                                             crs, ap, bp, &band_b_packed);                    \
                    }                                                                         \
                }                                                                             \
            } else {                                                                          \
                int64_t r0, r1, c0, c1;                                                       \
                tp_gemm_my_rectangle(m, n, threads, me, TP_GEMM_MR_##tag,                     \
                                     2 * TP_GEMM_VL_##tag, &r0, &r1, &c0, &c1);               \
                for (int64_t bi = 0; bi < batch && r0 < r1 && c0 < c1; bi++)                  \
                    tp_gemm_serial_##tag(r1 - r0, c1 - c0, k,                                 \
                                         a + bi * abs_ + r0 * ars, ars, acs,                  \
                                         b + bi * bbs + c0 * bcs, brs, bcs,                   \
                                         c + bi * cbs + r0 * crs + c0, crs, ap, bp,           \
                                         shared_b);                                           \
            }                                                                                 \
            free(ap);                                                                         \
            free(bp);                                                                         \
        }                                                                                     \
    }

#ifdef _OPENMP
#define TP_GEMM_THREAD_ID(threads, me)                                                        \
    ((threads) = omp_get_num_threads(), (me) = omp_get_thread_num())
#define TP_GEMM_MAX_THREADS() omp_get_max_threads()
#else
#define TP_GEMM_THREAD_ID(threads, me) ((void)0)
#define TP_GEMM_MAX_THREADS() 1
#endif

/* Rows of the tr x tc grid of rectangles (tr * tc == threads) with the least total edge. */
static int __attribute__((unused)) tp_gemm_grid_rows(int64_t m, int64_t n, int threads) {
    int best = 1;
    double best_edge = -1;
    for (int tr = 1; tr <= threads; tr++) {
        if (threads % tr) continue;
        const double edge = (double)m / tr + (double)n / (threads / tr);
        if (best_edge < 0 || edge < best_edge) { best_edge = edge; best = tr; }
    }
    return best;
}

/* Rows per band when a tall product is cut into bands of whole rows that the threads take
 * as they come free (an `omp for schedule(dynamic)`), or 0 for one rectangle per thread
 * (tp_gemm_my_rectangle). Only where the rectangles would be bands of rows anyway, and tall
 * enough for four bands per thread of at least TP_GEMM_MC rows each: a thread that the
 * system deschedules then holds up one band, not half of the product (doitgen's 3600x128 @
 * 128x128 f64 on two threads of a loaded machine: slower than one thread with two fixed
 * halves). A thread packs B once for all its bands when B is one block (the flag passed to
 * tp_gemm_serial), else once per band, which is at most 1/TP_GEMM_MC of the band's work. */
static int64_t __attribute__((unused)) tp_gemm_band_rows(int64_t m, int64_t n, int threads,
                                                         int64_t mr) {
    const int64_t bands = 4 * (int64_t)threads, mc = TP_GEMM_MC / mr * mr;
    if (threads < 2 || m < bands * mc || tp_gemm_grid_rows(m, n, threads) != threads)
        return 0;
    const int64_t rows = (m + bands - 1) / bands;
    return (rows + mr - 1) / mr * mr;
}

/* Thread `me` of `threads` takes one rectangle of an m x n result: the threads form a
 * tr x tc grid (tr * tc == threads) with the least total edge, and the cuts fall on whole
 * micro-tiles (mr x nr) so that only the last rectangle of a row or column has partial tiles. */
static void __attribute__((unused)) tp_gemm_my_rectangle(int64_t m, int64_t n, int threads,
                                                         int me, int64_t mr, int64_t nr,
                                                         int64_t *r0, int64_t *r1,
                                                         int64_t *c0, int64_t *c1) {
    const int best = tp_gemm_grid_rows(m, n, threads);
    const int tc = threads / best, my_row = me / tc, my_col = me % tc;
    const int64_t row_tiles = (m + mr - 1) / mr, col_tiles = (n + nr - 1) / nr;
    *r0 = row_tiles * my_row / best * mr;
    *r1 = my_row + 1 == best ? m : row_tiles * (my_row + 1) / best * mr;
    *c0 = col_tiles * my_col / tc * nr;
    *c1 = my_col + 1 == tc ? n : col_tiles * (my_col + 1) / tc * nr;
    if (*r0 > m) *r0 = m;
    if (*r1 > m) *r1 = m;
    if (*c0 > n) *c0 = n;
    if (*c1 > n) *c1 = n;
}

/* Inside a parallel region: the outputs [0, len) of one matrix-vector product are split in
 * chunks of 64 between the threads (each writes only its own outputs). */
#define TP_GEMM_SPLIT(tag, T)                                                                 \
    TP_GEMM_INLINE void tp_gemm_split_##tag(int64_t len, const T *mat, int64_t mls,           \
                                            int64_t mps, const T *x, int64_t xs, T *y,        \
                                            int64_t k) {                                      \
        int threads = 1, me = 0;                                                              \
        TP_GEMM_THREAD_ID(threads, me);                                                       \
        const int64_t chunks = (len + 63) / 64;                                               \
        const int64_t first = chunks * me / threads, last = chunks * (me + 1) / threads;      \
        const int64_t l0 = first * 64, l1 = last * 64 < len ? last * 64 : len;                \
        if (l0 < l1) tp_gemv_##tag(l0, l1, k, mat, mls, mps, x, xs, y);                       \
    }

/* Pack buffers: 64-byte aligned (whole cache lines), NULL when memory is short (the serial
 * algorithm then falls back to the direct loops). Sized for the product at hand, not for the
 * largest blocks, so that a small product does not map megabytes on every call. */
static void *__attribute__((unused)) tp_gemm_alloc(size_t bytes) {
    return aligned_alloc(64, (bytes + 63) / 64 * 64);
}

static int64_t __attribute__((unused)) tp_gemm_round_up(int64_t x, int64_t to) {
    return (x + to - 1) / to * to;
}

/* Elements of the packed block of A: MC' x KC at most (MC' = MC rounded down to MR). */
static size_t __attribute__((unused)) tp_gemm_a_block(int64_t m, int64_t k, int64_t mr) {
    const int64_t mc = TP_GEMM_MC / mr * mr, rows = tp_gemm_round_up(m, mr);
    return (size_t)((rows < mc ? rows : mc) * (k < TP_GEMM_KC ? k : TP_GEMM_KC));
}

/* Elements of the packed block of B: KC x NC at most, NC rounded up to whole NR strips. */
static size_t __attribute__((unused)) tp_gemm_b_block(int64_t n, int64_t k, int64_t nr) {
    const int64_t cols = tp_gemm_round_up(n < TP_GEMM_NC ? n : TP_GEMM_NC, nr);
    return (size_t)(cols * (k < TP_GEMM_KC ? k : TP_GEMM_KC));
}

/* ---- integers: exact, wrapping (products and sums in the unsigned type W, as NumPy wraps) */
#define TP_GEMM_INT(tag, T, W)                                                                \
    TP_KERNEL_API void tp_gemm_##tag(                                                         \
            int64_t batch, int64_t m, int64_t n, int64_t k, const T *a, int64_t abs_,         \
            int64_t ars, int64_t acs, const T *b, int64_t bbs, int64_t brs, int64_t bcs,      \
            T *c, int64_t cbs, int64_t crs) {                                                 \
        const int parallel = batch * m * n * k >= TP_GEMM_PARALLEL_MIN;                       \
        _Pragma("omp parallel for collapse(2) schedule(static) if(parallel)")                 \
        for (int64_t bi = 0; bi < batch; bi++)                                                \
            for (int64_t i = 0; i < m; i++) {                                                 \
                T *restrict row = c + bi * cbs + i * crs;                                     \
                for (int64_t j = 0; j < n; j++) row[j] = 0;                                   \
                for (int64_t p = 0; p < k; p++) {                                             \
                    const W x = (W)a[bi * abs_ + i * ars + p * acs];                          \
                    const T *brow = b + bi * bbs + p * brs;                                   \
                    for (int64_t j = 0; j < n; j++)                                           \
                        row[j] = (T)((W)row[j] + x * (W)brow[j * bcs]);                       \
                }                                                                             \
            }                                                                                 \
    }

/* ---- complex: the same loop with tp_complex.h's products (NumPy's fma formula) and sums,
 * accumulating in the element type as BLAS's cgemm/zgemm does; results match NumPy within
 * reassociation error. */
#define TP_GEMM_COMPLEX(tag, T)                                                               \
    TP_KERNEL_API void tp_gemm_##tag(                                                         \
            int64_t batch, int64_t m, int64_t n, int64_t k, const T *a, int64_t abs_,         \
            int64_t ars, int64_t acs, const T *b, int64_t bbs, int64_t brs, int64_t bcs,      \
            T *c, int64_t cbs, int64_t crs) {                                                 \
        const int parallel = 4 * batch * m * n * k >= TP_GEMM_PARALLEL_MIN;                   \
        _Pragma("omp parallel for collapse(2) schedule(static) if(parallel)")                 \
        for (int64_t bi = 0; bi < batch; bi++)                                                \
            for (int64_t i = 0; i < m; i++) {                                                 \
                T *restrict row = c + bi * cbs + i * crs;                                     \
                for (int64_t j = 0; j < n; j++) row[j] = tp_make_##tag(0, 0);                 \
                for (int64_t p = 0; p < k; p++) {                                             \
                    const T x = a[bi * abs_ + i * ars + p * acs];                             \
                    const T *brow = b + bi * bbs + p * brs;                                   \
                    for (int64_t j = 0; j < n; j++)                                           \
                        row[j] = tp_add_##tag(row[j], tp_mul_##tag(x, brow[j * bcs]));        \
                }                                                                             \
            }                                                                                 \
    }

/* The static building blocks (micro-kernels, packing, blocked loops), once per translation
 * unit. Another runtime header may include this one with TP_GEMM_PARTS_ONLY defined, for
 * these alone (tp_cholesky.h's trailing updates): the runtime library compiles each kernel
 * header as its own translation unit, and a second copy of the exported entries below would
 * be a duplicate symbol there. */
#define TP_GEMM_FLOAT_PARTS(tag, T)                                                           \
    TP_GEMM_MICRO(tag, T) TP_GEMM_PARTS(tag, T) TP_GEMM_SPLIT(tag, T)
TP_GEMM_FLOAT_PARTS(f32, float)
TP_GEMM_FLOAT_PARTS(f64, double)

#endif /* TRANSPILE_GEMM_H */

/* The exported entries: once, by the first inclusion without TP_GEMM_PARTS_ONLY. */
#if !defined(TP_GEMM_PARTS_ONLY) && !defined(TRANSPILE_GEMM_ENTRIES_H)
#define TRANSPILE_GEMM_ENTRIES_H
TP_GEMM_FLOAT_ENTRY(f32, float)
TP_GEMM_FLOAT_ENTRY(f64, double)
TP_GEMM_INT(i8, int8_t, uint32_t)
TP_GEMM_INT(i16, int16_t, uint32_t)
TP_GEMM_INT(i32, int32_t, uint32_t)
TP_GEMM_INT(i64, int64_t, uint64_t)
TP_GEMM_INT(u8, uint8_t, uint32_t)
TP_GEMM_INT(u16, uint16_t, uint32_t)
TP_GEMM_INT(u32, uint32_t, uint32_t)
TP_GEMM_INT(u64, uint64_t, uint64_t)
TP_GEMM_COMPLEX(c64, tp_c64)
TP_GEMM_COMPLEX(c128, tp_c128)
#endif /* the exported entries */
