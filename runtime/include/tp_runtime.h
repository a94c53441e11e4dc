/* tp_runtime.h: the runtime library's whole-buffer kernels, declared.
 *
 * A generated CPU module includes this (a few hundred declarations, parsed in milliseconds)
 * instead of the headers that define the kernels, and is linked against the runtime library
 * (transpile/runtime/runtime_library.py), which compiles those definitions once per compiler,
 * flags and CPU. The library's source includes this header before the definitions, so the
 * compiler checks every declaration here against its definition.
 *
 * Only kernels called once per buffer live in the library; a call through the dynamic
 * linker's table costs nanoseconds beside them. Scalar helpers that run per element
 * (transpile.h, tp_complex.h, tp_special.h) stay static inline in the module, where they
 * vectorise with its loops. */
#ifndef TRANSPILE_RUNTIME_LIBRARY_H
#define TRANSPILE_RUNTIME_LIBRARY_H

#include <stdbool.h>
#include <stdint.h>
#include "tp_complex.h"

/* Every dtype of a kernel family, each as `X(tag, C type)`. */
#define TP_FOR_INTEGERS(X) X(i8, int8_t) X(i16, int16_t) X(i32, int32_t) X(i64, int64_t) \
    X(u8, uint8_t) X(u16, uint16_t) X(u32, uint32_t) X(u64, uint64_t)
#define TP_FOR_FLOATS(X) X(f32, float) X(f64, double)
#define TP_FOR_COMPLEX(X) X(c64, tp_c64) X(c128, tp_c128)

/* tp_gemm.h: C[b] = A[b] @ B[b], strides in elements. */
#define TP_DECLARE_GEMM(tag, T)                                                               \
    void tp_gemm_##tag(int64_t batch, int64_t m, int64_t n, int64_t k, const T *a,            \
                       int64_t a_batch_stride, int64_t a_row_stride, int64_t a_col_stride,    \
                       const T *b, int64_t b_batch_stride, int64_t b_row_stride,              \
                       int64_t b_col_stride, T *c, int64_t c_batch_stride,                    \
                       int64_t c_row_stride);
TP_FOR_INTEGERS(TP_DECLARE_GEMM)
TP_FOR_FLOATS(TP_DECLARE_GEMM)
TP_FOR_COMPLEX(TP_DECLARE_GEMM)

/* tp_sort.h: each of `rows` rows of n, stably, into values or indices (either may be NULL). */
#define TP_DECLARE_SORT(tag, T)                                                               \
    void tp_sort_##tag(const T *in, T *values, int64_t *indices, int64_t *scratch,            \
                       int64_t rows, int64_t n);
TP_DECLARE_SORT(b, bool)
TP_FOR_INTEGERS(TP_DECLARE_SORT)
TP_FOR_FLOATS(TP_DECLARE_SORT)

/* tp_linalg.h and tp_spectral.h: batches of row-major matrices. */
#define TP_DECLARE_FACTORIZATIONS(tag, T)                                                     \
    void tp_solve_##tag(const T *a, const T *b, T *x, T *work, int64_t *piv, int64_t batch,   \
                        int64_t n, int64_t n2, int64_t k);                                    \
    void tp_det_##tag(const T *a, T *det, T *work, int64_t *piv, int64_t batch, int64_t n,    \
                      int64_t n2);                                                            \
    void tp_slogdet_##tag(const T *a, T *out, T *work, int64_t *piv, int64_t batch,           \
                          int64_t n, int64_t n2);                                             \
    void tp_cholesky_##tag(const T *a, T *l, int64_t batch, int64_t n, int64_t n2);           \
    void tp_qr_r_##tag(const T *a, T *r, T *work, int64_t batch, int64_t m, int64_t n,        \
                       int64_t complete);                                                     \
    void tp_qr_q_##tag(const T *a, T *q, T *work, int64_t batch, int64_t m, int64_t n,        \
                       int64_t complete);                                                     \
    void tp_eigh_##tag(const T *a, T *out, T *work, int64_t batch, int64_t n, int64_t n2);    \
    void tp_svd_##tag(const T *a, T *out, T *work, int64_t batch, int64_t m, int64_t n,       \
                      int64_t full, int64_t compute_uv);
TP_FOR_FLOATS(TP_DECLARE_FACTORIZATIONS)

/* tp_scatter.h: out[idx[i]] = combine(out[idx[i]], upd[i]), in order. */
#define TP_DECLARE_SCATTER(mode, tag, T)                                                      \
    void tp_scatter_##mode##_##tag(const int64_t *idx, const T *upd, T *out, int64_t count,   \
                                   int64_t size);
