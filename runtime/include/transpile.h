/* transpile runtime header: scalar helpers with NumPy's semantics and no undefined behaviour.
 *
 * Every helper here exists because the plain C operator is either undefined for some inputs
 * (signed overflow, division by zero, oversized shifts, out-of-range float->int casts) or
 * rounds/propagates differently from NumPy (floor division, modulo, NaN in max/min).
 * Integer arithmetic is done in unsigned types, where wrap-around is defined.
 */
#ifndef TRANSPILE_RUNTIME_H
#define TRANSPILE_RUNTIME_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* TP_DEVICE qualifies the scalar helpers: empty for C, `__host__ __device__` when the CUDA
 * prelude (tp_cuda.h) includes this header, so device code calls the very same helpers. */
#ifndef TP_DEVICE
#define TP_DEVICE
#endif
#define TP_INLINE static inline __attribute__((always_inline, unused)) TP_DEVICE

/* ---- integer floor division and modulo (Python/NumPy signs; x / 0 == 0, x % 0 == 0) ---- */
#define TP_SIGNED_DIVMOD(tag, T, U)                                                      \
    TP_INLINE T tp_floor_div_##tag(T a, T b) {                                                \
        if (b == 0) return 0;                                                                 \
        if (b == -1) return (T)(0u - (U)a); /* MIN / -1 wraps to MIN, as in NumPy */          \
        T q = (T)(a / b);                                                                     \
        return (T)(((a % b) != 0 && ((a < 0) != (b < 0))) ? q - 1 : q);                       \
    }                                                                                         \
    TP_INLINE T tp_rem_##tag(T a, T b) {                                                      \
        if (b == 0 || b == -1) return 0;                                                      \
        T r = (T)(a % b);                                                                     \
        return (T)((r != 0 && ((r < 0) != (b < 0))) ? r + b : r);                             \
    }
#define TP_UNSIGNED_DIVMOD(tag, T)                                                            \
    TP_INLINE T tp_floor_div_##tag(T a, T b) { return b == 0 ? 0 : (T)(a / b); }              \
    TP_INLINE T tp_rem_##tag(T a, T b) { return b == 0 ? 0 : (T)(a % b); }

TP_SIGNED_DIVMOD(i8, int8_t, uint32_t)
TP_SIGNED_DIVMOD(i16, int16_t, uint32_t)
TP_SIGNED_DIVMOD(i32, int32_t, uint32_t)
TP_SIGNED_DIVMOD(i64, int64_t, uint64_t)
TP_UNSIGNED_DIVMOD(u8, uint8_t)
TP_UNSIGNED_DIVMOD(u16, uint16_t)
TP_UNSIGNED_DIVMOD(u32, uint32_t)
TP_UNSIGNED_DIVMOD(u64, uint64_t)

/* ---- exact fmod without glibc's bit-by-bit loop where the quotient is small ----
 * With q = trunc(a / b) below 2^29 (float, computed in double) or 2^52 (double, with FMA),
 * a - q*b is exactly representable and computed exactly: q*b fits a double's 53 bits for a
 * float b, and an FMA rounds the double case once, exactly. The rounded quotient can only
 * overshoot the true one by one (when a / b lies just below an integer), which leaves the
 * result on the wrong side of zero by exactly |b|: adding b back is exact too. Huge
 * quotients, infinities, NaN and b == 0 go to libm. The sign of a zero result is not
 * fmod's: the callers below replace every zero by one signed like b, or ignore its sign.
 * CUDA devices keep their own fmod, which is fast there. */
TP_INLINE float tp_fmod_f32(float a, float b) {
#ifndef __CUDA_ARCH__
    double q = trunc((double)a / (double)b);
    if (fabs(q) < 0x1p29 && isfinite(b)) {
        double mod = (double)a - q * (double)b;
        if (mod != 0 && ((mod < 0) != (a < 0))) mod += copysign((double)b, (double)a);
        return (float)mod;
    }
#endif
    return fmodf(a, b);
}
TP_INLINE double tp_fmod_f64(double a, double b) {
#if defined(__FMA__) && !defined(__CUDA_ARCH__)
    double q = trunc(a / b);
    if (fabs(q) < 0x1p52 && isfinite(b)) {
        double mod = fma(-q, b, a);
        if (mod != 0 && ((mod < 0) != (a < 0))) mod += copysign(b, a);
        return mod;
    }
#endif
    return fmod(a, b);
}

