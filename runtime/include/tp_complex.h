/* tp_complex.h: complex64/complex128 scalars with NumPy 2's results, for C and CUDA code.
 *
 * The types are plain structs laid out as NumPy's (real part, then imaginary part), so a
 * buffer of them is a NumPy complex array. We do not use C's `_Complex` arithmetic: gcc's
 * multiply and divide call __muldc3/__divdc3, whose inf/NaN recovery differs from NumPy's,
 * and C++ (the CUDA dialect) has no `_Complex` at all. Every operation is an explicit helper,
 * qualified TP_DEVICE like transpile.h's, so CUDA device code calls the same ones.
 *
 * What each helper reproduces (NumPy 2 on x86-64):
 *   add, sub, neg, conj     componentwise.
 *   mul                     NumPy's SIMD loop: (fma(ar, br, -(ai*bi)), fma(ar, bi, ai*br)).
 *   div                     Smith's algorithm exactly as NumPy's loop (division by 0+0j gives
 *                           the componentwise a/|br|).
 *   reciprocal              NumPy's loop (1 / a by Smith's method, its own formula).
 *   abs                     NumPy's SIMD loop: larger * sqrt(fma(ratio, ratio, 1)) with
 *                           inf winning over NaN.
 *   exp, log, sqrt, pow     C: the C library's cexp/clog/csqrt/cpow, which NumPy calls too
 *                           (C99 Annex G branch cuts and special values); pow first takes
 *                           NumPy's integer-exponent path (repeated plain products).
 *                           CUDA / C++: own versions with Annex G's special values, accurate
 *                           to a few ulp (log near |z| = 1 from |z|^2 - 1 computed exactly
 *                           with fma; log and sqrt rescaled where |z| would overflow).
 *   sin, cos, tan, asin, acos, atan, their hyperbolic forms
 *                           C: the C library's (csin...), as NumPy. CUDA / C++: formulas on
 *                           the parts (see TP_COMPLEX_OWN_TRIG), less exact at extremes.
 *   log1p, expm1, exp2, log2, log10   NumPy's own formulas on top of the above.
 *   eq, ne, isnan, isinf, isfinite   as NumPy: both parts equal; either part NaN/inf.
 *   lt, le, gt, ge, max, min         NumPy's lexicographic order (TP_COMPLEX_ORDER).
 *
 * gcc 12 vectorising a loop of divisions with -march=native paired the real part's "mul, add"
 * with the imaginary part's "mul, sub" into one fused vfmsubadd instruction even under
 * -ffp-contract=off, changing last bits of Smith's division (and of plain products).
 * tp_unfused hands a product to an empty asm statement, so no instruction can fuse it with
 * the addition that follows.
 */
#ifndef TRANSPILE_COMPLEX_H
#define TRANSPILE_COMPLEX_H

#include <float.h>
#include <math.h>
#include <stdbool.h>

#ifndef TP_DEVICE
#define TP_DEVICE
#endif
#ifndef TP_INLINE
#define TP_INLINE static inline __attribute__((always_inline, unused)) TP_DEVICE
#endif

typedef struct { float re, im; } tp_c64;
typedef struct { double re, im; } tp_c128;

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__CUDA_ARCH__)
TP_INLINE float tp_unfused_c64(float x) { __asm__("" : "+x"(x)); return x; }
TP_INLINE double tp_unfused_c128(double x) { __asm__("" : "+x"(x)); return x; }
#else
TP_INLINE float tp_unfused_c64(float x) { return x; }
TP_INLINE double tp_unfused_c128(double x) { return x; }
#endif

