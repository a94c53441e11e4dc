/* transpile runtime header: float16 and bfloat16 as 16-bit patterns.
 *
 * Neither C nor every CUDA compiler has a portable 16-bit float type, and none is needed: the
 * generated code only stores, copies and converts 16-bit values (transpile/passes/half_float.py
 * moves every computation to float32, as NumPy and JAX on CPUs do). A value is its IEEE
 * binary16 (float16) or bfloat16 bit pattern in a uint16_t; the conversions below are exact
 * widenings and correctly rounded narrowings (to nearest, ties to even, subnormals kept,
 * overflow to infinity), written with integer operations only so that no compiler flag or
 * floating-point mode can change them. NaNs keep their sign and the payload's top bits, as
 * NumPy's npy_floatbits_to_halfbits keeps them; bfloat16 NaNs are ml_dtypes' quiet NaN.
 * Requires transpile.h (TP_INLINE, <stdint.h>, <string.h>).
 */
#ifndef TP_HALF_H
#define TP_HALF_H

#ifndef TP_HALF_TYPES          /* also in exported headers (transpile/export.py) */
#define TP_HALF_TYPES
typedef uint16_t tp_f16;   /* float16: its IEEE binary16 bit pattern */
typedef uint16_t tp_bf16;  /* bfloat16: the top 16 bits of a float32 */
#endif

TP_INLINE uint32_t tp_half_f32_bits(float f) { uint32_t x; memcpy(&x, &f, 4); return x; }
TP_INLINE float tp_half_bits_f32(uint32_t x) { float f; memcpy(&f, &x, 4); return f; }

/* Shift `m` right by `shift` (1..63) rounding to nearest, ties to even. */
TP_INLINE uint64_t tp_half_shift_rne(uint64_t m, unsigned shift) {
    uint64_t r = m >> shift, rest = m & ((UINT64_C(1) << shift) - 1);
    uint64_t half = UINT64_C(1) << (shift - 1);
    return r + (rest > half || (rest == half && (r & 1)));
}

/* ---- float16 ----
 * Where the CPU converts in hardware (x86's F16C, which -march=native enables where present),
 * the two float32 conversions are its instructions: the same correctly rounded results
 * (rounding given in the instruction, not read from MXCSR), at a few cycles each where the
 * integer version below costs a dozen branches. CUDA device code and other CPUs use the
 * integer version. */
#if defined(__F16C__) && !defined(__CUDACC__)
#include <immintrin.h>
TP_INLINE float tp_f16_to_f32(tp_f16 h) { return _cvtsh_ss(h); }
TP_INLINE tp_f16 tp_f32_to_f16(float f) {
    return (tp_f16)_cvtss_sh(f, _MM_FROUND_TO_NEAREST_INT);
}
#define TP_HALF_F16C 1
#endif

/* A finite magnitude `absx` with `frac` fraction bits and exponent bias `bias` (its sign
 * already split off), rounded to float16 bits. */
TP_INLINE tp_f16 tp_half_round_f16(uint64_t absx, unsigned frac, int bias) {
    int e = (int)(absx >> frac) - bias;                  /* unbiased exponent */
    uint64_t m = absx & ((UINT64_C(1) << frac) - 1);
    if (e >= 16) return 0x7c00u;                          /* far past 65504: infinity */
    if (e < -25) return 0;                                /* below half the least subnormal */
    m |= UINT64_C(1) << frac;                             /* the implicit bit */
    if (e < -14)                                          /* subnormal: units of 2^-24 */
        return (tp_f16)tp_half_shift_rne(m, (unsigned)(frac - 24 - e));
    /* normal: 10 fraction bits; a carry out of the fraction bumps the exponent, up to inf */
    uint64_t r = tp_half_shift_rne(m, frac - 10) - (UINT64_C(1) << 10);
    return (tp_f16)((uint64_t)(e + 15) << 10) + (tp_f16)r;
}

#ifndef TP_HALF_F16C
TP_INLINE float tp_f16_to_f32(tp_f16 h) {
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16, e = (h >> 10) & 0x1fu, m = h & 0x3ffu;
    if (e == 0x1f) return tp_half_bits_f32(sign | 0x7f800000u | (m << 13));
    if (e == 0) {               /* zero or subnormal: m * 2^-24, exact in float32 */
        float v = (float)m * 5.9604644775390625e-8f;
        return sign ? -v : v;
    }
    return tp_half_bits_f32(sign | ((e + 112u) << 23) | (m << 13));
}

TP_INLINE tp_f16 tp_f32_to_f16(float f) {
    uint32_t x = tp_half_f32_bits(f), sign = (x >> 16) & 0x8000u, absx = x & 0x7fffffffu;
    if (absx >= 0x7f800000u) {                            /* infinity or NaN */
        uint32_t payload = (absx & 0x7fffffu) >> 13;
        if (absx > 0x7f800000u && payload == 0) payload = 1;
        return (tp_f16)(sign | 0x7c00u | payload);
    }
    if (absx == 0) return (tp_f16)sign;
    return (tp_f16)(sign | tp_half_round_f16(absx, 23, 127));
}
#endif

/* Straight from float64, never through float32 (which could round twice): NumPy's cast. */
TP_INLINE tp_f16 tp_f64_to_f16(double d) {
    uint64_t x;
    memcpy(&x, &d, 8);
    uint32_t sign = (uint32_t)(x >> 48) & 0x8000u;
    uint64_t absx = x & UINT64_C(0x7fffffffffffffff);
    if (absx >= UINT64_C(0x7ff0000000000000)) {
        uint32_t payload = (uint32_t)((absx & UINT64_C(0xfffffffffffff)) >> 42);
        if (absx > UINT64_C(0x7ff0000000000000) && payload == 0) payload = 1;
        return (tp_f16)(sign | 0x7c00u | payload);
    }
    if (absx == 0) return (tp_f16)sign;
    return (tp_f16)(sign | tp_half_round_f16(absx, 52, 1023));
}

/* ---- bfloat16: the top half of a float32 ---- */
TP_INLINE float tp_bf16_to_f32(tp_bf16 h) { return tp_half_bits_f32((uint32_t)h << 16); }

TP_INLINE tp_bf16 tp_f32_to_bf16(float f) {
    uint32_t x = tp_half_f32_bits(f);
    if ((x & 0x7fffffffu) > 0x7f800000u) return (tp_bf16)((x >> 16) & 0x8000u) | 0x7fc0u;
    /* adding 0x7fff (+1 when the kept part is odd) carries exactly when rounding goes up */
    return (tp_bf16)((x + 0x7fffu + ((x >> 16) & 1u)) >> 16);
}

#endif