/* ---- float floor division and modulo: NumPy's npy_divmod ---- */
#define TP_FLOAT_DIVMOD(tag, T, SFX)                                                          \
    TP_INLINE T tp_rem_##tag(T a, T b) {                                                      \
        T mod = tp_fmod_##tag(a, b);                                                          \
        if (mod != 0) { if ((b < 0) != (mod < 0)) mod += b; }                                 \
        else mod = copysign##SFX((T)0, b);                                                    \
        return mod;                                                                           \
    }                                                                                         \
    TP_INLINE T tp_floor_div_##tag(T a, T b) {                                                \
        if (b == 0) return a / b;                                                             \
        T mod = tp_fmod_##tag(a, b);                                                          \
        T div = (a - mod) / b;                                                                \
        if (mod != 0 && ((b < 0) != (mod < 0))) div -= (T)1;                                  \
        T floordiv;                                                                           \
        if (div != 0) {                                                                       \
            floordiv = floor##SFX(div);                                                       \
            if (div - floordiv > (T)0.5) floordiv += (T)1;                                    \
        } else {                                                                              \
            floordiv = copysign##SFX((T)0, a / b);                                            \
        }                                                                                     \
        return floordiv;                                                                      \
    }
TP_FLOAT_DIVMOD(f32, float, f)
TP_FLOAT_DIVMOD(f64, double, )

/* ---- integer power by squaring, wrapping; negative exponents as in JAX ---- */
#define TP_POW(tag, T, U, SIGNED)                                                             \
    TP_INLINE T tp_pow_##tag(T base, T exp) {                                                 \
        if (SIGNED && exp < 0)                                                                \
            return (T)(base == 1 ? 1 : (SIGNED && base == (T)-1) ? ((exp & 1) ? -1 : 1) : 0); \
        U result = 1, b = (U)base;                                                            \
        for (U e = (U)exp; e != 0; e >>= 1) {                                                 \
            if (e & 1) result *= b;                                                           \
            b *= b;                                                                           \
        }                                                                                     \
        return (T)result;                                                                     \
    }
TP_POW(i8, int8_t, uint32_t, 1)
TP_POW(i16, int16_t, uint32_t, 1)
TP_POW(i32, int32_t, uint32_t, 1)
TP_POW(i64, int64_t, uint64_t, 1)
TP_POW(u8, uint8_t, uint32_t, 0)
TP_POW(u16, uint16_t, uint32_t, 0)
TP_POW(u32, uint32_t, uint32_t, 0)
TP_POW(u64, uint64_t, uint64_t, 0)

/* ---- shifts: NumPy gives 0 (or -1 for negative >>) once the shift reaches the width ---- */
#define TP_SIGNED_SHIFTS(tag, T, U, BITS)                                                     \
    TP_INLINE T tp_shift_left_##tag(T a, T b) {                                               \
        if (b < 0 || b >= BITS) return 0;                                                     \
        return (T)((U)a << b);                                                                \
    }                                                                                         \
    TP_INLINE T tp_shift_right_##tag(T a, T b) {                                              \
        if (b < 0 || b >= BITS) return (T)(a < 0 ? -1 : 0);                                   \
        if (a < 0) return (T)~(T)((U)~(U)a >> b); /* arithmetic shift, without relying on */  \
        return (T)((U)a >> b);                    /* implementation-defined behaviour */      \
    }
#define TP_UNSIGNED_SHIFTS(tag, T, U, BITS)                                                   \
    TP_INLINE T tp_shift_left_##tag(T a, T b) { return b >= BITS ? 0 : (T)((U)a << b); }      \
    TP_INLINE T tp_shift_right_##tag(T a, T b) { return b >= BITS ? 0 : (T)((U)a >> b); }
TP_SIGNED_SHIFTS(i8, int8_t, uint32_t, 8)
TP_SIGNED_SHIFTS(i16, int16_t, uint32_t, 16)
TP_SIGNED_SHIFTS(i32, int32_t, uint32_t, 32)
TP_SIGNED_SHIFTS(i64, int64_t, uint64_t, 64)
TP_UNSIGNED_SHIFTS(u8, uint8_t, uint32_t, 8)
TP_UNSIGNED_SHIFTS(u16, uint16_t, uint32_t, 16)
TP_UNSIGNED_SHIFTS(u32, uint32_t, uint32_t, 32)
TP_UNSIGNED_SHIFTS(u64, uint64_t, uint64_t, 64)