#define TP_COMPLEX_ARITHMETIC(tag, C, T, SFX)                                                 \
    TP_INLINE C tp_make_##tag(T re, T im) { C z; z.re = re; z.im = im; return z; }            \
    TP_INLINE C tp_add_##tag(C a, C b) { return tp_make_##tag(a.re + b.re, a.im + b.im); }    \
    TP_INLINE C tp_sub_##tag(C a, C b) { return tp_make_##tag(a.re - b.re, a.im - b.im); }    \
    TP_INLINE C tp_neg_##tag(C a) { return tp_make_##tag(-a.re, -a.im); }                     \
    TP_INLINE C tp_conj_##tag(C a) { return tp_make_##tag(a.re, -a.im); }                     \
    TP_INLINE C tp_mul_##tag(C a, C b) {                                                      \
        return tp_make_##tag(fma##SFX(a.re, b.re, -(a.im * b.im)),                            \
                             fma##SFX(a.re, b.im, a.im * b.re));                              \
    }                                                                                         \
    /* The plain product, as NumPy's scalar code (pow's repeated squaring) computes it. */   \
    TP_INLINE C tp_mul_plain_##tag(C a, C b) {                                                \
        return tp_make_##tag(tp_unfused_##tag(a.re * b.re) - tp_unfused_##tag(a.im * b.im),   \
                             tp_unfused_##tag(a.re * b.im) + tp_unfused_##tag(a.im * b.re));  \
    }                                                                                         \
    TP_INLINE C tp_div_##tag(C a, C b) {                                                      \
        const T br_abs = fabs##SFX(b.re), bi_abs = fabs##SFX(b.im);                           \
        if (br_abs >= bi_abs) {                                                               \
            if (br_abs == 0 && bi_abs == 0)   /* a complex inf or NaN, as NumPy */            \
                return tp_make_##tag(a.re / br_abs, a.im / br_abs);                           \
            const T rat = b.im / b.re, scl = (T)1 / (b.re + tp_unfused_##tag(b.im * rat));    \
            const T re_rat = tp_unfused_##tag(a.re * rat), im_rat = tp_unfused_##tag(a.im * rat); \
            return tp_make_##tag((a.re + im_rat) * scl, (a.im - re_rat) * scl);               \
        }                                                                                     \
        const T rat = b.re / b.im, scl = (T)1 / (b.im + tp_unfused_##tag(b.re * rat));        \
        const T re_rat = tp_unfused_##tag(a.re * rat), im_rat = tp_unfused_##tag(a.im * rat); \
        return tp_make_##tag((re_rat + a.im) * scl, (im_rat - a.re) * scl);                   \
    }                                                                                         \
    /* NumPy's reciprocal loop: a Smith-style quotient of 1 by a. */                         \
    TP_INLINE C tp_reciprocal_##tag(C a) {                                                    \
        if (fabs##SFX(a.im) <= fabs##SFX(a.re)) {                                             \
            const T r = a.im / a.re, d = a.re + tp_unfused_##tag(a.im * r);                   \
            return tp_make_##tag((T)1 / d, -r / d);                                           \
        }                                                                                     \
        const T r = a.re / a.im, d = tp_unfused_##tag(a.re * r) + a.im;                       \
        return tp_make_##tag(r / d, (T)-1 / d);                                               \
    }                                                                                         \
    TP_INLINE T tp_abs_##tag(C a) {                                                           \
        T re = fabs##SFX(a.re), im = fabs##SFX(a.im);                                         \
        if (re == (T)INFINITY || im == (T)INFINITY) return (T)INFINITY;                       \
        if (re != re || im != im) return (T)NAN;                                              \
        const T larger = re > im ? re : im, smaller = re > im ? im : re;                      \
        const T ratio = larger == 0 ? (T)0 : smaller / larger;                                \
        return sqrt##SFX(fma##SFX(ratio, ratio, (T)1)) * larger;                              \
    }                                                                                         \
    /* NumPy's rint of a complex number rounds each part to the nearest even integer. */    \
    TP_INLINE C tp_rint_##tag(C a) { return tp_make_##tag(rint##SFX(a.re), rint##SFX(a.im)); } \
    /* NumPy 2's sign: z / |z|, 0 at 0; an infinite part alone gives its direction, two    \
     * infinite parts or a NaN give NaN. */                                                   \
    TP_INLINE C tp_sign_##tag(C a) {                                                          \
        const T r = hypot##SFX(a.re, a.im), one = 1;    /* NumPy divides by hypot */           \
        if (r != r || (isinf(a.re) && isinf(a.im))) return tp_make_##tag((T)NAN, (T)NAN);    \
        if (isinf(a.re)) return tp_make_##tag(a.re > 0 ? one : -one, 0);                      \
        if (isinf(a.im)) return tp_make_##tag(0, a.im > 0 ? one : -one);                      \
        if (r == 0) return tp_make_##tag(0, 0);                                               \
        return tp_make_##tag(a.re / r, a.im / r);                                             \
    }                                                                                         \
    TP_INLINE bool tp_eq_##tag(C a, C b) { return a.re == b.re && a.im == b.im; }             \
    TP_INLINE bool tp_ne_##tag(C a, C b) { return a.re != b.re || a.im != b.im; }             \
    TP_INLINE bool tp_isnan_##tag(C a) { return isnan(a.re) || isnan(a.im); }                 \
    TP_INLINE bool tp_isinf_##tag(C a) { return isinf(a.re) || isinf(a.im); }                 \
    TP_INLINE bool tp_isfinite_##tag(C a) { return isfinite(a.re) && isfinite(a.im); }        \
    TP_COMPLEX_ORDER(tag, C)

