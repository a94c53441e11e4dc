/* tp_conv.h: direct convolution (lax.conv_general_dilated), channels last, no im2col.
 *
 *   tp_conv_<tag>(lhs, rhs, out,
 *                 N, D, H, W, C,          lhs  (N, D, H, W, C)
 *                 KD, KH, KW, I, O,       rhs  (KD, KH, KW, I, O), I = C / groups
 *                 OD, OH, OW,             out  (N, OD, OH, OW, O)
 *                 SD, SH, SW,             window strides
 *                 PD, PH, PW,             padding before each spatial axis (after is implied)
 *                 LD, LH, LW,             lhs (input) dilation
 *                 RD, RH, RW,             rhs (kernel) dilation
 *                 groups)                 feature_group_count
 *
 * Every convolution is written with three spatial axes (the front end adds unit axes for
 * 1-D and 2-D ones), so one kernel serves all. Output position o along an axis reads the
 * dilated, padded input at o * stride + k * rhs_dilation - pad, which is input element
 * (that / lhs_dilation) when it divides exactly and lies inside.
 *
 * The work is a sum of small matrix products: for each kernel offset, a run of output
 * pixels along W (a matrix of rows lda = SW * C apart) times that offset's C x O weights.
 * tp_conv_tile_full keeps a TP_CONV_ROWS x TP_CONV_WIDTH tile of outputs in registers over
 * the channels (GCC vector types: the compiler picks the vector instructions; multiplies and
 * adds stay separate, as -ffp-contract=off asks); the range of pixels whose input is inside the padding-free part is computed per
 * offset, so no bounds test runs in the inner loops. A depthwise convolution (one input
 * channel per group, one output per group) runs as a vector multiply-add over channels.
 * Inputs dilated by more than one (transposed convolutions) take a per-pixel path that
 * tests each offset.
 *
 * Rounding: products and sums in the operands' precision, channels then offsets in order
 * (a different association than XLA's: results agree within summation error); the full
 * tiles fuse each multiply-add where the target has FMA (one rounding), edges do not. Threads:
 * OpenMP over output rows (n, od, oh).
 */
#ifndef TRANSPILE_CONV_H
#define TRANSPILE_CONV_H

#include <stdint.h>
#include <string.h>
#include "tp_kernel_api.h"

/* The register tile: TP_CONV_ROWS output pixels x two vectors of output features. Six rows
 * of two 64-byte vectors (AVX-512: 12 of its 32 registers) measured 25 GFLOP/s on one Zen 4
 * core against 20 for four rows and 16 for eight (float32, 3x3, 32 -> 64 channels); without
 * AVX-512 the vectors are 32 bytes, so the tile still fits in the 16 registers. */
#define TP_CONV_ROWS 6
#if defined(__AVX512F__)
#define TP_CONV_VECTOR_BYTES 64
#elif defined(__AVX__)
#define TP_CONV_VECTOR_BYTES 32
#else
#define TP_CONV_VECTOR_BYTES 16   /* SSE2: wider vector types would go through memory */
#endif
/* Below this many multiply-adds a convolution runs on one thread. */
#define TP_CONV_PARALLEL_MIN 65536

/* floor(a / b) and ceil(a / b) for b > 0 and any sign of a. */
static inline int64_t tp_conv_floor_div(int64_t a, int64_t b) {
    return a >= 0 ? a / b : -((-a + b - 1) / b);
}

static inline int64_t tp_conv_ceil_div(int64_t a, int64_t b) {
    return -tp_conv_floor_div(-a, b);
}

/* The input index that output o and kernel offset k read along one axis, or -1 when that
 * falls in the padding or between dilated input elements. */
static inline int64_t tp_conv_source(int64_t o, int64_t k, int64_t stride, int64_t pad,
                                     int64_t lhs_dil, int64_t rhs_dil, int64_t size) {
    const int64_t p = o * stride + k * rhs_dil - pad;
    if (p < 0 || p % lhs_dil) return -1;
    return p / lhs_dil < size ? p / lhs_dil : -1;
}

/* acc + a * b for one broadcast scalar a, fused (one rounding, as BLAS and tp_gemm.h's
 * kernels do) where the target has FMA instructions; VEC is the impl's vector type. */
#if defined(__AVX512F__) || (defined(__AVX__) && defined(__FMA__))
#include <immintrin.h>
#endif
#if defined(__AVX512F__)
#define TP_CONV_FMA_F32(a, b, acc) ((VEC)_mm512_fmadd_ps(_mm512_set1_ps(a), (__m512)(b), (__m512)(acc)))
#define TP_CONV_FMA_F64(a, b, acc) ((VEC)_mm512_fmadd_pd(_mm512_set1_pd(a), (__m512d)(b), (__m512d)(acc)))
#elif defined(__AVX__) && defined(__FMA__)
#define TP_CONV_FMA_F32(a, b, acc) ((VEC)_mm256_fmadd_ps(_mm256_set1_ps(a), (__m256)(b), (__m256)(acc)))
#define TP_CONV_FMA_F64(a, b, acc) ((VEC)_mm256_fmadd_pd(_mm256_set1_pd(a), (__m256d)(b), (__m256d)(acc)))
#else
#define TP_CONV_FMA_F32(a, b, acc) ((acc) + (a) * (b))
#define TP_CONV_FMA_F64(a, b, acc) ((acc) + (a) * (b))
#endif

#define TP_CONV_T float
#define TP_CONV_FMA TP_CONV_FMA_F32
#define TP_CONV_TAG(name) name##_f32
#define TP_CONV_WIDTH (2 * TP_CONV_VECTOR_BYTES / 4)
#include "tp_conv_impl.h"
#undef TP_CONV_T
#undef TP_CONV_FMA
#undef TP_CONV_TAG
#undef TP_CONV_WIDTH

#define TP_CONV_T double
#define TP_CONV_FMA TP_CONV_FMA_F64
#define TP_CONV_TAG(name) name##_f64
#define TP_CONV_WIDTH (2 * TP_CONV_VECTOR_BYTES / 8)
#include "tp_conv_impl.h"
#undef TP_CONV_T
#undef TP_CONV_FMA
#undef TP_CONV_TAG
#undef TP_CONV_WIDTH

#endif