/* ---- NaN-propagating maximum/minimum (NumPy's maximum/minimum, not fmax/fmin) ----
 * Two spellings of one function, for gcc 12's vectoriser (with -fno-trapping-math):
 * tp_max/tp_min, `(a > b || a != a) ? a : b`, vectorise as reduction updates (acc, v) but
 * not elementwise, where the short-circuit stayed branches (a 2x2 max pool ran 45x slower:
 * 2.9 ms against 65 us); tp_maximum/tp_minimum test b's NaN first, on its own, which
 * vectorises elementwise (and runs reductions 2x slower). Equal results, signed zeros and
 * NaNs included. */
#define TP_FLOAT_MINMAX(tag, T)                                                               \
    TP_INLINE T tp_max_##tag(T a, T b) { return (a > b || a != a) ? a : b; }                  \
    TP_INLINE T tp_min_##tag(T a, T b) { return (a < b || a != a) ? a : b; }                  \
    TP_INLINE T tp_maximum_##tag(T a, T b) { return b != b ? b : (a > b || a != a) ? a : b; } \
    TP_INLINE T tp_minimum_##tag(T a, T b) { return b != b ? b : (a < b || a != a) ? a : b; } \
    TP_INLINE T tp_sign_##tag(T a) { return a > 0 ? (T)1 : a < 0 ? (T)-1 : a == 0 ? (T)0 : a; }
TP_FLOAT_MINMAX(f32, float)
TP_FLOAT_MINMAX(f64, double)

/* ---- log(exp(a) + exp(b)) and its base-2 twin, without overflow, as NumPy computes them:
 * equal arguments (including two infinities of one sign) short-cut, NaN propagates. ---- */
#define TP_LOGADDEXP(tag, T, LOG1P, EXP, EXP2, LN2, LOG2E)                                   \
    TP_INLINE T tp_logaddexp_##tag(T a, T b) {                                               \
        if (a == b) return a + LN2;                                                           \
        T d = a - b;                                                                          \
        if (d > 0) return a + LOG1P(EXP(-d));                                                 \
        if (d <= 0) return b + LOG1P(EXP(d));                                                 \
        return d;                                                                             \
    }                                                                                         \
    TP_INLINE T tp_logaddexp2_##tag(T a, T b) {                                              \
        if (a == b) return a + (T)1;                                                          \
        T d = a - b;                                                                          \
        if (d > 0) return a + LOG1P(EXP2(-d)) * LOG2E;                                        \
        if (d <= 0) return b + LOG1P(EXP2(d)) * LOG2E;                                        \
        return d;                                                                             \
    }
TP_LOGADDEXP(f32, float, log1pf, expf, exp2f, 0.693147180559945309417232121458176568f,
             1.442695040888963407359924681001892137f)
TP_LOGADDEXP(f64, double, log1p, exp, exp2, 0.693147180559945309417232121458176568,
             1.442695040888963407359924681001892137)

/* ---- float -> integer casts, defined for every input ----
 * C leaves NaN/inf/out-of-range conversions undefined. NumPy on x86-64 gets the hardware's
 * answer: cvttsd2si yields the "integer indefinite" value (the minimum of its 32- or 64-bit
 * destination), and narrower targets are truncated from the 32-bit result. We reproduce that.
 * Values in (-1, 1) give an explicit 0: under -fno-trapping-math gcc folds (double)(int)x into
 * trunc(x), which is -0.0 for x in (-1, 0); with that arm split off, the folded form is exact
 * (trunc(x) of any other in-range x is a nonzero integer). */