/* NumPy's lexicographic order: the real parts decide unless equal, an imaginary NaN makes a
 * strict real-part decision false; maximum/minimum keep `a` when it holds a NaN or wins the
 * (non-strict) comparison, so the first NaN propagates. */
#define TP_COMPLEX_ORDER(tag, C)                                                              \
    TP_INLINE bool tp_lt_##tag(C a, C b) {                                                    \
        return (a.re < b.re && !isnan(a.im) && !isnan(b.im)) || (a.re == b.re && a.im < b.im); \
    }                                                                                         \
    TP_INLINE bool tp_le_##tag(C a, C b) {                                                    \
        return (a.re < b.re && !isnan(a.im) && !isnan(b.im)) ||                               \
               (a.re == b.re && a.im <= b.im);                                                \
    }                                                                                         \
    TP_INLINE bool tp_gt_##tag(C a, C b) { return tp_lt_##tag(b, a); }                        \
    TP_INLINE bool tp_ge_##tag(C a, C b) { return tp_le_##tag(b, a); }                        \
    TP_INLINE C tp_max_##tag(C a, C b) {                                                      \
        return tp_isnan_##tag(a) || tp_ge_##tag(a, b) ? a : b;                                \
    }                                                                                         \
    TP_INLINE C tp_min_##tag(C a, C b) {                                                      \
        return tp_isnan_##tag(a) || tp_le_##tag(a, b) ? a : b;                                \
    }                                                                                         \
    /* fmax/fmin ignore a NaN: `a` unless it loses the comparison to a number. */            \
    TP_INLINE C tp_fmax_##tag(C a, C b) {                                                     \
        return tp_ge_##tag(a, b) || tp_isnan_##tag(b) ? a : b;                                \
    }                                                                                         \
    TP_INLINE C tp_fmin_##tag(C a, C b) {                                                     \
        return tp_le_##tag(a, b) || tp_isnan_##tag(b) ? a : b;                                \
    }

TP_COMPLEX_ARITHMETIC(c64, tp_c64, float, f)
TP_COMPLEX_ARITHMETIC(c128, tp_c128, double, )

#if !defined(__cplusplus)
/* ---- C: the C library's functions, through gcc's builtins (no <complex.h>, whose `I`
 * and `complex` macros would leak into generated code). __builtin_complex builds the value
 * from its parts without arithmetic, so inf and NaN parts stay as they are. ---- */
