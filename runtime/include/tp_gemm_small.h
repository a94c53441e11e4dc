/* tp_gemm_small.h: small matrix products, inlined into the module that calls them.
 *
 * Products of fewer than TP_GEMM_SMALL_MAX multiply-adds in all (batch x m x n x k) are the
 * plain loops below, compiled into the generated module itself rather than called in the
 * runtime library (tp_gemm.h, tp_runtime.h): there the compiler sees the shapes and strides
 * as constants and specialises the loops for them (unrolled, vectorised along contiguous
 * columns). Measured on 20,000-step fori_loops of tanh(x @ m), one thread, per step: 4x4
 * f64 0.18 us inlined here, 0.71 us through the library's general kernel (0.68 us when
 * tp_gemm.h was compiled into every module); 3x3 @ 3 f64 0.05 against 0.43 us; 16x16 f32
 * 4.5 us against 5.4 us (4.5 us before). These are short loops: a few milliseconds of the
 * module's build, where the library kernel took a second.
 *
 * The arguments are tp_gemm's (strides in elements, C's columns contiguous). Floats multiply,
 * then add, in order along k (-ffp-contract=off: no fusing), as tp_gemm.h's direct loop does
 * for products this small; integers wrap in the unsigned type; complex numbers use
 * tp_complex.h's product and sum. */
#ifndef TRANSPILE_GEMM_SMALL_H
#define TRANSPILE_GEMM_SMALL_H

#include <stdint.h>
#include "tp_complex.h"

#define TP_GEMM_SMALL_MAX (32 * 32 * 32)    /* tp_gemm.h's TP_GEMM_SMALL: no packing below */

/* ZERO: T's zero; MULADD(acc, x, y): acc + x * y in T's arithmetic. */
#define TP_GEMM_SMALL_KERNEL(tag, T, ZERO, MULADD)                                            \
    static inline __attribute__((always_inline, unused)) void tp_gemm_small_##tag(            \
            int64_t batch, int64_t m, int64_t n, int64_t k, const T *a, int64_t abs_,         \
            int64_t ars, int64_t acs, const T *b, int64_t bbs, int64_t brs, int64_t bcs,      \
            T *c, int64_t cbs, int64_t crs) {                                                 \
        for (int64_t bi = 0; bi < batch; bi++)                                                \
            for (int64_t i = 0; i < m; i++) {                                                 \
                T *restrict row = c + bi * cbs + i * crs;                                     \
                for (int64_t j = 0; j < n; j++) row[j] = ZERO;                                \
                for (int64_t p = 0; p < k; p++) {                                             \
                    const T x = a[bi * abs_ + i * ars + p * acs];                             \
                    const T *brow = b + bi * bbs + p * brs;                                   \
                    for (int64_t j = 0; j < n; j++) row[j] = MULADD(row[j], x, brow[j * bcs]); \
                }                                                                             \
            }                                                                                 \
    }

#define TP_SMALL_MULADD(acc, x, y) ((acc) + (x) * (y))
TP_GEMM_SMALL_KERNEL(f32, float, 0, TP_SMALL_MULADD)
TP_GEMM_SMALL_KERNEL(f64, double, 0, TP_SMALL_MULADD)

/* Integers: products and sums in the unsigned type (defined wrap-around, as NumPy's). */
#define TP_GEMM_SMALL_INT(tag, T, W)                                                          \
    static inline __attribute__((unused)) T tp_small_muladd_##tag(T acc, T x, T y) {          \
        return (T)((W)acc + (W)x * (W)y);                                                     \
    }                                                                                         \
    TP_GEMM_SMALL_KERNEL(tag, T, 0, tp_small_muladd_##tag)
TP_GEMM_SMALL_INT(i8, int8_t, uint32_t)
TP_GEMM_SMALL_INT(i16, int16_t, uint32_t)
TP_GEMM_SMALL_INT(i32, int32_t, uint32_t)
TP_GEMM_SMALL_INT(i64, int64_t, uint64_t)
TP_GEMM_SMALL_INT(u8, uint8_t, uint32_t)
TP_GEMM_SMALL_INT(u16, uint16_t, uint32_t)
TP_GEMM_SMALL_INT(u32, uint32_t, uint32_t)
TP_GEMM_SMALL_INT(u64, uint64_t, uint64_t)

#define TP_SMALL_MULADD_c64(acc, x, y) tp_add_c64(acc, tp_mul_c64(x, y))
#define TP_SMALL_MULADD_c128(acc, x, y) tp_add_c128(acc, tp_mul_c128(x, y))
TP_GEMM_SMALL_KERNEL(c64, tp_c64, tp_make_c64(0, 0), TP_SMALL_MULADD_c64)
TP_GEMM_SMALL_KERNEL(c128, tp_c128, tp_make_c128(0, 0), TP_SMALL_MULADD_c128)

#endif /* TRANSPILE_GEMM_SMALL_H */