TP_INLINE int32_t tp_f64_to_i32_x86(double x) {
    if (x > -1.0 && x < 1.0) return 0;
    return (x > -2147483649.0 && x < 2147483648.0) ? (int32_t)x : INT32_MIN;
}
TP_INLINE int64_t tp_f64_to_i64_x86(double x) {
    if (x > -1.0 && x < 1.0) return 0;
    return (x >= -9223372036854775808.0 && x < 9223372036854775808.0) ? (int64_t)x : INT64_MIN;
}
TP_INLINE int8_t tp_cast_f64_i8(double x) { return (int8_t)(uint8_t)(uint32_t)tp_f64_to_i32_x86(x); }
TP_INLINE int16_t tp_cast_f64_i16(double x) { return (int16_t)(uint16_t)(uint32_t)tp_f64_to_i32_x86(x); }
TP_INLINE int32_t tp_cast_f64_i32(double x) { return tp_f64_to_i32_x86(x); }
TP_INLINE int64_t tp_cast_f64_i64(double x) { return tp_f64_to_i64_x86(x); }
TP_INLINE uint8_t tp_cast_f64_u8(double x) { return (uint8_t)(uint32_t)tp_f64_to_i32_x86(x); }
TP_INLINE uint16_t tp_cast_f64_u16(double x) { return (uint16_t)(uint32_t)tp_f64_to_i32_x86(x); }
/* Unsigned 32/64-bit targets use the usual x86 sequence: values at or above 2^(N-1) are
 * shifted down into the signed range, converted, and the top bit put back. */
TP_INLINE uint32_t tp_cast_f64_u32(double x) {
    if (x >= 2147483648.0) return (uint32_t)tp_f64_to_i32_x86(x - 2147483648.0) ^ 0x80000000u;
    return (uint32_t)tp_f64_to_i32_x86(x);
}
TP_INLINE uint64_t tp_cast_f64_u64(double x) {
    if (x >= 9223372036854775808.0)
        return (uint64_t)tp_f64_to_i64_x86(x - 9223372036854775808.0) ^ UINT64_C(0x8000000000000000);
    return (uint64_t)tp_f64_to_i64_x86(x);
}

/* ---- exp for float32, branch-free so that loops calling it vectorise ----
 * exp(x) = 2^k * exp(r) with k = round(x / ln 2) and |r| <= ln(2)/2. ln 2 is split in a
 * 9-bit head (k * head is exact) and a tail, so r is accurate to a few ulp. exp(r) is a
 * degree-7 Taylor polynomial (truncation error 5e-9 relative, below float resolution).
 * 2^k is applied as two normal-range factors so that results in the subnormal range are
 * rounded only once. Out-of-range inputs and NaN are resolved by the final selects. */
TP_INLINE float tp_expf(float x) {
    const float xc = x != x ? 0.0f : (x < -104.0f ? -104.0f : (x > 89.0f ? 89.0f : x));
    const float shifter = 12582912.0f; /* 1.5 * 2^23: adding it rounds to an integer */
    const float k = (xc * 1.44269502f + shifter) - shifter;
    const float r = (xc - k * 0.693359375f) - k * -2.12194440e-4f;
    float p = 1.0f / 5040.0f;
    p = p * r + 1.0f / 720.0f;
    p = p * r + 1.0f / 120.0f;
    p = p * r + 1.0f / 24.0f;
    p = p * r + 1.0f / 6.0f;
    p = p * r + 0.5f;
    p = p * r + 1.0f;
    p = p * r + 1.0f;
    const int32_t ki = (int32_t)k;          /* |k| <= 151, so the conversion is exact */
    const int32_t k1 = ki / 2, k2 = ki - k1;
    const uint32_t b1 = (uint32_t)(k1 + 127) << 23, b2 = (uint32_t)(k2 + 127) << 23;
    float s1, s2;
    memcpy(&s1, &b1, sizeof s1);
    memcpy(&s2, &b2, sizeof s2);
    const float result = (p * s1) * s2;
    return x != x ? x : (x > 88.72283935546875f ? INFINITY : (x < -103.97208404541016f ? 0.0f : result));
}

/* ---- exp for float64, branch-free so that loops calling it vectorise (libm's exp is a
 * scalar call; NumPy uses a SIMD kernel) ----
 * exp(x) = 2^k * exp(r), k = round(x / ln 2), |r| <= ln(2)/2 + tiny. k comes from the
 * "shifter" trick: adding 1.5 * 2^52 rounds x / ln 2 to an integer, which is then read both
 * as a double and (no float->int conversion, which AVX2 lacks for 64-bit) from the low bits of
 * the sum. ln 2 is split in a 32-bit head (k * head and x - k * head are exact, as in fdlibm)
 * and a tail; `c` is the rounding error of r = head_part - tail_part (Fast2Sum), added back
 * so that the reduction loses nothing. exp(r) = 1 + r + r^2 P(r), P a degree-10 polynomial
 * fitted at Chebyshev nodes (mpmath.chebyfit on [-0.347, 0.347]; its error times r^2 is below
 * 2^-61, with the coefficients rounded to double); the one rounding that matters is the final
 * 1 + q, so the result is within about 0.55 ulp of exp(x): at most one ulp from the correctly
 * rounded value. 2^k is applied as two normal factors (p * s1 is exact), so results in the
 * subnormal range are rounded once more only. Above ln(DBL_MAX) the result is inf, below
 * -746 (and at -inf) 0, and NaN propagates through the arithmetic. */