#define TP_COMPLEX_LIBM(tag, C, T, SFX)                                                       \
    TP_INLINE T _Complex tp_to_native_##tag(C a) { return __builtin_complex(a.re, a.im); }   \
    TP_INLINE C tp_from_native_##tag(T _Complex z) {                                          \
        return tp_make_##tag(__real__ z, __imag__ z);                                         \
    }                                                                                         \
    TP_INLINE C tp_exp_##tag(C a) {                                                           \
        return tp_from_native_##tag(__builtin_cexp##SFX(tp_to_native_##tag(a)));              \
    }                                                                                         \
    TP_INLINE C tp_log_##tag(C a) {                                                           \
        return tp_from_native_##tag(__builtin_clog##SFX(tp_to_native_##tag(a)));              \
    }                                                                                         \
    TP_INLINE C tp_sqrt_##tag(C a) {                                                          \
        return tp_from_native_##tag(__builtin_csqrt##SFX(tp_to_native_##tag(a)));             \
    }                                                                                         \
    TP_INLINE C tp_cpow_##tag(C a, C b) {                                                     \
        return tp_from_native_##tag(__builtin_cpow##SFX(tp_to_native_##tag(a),                \
                                                        tp_to_native_##tag(b)));              \
    }                                                                                         \
    TP_COMPLEX_LIBM_UNARY(tag, C, sin, csin##SFX)                                             \
    TP_COMPLEX_LIBM_UNARY(tag, C, cos, ccos##SFX)                                             \
    TP_COMPLEX_LIBM_UNARY(tag, C, tan, ctan##SFX)                                             \
    TP_COMPLEX_LIBM_UNARY(tag, C, asin, casin##SFX)                                           \
    TP_COMPLEX_LIBM_UNARY(tag, C, acos, cacos##SFX)                                           \
    TP_COMPLEX_LIBM_UNARY(tag, C, atan, catan##SFX)                                           \
    TP_COMPLEX_LIBM_UNARY(tag, C, sinh, csinh##SFX)                                           \
    TP_COMPLEX_LIBM_UNARY(tag, C, cosh, ccosh##SFX)                                           \
    TP_COMPLEX_LIBM_UNARY(tag, C, tanh, ctanh##SFX)                                           \
    TP_COMPLEX_LIBM_UNARY(tag, C, asinh, casinh##SFX)                                         \
    TP_COMPLEX_LIBM_UNARY(tag, C, acosh, cacosh##SFX)                                         \
    TP_COMPLEX_LIBM_UNARY(tag, C, atanh, catanh##SFX)
/* The trigonometric and hyperbolic functions and their inverses: the C library's, as NumPy
 * calls them (Annex G's branch cuts and special values). */
#define TP_COMPLEX_LIBM_UNARY(tag, C, name, builtin)                                          \
    TP_INLINE C tp_##name##_##tag(C a) {                                                      \
        return tp_from_native_##tag(__builtin_##builtin(tp_to_native_##tag(a)));              \
    }
TP_COMPLEX_LIBM(c64, tp_c64, float, f)
TP_COMPLEX_LIBM(c128, tp_c128, double, )
#else
/* ---- C++ / CUDA: no C99 complex library; Annex G's special values by hand. ---- */
#define TP_COMPLEX_OWN(tag, C, T, SFX, MAX)                                                   \
    TP_INLINE C tp_exp_##tag(C a) {                                                           \
        const T x = a.re, y = a.im;                                                           \
        if (y == 0) return tp_make_##tag(exp##SFX(x), y);     /* exact imaginary zero */      \
        if (isinf(x) && !isfinite(y))            /* (-inf, inf or NaN): (0, y's sign) */      \
            return x < 0 ? tp_make_##tag((T)0, copysign##SFX((T)0, y))                        \
                         : tp_make_##tag(x, (T)NAN);                                          \
        if (isinf(x) && x < 0)                                                                \
            return tp_make_##tag((T)0 * cos##SFX(y), (T)0 * sin##SFX(y));                     \
        const T e = exp##SFX(x);                                                              \
        return tp_make_##tag(e * cos##SFX(y), e * sin##SFX(y));                               \
    }                                                                                         \
    /* x^2 + y^2 - 1 for 1/2 <= big < 1, exactly but for the last rounding: each square       \
     * split into its rounded value and its error (fma), big^2 - 1 exact (Sterbenz), and the  \
     * sum of the rounded terms kept with its error (Knuth's two-sum). */                     \
    TP_INLINE T tp_norm2m1_##tag(T big, T small) {                                            \
        const T p = big * big, ep = fma##SFX(big, big, -p);                                   \
        const T q = small * small, eq = fma##SFX(small, small, -q);                           \
        const T d = p - 1, s = d + q, back = s - q;                                           \
        const T es = (d - back) + (q - (s - back));                                           \
        return s + (es + (ep + eq));                                                          \
    }                                                                                         \
    /* log|z|: near |z| = 1 as log1p(|z|^2 - 1) / 2, which keeps its relative accuracy;       \
     * where |z| overflows, from the larger part: log(big) + log1p((small/big)^2) / 2. */     \
    TP_INLINE T tp_log_abs_##tag(T ax, T ay) {                                                \
        const T big = ax > ay ? ax : ay, small = ax > ay ? ay : ax, h = hypot##SFX(ax, ay);   \
        if (big >= 1 && big < 2 && small < 1)        /* no cancellation: big^2 - 1 >= 0 */    \
            return log1p##SFX((big - 1) * (big + 1) + small * small) / 2;                     \
        if (big >= (T)0.5 && big < 1 && h >= (T)0.7)                                          \
            return log1p##SFX(tp_norm2m1_##tag(big, small)) / 2;                              \
        if (isinf(h) && isfinite(big)) {                                                      \
            const T r = small / big;                                                          \
            return log##SFX(big) + log1p##SFX(r * r) / 2;                                     \
        }                                                                                     \
        return log##SFX(h);                                                                   \
    }                                                                                         \
    TP_INLINE C tp_log_##tag(C a) {                                                           \
        const T ax = fabs##SFX(a.re), ay = fabs##SFX(a.im);                                   \
        if (isnan(ax) && isfinite(ay)) return tp_make_##tag(ax, (T)NAN);                      \
        return tp_make_##tag(tp_log_abs_##tag(ax, ay), atan2##SFX(a.im, a.re));               \
    }                                                                                         \
    TP_INLINE C tp_sqrt_##tag(C a) {                                                          \
        const T x = a.re, y = a.im;                                                           \
        if (x == 0 && y == 0) return tp_make_##tag((T)0, y);                                  \
        if (isinf(y)) return tp_make_##tag((T)INFINITY, y);                                   \
        if (isnan(x)) return tp_make_##tag(x, (T)NAN);                                        \
        if (isinf(x)) {                                                                       \
            if (x > 0) return tp_make_##tag(x, isnan(y) ? y : copysign##SFX((T)0, y));        \
            return tp_make_##tag(isnan(y) ? y : (T)0, copysign##SFX((T)INFINITY, y));         \
        }                                                                                     \
        /* Where |x| + |z| could overflow: sqrt(z) = 2 sqrt(z / 4), scaled exactly. */        \
        const bool huge = fabs##SFX(x) > MAX / 4 || fabs##SFX(y) > MAX / 4;                   \
        const T sx = huge ? x / 4 : x, sy = huge ? y / 4 : y, k = huge ? 2 : 1;               \
        const T t = sqrt##SFX((fabs##SFX(sx) + hypot##SFX(sx, sy)) * (T)0.5);                 \
        if (x >= 0) return tp_make_##tag(k * t, k * (sy / (2 * t)));                          \
        return tp_make_##tag(k * (fabs##SFX(sy) / (2 * t)), k * copysign##SFX(t, y));         \
    }                                                                                         \
    TP_INLINE C tp_cpow_##tag(C a, C b) {                                                     \
        return tp_exp_##tag(tp_mul_plain_##tag(b, tp_log_##tag(a)));                          \
    }
/* The trigonometric and hyperbolic functions from their real parts' formulas, the inverses
 * from log and sqrt (with the odd functions' symmetry, so the principal branch's sign is
 * kept): a few ulp for moderate arguments, less accurate than C's library near branch
 * points and for huge imaginary parts, and without all of Annex G's special values. */
#define TP_COMPLEX_OWN_TRIG(tag, C, T, SFX, MAX)                                              \
    TP_INLINE C tp_sinh_##tag(C a) {                                                          \
        return tp_make_##tag(sinh##SFX(a.re) * cos##SFX(a.im), cosh##SFX(a.re) * sin##SFX(a.im)); \
    }                                                                                         \
    TP_INLINE C tp_cosh_##tag(C a) {                                                          \
        return tp_make_##tag(cosh##SFX(a.re) * cos##SFX(a.im), sinh##SFX(a.re) * sin##SFX(a.im)); \
    }                                                                                         \
    TP_INLINE C tp_tanh_##tag(C a) {                                                          \
        if (fabs##SFX(a.re) > 20) /* tanh(x) rounds to +-1; im decays like exp(-2|x|) */      \
            return tp_make_##tag(copysign##SFX((T)1, a.re),                                   \
                                 4 * sin##SFX(a.im) * cos##SFX(a.im) *                        \
                                     exp##SFX(-2 * fabs##SFX(a.re)));                         \
        const T t = tan##SFX(a.im), beta = 1 + t * t, s = sinh##SFX(a.re);                    \
        const T rho = sqrt##SFX(1 + s * s), denom = 1 + beta * s * s;                         \
        return tp_make_##tag(beta * rho * s / denom, t / denom);                              \
    }                                                                                         \
    /* f(z) = -i g(iz) for (sin, sinh), (tan, tanh), (asin, asinh), (atan, atanh) */          \
    TP_INLINE C tp_times_i_##tag(C a) { return tp_make_##tag(-a.im, a.re); }                  \
    TP_INLINE C tp_times_minus_i_##tag(C a) { return tp_make_##tag(a.im, -a.re); }            \
    TP_INLINE C tp_sin_##tag(C a) {                                                           \
        return tp_times_minus_i_##tag(tp_sinh_##tag(tp_times_i_##tag(a)));                    \
    }                                                                                         \
    TP_INLINE C tp_cos_##tag(C a) { return tp_cosh_##tag(tp_times_i_##tag(a)); }              \
    TP_INLINE C tp_tan_##tag(C a) {                                                           \
        return tp_times_minus_i_##tag(tp_tanh_##tag(tp_times_i_##tag(a)));                    \
    }                                                                                         \
    /* |z| beyond sqrt(MAX)/4 (or infinite): the inverse functions' formulas would square it */\
    TP_INLINE bool tp_huge_##tag(C a) {                                                       \
        const T big = sqrt##SFX(MAX) / 4;                                                     \
        return fabs##SFX(a.re) > big || fabs##SFX(a.im) > big;                                \
    }                                                                                         \
    TP_INLINE C tp_log_twice_##tag(C a) {  /* log 2z: C99's values at infinities too */       \
        const C r = tp_log_##tag(a);                                                          \
        return tp_make_##tag(r.re + (T)0.69314718055994531, r.im);                            \
    }                                                                                         \
    /* log(1 + w) with the real part from log1p(2u + u^2 + v^2): exact for small w */        \
    TP_INLINE C tp_log1p_small_##tag(C w) {                                                   \
        return tp_make_##tag(log1p##SFX(w.re * (2 + w.re) + w.im * w.im) / 2,                 \
                             atan2##SFX(w.im, 1 + w.re));                                     \
    }                                                                                         \
    TP_INLINE C tp_asinh_##tag(C a) {  /* log1p(z + z^2 / (1 + sqrt(1 + z^2))), odd */        \
        const bool flip = a.re < 0;                                                           \
        const C z = flip ? tp_neg_##tag(a) : a;                                               \
        if (tp_huge_##tag(z)) {  /* z^2 overflows: asinh z = log 2z to rounding */            \
            const C r = tp_log_twice_##tag(z);                                                \
            return flip ? tp_neg_##tag(r) : r;                                                \
        }                                                                                     \
        const C one = tp_make_##tag((T)1, (T)0);                                              \
        const C zz = tp_mul_plain_##tag(z, z);                                                \
        const C w = tp_add_##tag(z, tp_div_##tag(zz, tp_add_##tag(one,                        \
            tp_sqrt_##tag(tp_add_##tag(one, zz)))));                                          \
        const C r = tp_log1p_small_##tag(w);                                                  \
        return flip ? tp_neg_##tag(r) : r;                                                    \
    }                                                                                         \
    TP_INLINE C tp_asin_##tag(C a) {                                                          \
        return tp_times_minus_i_##tag(tp_asinh_##tag(tp_times_i_##tag(a)));                   \
    }                                                                                         \
    TP_INLINE C tp_acos_##tag(C a) {                                                          \
        const C s = tp_asin_##tag(a);                                                         \
        return tp_make_##tag((T)1.5707963267948966 - s.re, -s.im);                            \
    }                                                                                         \
    TP_INLINE C tp_acosh_##tag(C a) {  /* log(z + sqrt(z + 1) sqrt(z - 1)) */                 \
        if (tp_huge_##tag(a)) return tp_log_twice_##tag(a);                                   \
        const C one = tp_make_##tag((T)1, (T)0);                                              \
        return tp_log_##tag(tp_add_##tag(a, tp_mul_plain_##tag(                               \
            tp_sqrt_##tag(tp_add_##tag(a, one)), tp_sqrt_##tag(tp_sub_##tag(a, one)))));      \
    }                                                                                         \
    TP_INLINE C tp_atanh_##tag(C a) {  /* (log1p(z) - log1p(-z)) / 2 */                       \
        if (tp_huge_##tag(a)) {  /* 1/z + i pi/2 sign(im), 1/z's real part without overflow */\
            const bool by_re = fabs##SFX(a.re) >= fabs##SFX(a.im);                            \
            const T r = by_re ? a.im / a.re : a.re / a.im;                                    \
            const T re = isinf(a.re) || isinf(a.im) ? copysign##SFX((T)0, a.re)               \
                : by_re ? 1 / (a.re * (1 + r * r)) : r / (a.im * (1 + r * r));                \
            return tp_make_##tag(re, copysign##SFX((T)1.5707963267948966, a.im));             \
        }                                                                                     \
        const C d = tp_sub_##tag(tp_log1p_small_##tag(a),                                     \
                                 tp_log1p_small_##tag(tp_neg_##tag(a)));                      \
        return tp_make_##tag(d.re / 2, d.im / 2);                                             \
    }                                                                                         \
    TP_INLINE C tp_atan_##tag(C a) {                                                          \
        return tp_times_minus_i_##tag(tp_atanh_##tag(tp_times_i_##tag(a)));                   \
    }
