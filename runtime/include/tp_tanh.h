/* tp_tanh.h: tanh for float32, branch-free so that loops calling it vectorise.
 *
 * Why: libm's tanhf is a scalar call (it calls expm1f), so an elementwise loop over it runs
 * one element at a time; in a network's forward and backward pass it was a quarter of the
 * time (benchmarks/bench_grad.py). This one is computed in double and rounded once to float:
 *
 *   tanh|x| = E / (E + 2),  E = expm1(2|x|),  the sign put back by copysign.
 *
 * E comes from y = 2|x| = k ln 2 + r (k = round(y / ln 2), |r| <= ln(2)/2): expm1(y) =
 * 2^k expm1(r) + (2^k - 1), one rounding; expm1(r) is its Taylor series to r^13 (remainder
 * below 2e-16 relative at |r| = ln(2)/2, far smaller for smaller r; for |x| < 0.17, k = 0
 * and r = y exactly, so tiny and subnormal x keep full relative accuracy). The double result
 * is within a few double ulp (~1e-15 relative) of tanh(x), so the float it rounds to is
 * within 0.5 + 2e-8 float ulp: at most one ulp from the correctly rounded value and, except
 * within 1e-15 of a rounding midpoint, the correctly rounded value itself.
 * tools/check_tanh_accuracy.py measures it against a long double reference (and glibc).
 *
 * Special values: +-0 keep their sign, +-inf give +-1, NaN propagates; |x| > 20 is clamped
 * (tanh rounds to +-1 in float from |x| = 9.02). No float->int conversion (k is read from the
 * low bits of a shifter sum, as in tp_exp), so nothing is undefined for any input.
 */
#ifndef TRANSPILE_TANH_H
#define TRANSPILE_TANH_H

#include <math.h>
#include <stdint.h>
#include <string.h>
#include "transpile.h"

TP_INLINE double tp_tanh_expm1_small(double r) {
    /* expm1(r) = r + r^2 (1/2! + r/3! + ... + r^11/13!) for |r| <= ln(2)/2 */
    double p = 1.6059043836821613e-10;                 /* 1/13! */
    p = TP_FMA(p, r, 2.08767569878681e-09);            /* 1/12! */
    p = TP_FMA(p, r, 2.505210838544172e-08);           /* 1/11! */
    p = TP_FMA(p, r, 2.755731922398589e-07);           /* 1/10! */
    p = TP_FMA(p, r, 2.7557319223985893e-06);          /* 1/9! */
    p = TP_FMA(p, r, 2.48015873015873e-05);            /* 1/8! */
    p = TP_FMA(p, r, 0.0001984126984126984);           /* 1/7! */
    p = TP_FMA(p, r, 0.001388888888888889);            /* 1/6! */
    p = TP_FMA(p, r, 0.008333333333333333);            /* 1/5! */
    p = TP_FMA(p, r, 0.041666666666666664);            /* 1/4! */
    p = TP_FMA(p, r, 0.16666666666666666);             /* 1/3! */
    p = TP_FMA(p, r, 0.5);                             /* 1/2! */
    return TP_FMA(r * r, p, r);
}

TP_INLINE float tp_tanh_f32(float xf) {
    const double ax = fabs((double)xf);
    const double y = 2.0 * (ax < 20.0 ? ax : 20.0);    /* NaN takes the clamp; selected below */
    const double shifter = 6755399441055744.0;          /* 1.5 * 2^52: adding it rounds */
    const double kd = y * 1.4426950408889634 + shifter;
    const double k = kd - shifter;                      /* 0 <= k <= 58, exact */
    uint64_t kbits;
    memcpy(&kbits, &kd, sizeof kbits);
    const uint64_t scale_bits = (kbits - UINT64_C(0x4338000000000000) + 1023u) << 52;
    double scale;                                       /* 2^k */
    memcpy(&scale, &scale_bits, sizeof scale);
    /* ln 2 = head + tail, head with 32 significant bits: k * head and y - k * head are exact */
    const double r = (y - k * 0.6931471803691238) - k * 1.9082149292705877e-10;
    const double e = TP_FMA(scale, tp_tanh_expm1_small(r), scale - 1.0);   /* expm1(y) */
    const float t = (float)(e / (e + 2.0));
    return xf != xf ? xf : copysignf(t, xf);
}

#endif /* TRANSPILE_TANH_H */