/* a * b + c: one fused instruction where the CPU has one (one rounding, more accurate than
 * two), else the two operations (never a libm call, which would not vectorise). A GPU has
 * one, so the CUDA emulation (TP_CUDA_EMULATE) computes as the device does. */
#if defined(__FMA__) || defined(__CUDACC__) || defined(TP_CUDA_EMULATE)
#define TP_FMA(a, b, c) fma((a), (b), (c))
#else
#define TP_FMA(a, b, c) ((a) * (b) + (c))
#endif
/* exp(r) = 1 + r + r^2 p(r) for the reduced argument |r| <= ln 2 / 2 of tp_exp (tp_tanh.h's
 * float64 tanh reduces the same way and shares it). */
TP_INLINE double tp_exp_poly(double r) {
    double p = 2.0914679595617734e-09;
    p = TP_FMA(p, r, 2.510520668068106e-08);
    p = TP_FMA(p, r, 2.7557273660822466e-07);
    p = TP_FMA(p, r, 2.7557255425009614e-06);
    p = TP_FMA(p, r, 2.480158732553378e-05);
    p = TP_FMA(p, r, 0.00019841269874801073);
    p = TP_FMA(p, r, 0.0013888888888883752);
    p = TP_FMA(p, r, 0.008333333333326141);
    p = TP_FMA(p, r, 0.04166666666666667);
    p = TP_FMA(p, r, 0.1666666666666667);
    p = TP_FMA(p, r, 0.5);
    return p;
}
TP_INLINE double tp_exp(double x) {
    /* No clamp (gcc turns one into many masked moves): outside [-746, 709.78] the result is
     * selected at the end, and whatever bits k has there only meet unsigned arithmetic. */
    const double shifter = 6755399441055744.0;          /* 1.5 * 2^52, bits 0x4338000000000000 */
    const double kd = x * 1.4426950408889634 + shifter;
    const double k = kd - shifter;                      /* exact: |k| <= 1077 in range */
    uint64_t kbits;
    memcpy(&kbits, &kd, sizeof kbits);
    const uint64_t ku = kbits - UINT64_C(0x4338000000000000) + 2048u;   /* k + 2048 */
    const double head = x - k * 0.6931471803691238;    /* 0x1.62e42feep-1: exact */
    const double tail = k * 1.9082149292705877e-10;     /* ln 2 - head */
    const double r = head - tail;
    const double c = (head - r) - tail;                 /* r + c == head - tail */
    const double p = tp_exp_poly(r);
    const double e = 1.0 + (r + TP_FMA(r * r, p, c));
    /* k1 = floor(k / 2) and k2 = k - k1, both in [-539, 512]: biased exponents of 2^k1, 2^k2 */
    const uint64_t k1_biased = (ku >> 1) - 1024u + 1023u;
    const uint64_t k2_biased = ku - 2048u - ((ku >> 1) - 1024u) + 1023u;
    const uint64_t b1 = k1_biased << 52, b2 = k2_biased << 52;
    double s1, s2;
    memcpy(&s1, &b1, sizeof s1);
    memcpy(&s2, &b2, sizeof s2);
    const double result = (e * s1) * s2;   /* below -745.13...: rounds to 0 */
    return x > 709.782712893383973096 ? INFINITY : (x < -746.0 ? 0.0 : result);   /* NaN: NaN */
}


/* Complex scalars (tp_c64, tp_c128) live in tp_complex.h, included by programs that use them. */
/* Matrix products live in tp_gemm.h, which a program includes only when it has one (the
 * vector intrinsics headers are slow to parse). */

#endif /* TRANSPILE_RUNTIME_H */