TP_COMPLEX_OWN(c64, tp_c64, float, f, FLT_MAX)
TP_COMPLEX_OWN(c128, tp_c128, double, , DBL_MAX)
TP_COMPLEX_OWN_TRIG(c64, tp_c64, float, f, FLT_MAX)
TP_COMPLEX_OWN_TRIG(c128, tp_c128, double, , DBL_MAX)
/* + and * for templates written for numbers (tp_cuda.h's matmul tile). */
#define TP_COMPLEX_OPERATORS(tag, C)                                                          \
    TP_DEVICE inline C operator+(C a, C b) { return tp_add_##tag(a, b); }                     \
    TP_DEVICE inline C operator*(C a, C b) { return tp_mul_##tag(a, b); }                     \
    /* for tp_cuda.h's argmax/argmin combine (NaN first, then the lexicographic order) */    \
    TP_DEVICE inline bool tp_is_nan(C a) { return tp_isnan_##tag(a); }                        \
    TP_DEVICE inline bool tp_arg_greater(C a, C b) { return tp_gt_##tag(a, b); }
TP_COMPLEX_OPERATORS(c64, tp_c64)
TP_COMPLEX_OPERATORS(c128, tp_c128)
#endif

/* ---- power: NumPy's npy_cpow. Zero exponents give 1; a zero base gives 0 for a positive
 * real exponent and NaN otherwise; small integer exponents multiply (plain products, then
 * one Smith division for negative ones); everything else is the library's cpow. ---- */
#define TP_COMPLEX_POW(tag, C, T)                                                             \
    TP_INLINE C tp_pow_##tag(C a, C b) {                                                      \
        if (b.re == 0 && b.im == 0) return tp_make_##tag((T)1, (T)0);                         \
        if (a.re == 0 && a.im == 0) {                                                         \
            if (b.re > 0) return tp_make_##tag((T)0, (T)0);                                   \
            return tp_make_##tag((T)NAN, (T)NAN);                                             \
        }                                                                                     \
        if (b.im == 0 && b.re > -100 && b.re < 100 && b.re == (T)(int)b.re) {                 \
            int n = (int)b.re;                                                                \
            if (n == 1) return a;                                                             \
            if (n == 2) return tp_mul_plain_##tag(a, a);                                      \
            if (n == 3) return tp_mul_plain_##tag(a, tp_mul_plain_##tag(a, a));               \
            C result = tp_make_##tag((T)1, (T)0), p = a;                                      \
            int mask = 1;                                                                     \
            if (n < 0) n = -n;                                                                \
            for (;;) {                                                                        \
                if (n & mask) result = tp_mul_plain_##tag(result, p);                         \
                mask <<= 1;                                                                   \
                if (n < mask || mask <= 0) break;                                             \
                p = tp_mul_plain_##tag(p, p);                                                 \
            }                                                                                 \
            if (b.re < 0) result = tp_div_##tag(tp_make_##tag((T)1, (T)0), result);           \
            return result;                                                                    \
        }                                                                                     \
        return tp_cpow_##tag(a, b);                                                           \
    }
TP_COMPLEX_POW(c64, tp_c64, float)
TP_COMPLEX_POW(c128, tp_c128, double)

/* ---- NumPy's own formulas (its funcs.inc): log1p(z) = log|1 + z| + i arg(1 + z);
 * expm1(z) = expm1(x) cos(y) - 2 sin^2(y/2) + i exp(x) sin(y); exp2(z) = exp(z ln 2);
 * log2 and log10 scale log(z). ---- */
#define TP_COMPLEX_NUMPY_FORMULAS(tag, C, T, SFX)                                             \
    TP_INLINE C tp_log1p_##tag(C a) {                                                         \
        const T re = a.re + 1;                                                                \
        return tp_make_##tag(log##SFX(hypot##SFX(re, a.im)), atan2##SFX(a.im, re));           \
    }                                                                                         \
    TP_INLINE C tp_expm1_##tag(C a) {                                                         \
        const T h = sin##SFX(a.im / 2);                                                       \
        return tp_make_##tag(expm1##SFX(a.re) * cos##SFX(a.im) - 2 * h * h,                   \
                             exp##SFX(a.re) * sin##SFX(a.im));                                \
    }                                                                                         \
    TP_INLINE C tp_exp2_##tag(C a) {                                                          \
        const T ln2 = (T)0.693147180559945309417232121458176568;                              \
        return tp_exp_##tag(tp_make_##tag(a.re * ln2, a.im * ln2));                           \
    }                                                                                         \
    TP_INLINE C tp_log2_##tag(C a) {                                                          \
        const C l = tp_log_##tag(a);                                                          \
        const T log2e = (T)1.442695040888963407359924681001892137;                            \
        return tp_make_##tag(l.re * log2e, l.im * log2e);                                     \
    }                                                                                         \
    TP_INLINE C tp_log10_##tag(C a) {                                                         \
        const C l = tp_log_##tag(a);                                                          \
        const T log10e = (T)0.434294481903251827651128918916605082;                           \
        return tp_make_##tag(l.re * log10e, l.im * log10e);                                   \
    }
TP_COMPLEX_NUMPY_FORMULAS(c64, tp_c64, float, f)
TP_COMPLEX_NUMPY_FORMULAS(c128, tp_c128, double, )

#endif /* TRANSPILE_COMPLEX_H */