#define TP_DECLARE_SCATTERS(tag, T)                                                           \
    TP_DECLARE_SCATTER(set, tag, T) TP_DECLARE_SCATTER(add, tag, T)                           \
    TP_DECLARE_SCATTER(mul, tag, T) TP_DECLARE_SCATTER(min, tag, T)                           \
    TP_DECLARE_SCATTER(max, tag, T)
#define TP_DECLARE_COMPLEX_SCATTERS(tag, T)  /* complex numbers have no min or max */         \
    TP_DECLARE_SCATTER(set, tag, T) TP_DECLARE_SCATTER(add, tag, T)                           \
    TP_DECLARE_SCATTER(mul, tag, T)
TP_DECLARE_SCATTERS(b, bool)
TP_FOR_INTEGERS(TP_DECLARE_SCATTERS)
TP_FOR_FLOATS(TP_DECLARE_SCATTERS)
TP_FOR_COMPLEX(TP_DECLARE_COMPLEX_SCATTERS)

/* tp_fft.h: the middle axis of (outer, n, inner) arrays; scale 0 none, 1 1/n, 2 1/sqrt(n). */
#define TP_DECLARE_FFT(ctag, T, C)                                                            \
    void tp_fft_c2c_##ctag(const C *in, C *out, int64_t outer, int64_t n, int64_t inner,      \
                           int64_t inverse, int64_t scale);                                   \
    void tp_fft_r2c_##ctag(const T *in, C *out, int64_t outer, int64_t n, int64_t inner,      \
                           int64_t scale);                                                    \
    void tp_fft_c2r_##ctag(const C *in, T *out, int64_t outer, int64_t n, int64_t inner,      \
                           int64_t scale);
TP_DECLARE_FFT(c64, float, tp_c64)
TP_DECLARE_FFT(c128, double, tp_c128)

/* tp_conv.h: channels-last direct convolution over three spatial axes. */
#define TP_DECLARE_CONV(tag, T)                                                               \
    void tp_conv_##tag(const T *lhs, const T *rhs, T *out, int64_t N, int64_t D, int64_t H,   \
                       int64_t W, int64_t C, int64_t KD, int64_t KH, int64_t KW, int64_t I,   \
                       int64_t O, int64_t OD, int64_t OH, int64_t OW, int64_t SD, int64_t SH, \
                       int64_t SW, int64_t PD, int64_t PH, int64_t PW, int64_t LD,            \
                       int64_t LH, int64_t LW, int64_t RD, int64_t RH, int64_t RW,            \
                       int64_t groups);
TP_FOR_FLOATS(TP_DECLARE_CONV)

/* tp_elementwise.h: one scalar function over contiguous arrays (the first-call executor's;
 * modules never call them). */
/* (operation, its float32 spelling, its float64 spelling), as c_ops.OP_RULES renders them */
#define TP_UNARY_MAPS(X)                                                                      \
    X(exp, tp_expf, tp_exp) X(tanh, tp_tanh_f32, tp_tanh_f64) X(exp2, exp2f, exp2)          \
    X(expm1, expm1f, expm1) X(log, logf, log) X(log2, log2f, log2) X(log10, log10f, log10)  \
    X(log1p, log1pf, log1p) X(sin, sinf, sin) X(cos, cosf, cos) X(tan, tanf, tan)           \
    X(asin, asinf, asin) X(acos, acosf, acos) X(atan, atanf, atan) X(sinh, sinhf, sinh)     \
    X(cosh, coshf, cosh) X(asinh, asinhf, asinh) X(acosh, acoshf, acosh)                    \
    X(atanh, atanhf, atanh) X(cbrt, cbrtf, cbrt) X(erf, erff, erf) X(erfc, erfcf, erfc)
#define TP_BINARY_MAPS(X)                                                                     \
    X(atan2, atan2f, atan2) X(pow, powf, pow) X(hypot, hypotf, hypot)

#define TP_DECLARE_MAP1(op, f32_call, f64_call)                                               \
    void tp_map_##op##_f32(const float *x, float *y, int64_t n);                              \
    void tp_map_##op##_f64(const double *x, double *y, int64_t n);
#define TP_DECLARE_MAP2(op, f32_call, f64_call)                                               \
    void tp_map_##op##_f32(const float *x, const float *z, float *y, int64_t n);              \
    void tp_map_##op##_f64(const double *x, const double *z, double *y, int64_t n);
TP_UNARY_MAPS(TP_DECLARE_MAP1)
TP_BINARY_MAPS(TP_DECLARE_MAP2)

#endif /* TRANSPILE_RUNTIME_LIBRARY_H */
