/* tp_tanh.h: tanh for float32 and float64, branch-free so that loops calling it vectorise.
 *
 * Why: libm's tanhf and tanh are scalar calls (tanhf calls expm1f), so an elementwise loop
 * over them runs one element at a time; in a network's forward and backward pass they were a
 * quarter of the time (benchmarks/bench_grad.py). They are also less accurate than these:
 * glibc 2.36's tanhf and tanh are off by up to 2 ulp (tools/check_tanh_accuracy.py).
 *
 * float32 is computed in double and rounded once to float:
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

/* ---- float64 ----
 * Two formulas, both computed for every element and one selected (no branch):
 *
 * |x| < 1/4: tanh x = x + x t P(t), t = x^2, P the Taylor series of (tanh x / x - 1) / t to
 * t^10 (truncation below 1e-18 relative). The correction x t P(t) is at most 2% of the
 * result, so its few roundings cost under 0.1 ulp; the final fused add rounds once.
 *
 * |x| >= 1/4: tanh|x| = 1 - q, q = 2 / (E + 1), E = exp(2|x|), carried in double-double so
 * that q's error stays far below the result's ulp: exp(y) = 2^k (1 + r + t) as tp_exp
 * reduces it (|r| <= ln(2)/2, c the reduction's rounding error folded into t, the same
 * degree-10 polynomial), with 1 + r split exactly (Fast2Sum); E + 1 likewise; q's low part
 * from the division's exact residual (fma); 1 - q with its rounding error added back. The
 * result's error is the last rounding plus about 0.1 ulp: within one ulp of the correctly
 * rounded tanh (tools/check_tanh_accuracy.py --dtype float64 measures it against long double).
 * |x| is clamped at 22 (tanh rounds to 1 from 19.06). NaN propagates, +-0 keep their sign. */
TP_INLINE double tp_tanh_series_f64(double ax) {
    const double t = ax * ax;
    double p = -3.927832388331683e-05;                 /* coefficient of x^23 */
    p = TP_FMA(p, t, 9.691537956929451e-05);
    p = TP_FMA(p, t, -0.00023912911424355248);
    p = TP_FMA(p, t, 0.000590027440945586);
    p = TP_FMA(p, t, -0.0014558343870513183);
    p = TP_FMA(p, t, 0.003592128036572481);
    p = TP_FMA(p, t, -0.008863235529902197);
    p = TP_FMA(p, t, 0.021869488536155203);
    p = TP_FMA(p, t, -0.05396825396825397);
    p = TP_FMA(p, t, 0.13333333333333333);
    p = TP_FMA(p, t, -0.3333333333333333);              /* coefficient of x^3 */
    return TP_FMA(ax * t, p, ax);
}

TP_INLINE double tp_tanh_exp_f64(double ax) {
    const double y = 2.0 * (ax < 22.0 ? ax : 22.0);
    const double shifter = 6755399441055744.0;          /* 1.5 * 2^52 */
    const double kd = y * 1.4426950408889634 + shifter;
    const double k = kd - shifter;                      /* 0 <= k <= 64, exact */
    uint64_t kbits;
    memcpy(&kbits, &kd, sizeof kbits);
    const uint64_t scale_bits = (kbits - UINT64_C(0x4338000000000000) + 1023u) << 52;
    double scale;                                       /* 2^k */
    memcpy(&scale, &scale_bits, sizeof scale);
    const double head = y - k * 0.6931471803691238;    /* exact, as in tp_exp */
    const double tail = k * 1.9082149292705877e-10;
    const double r = head - tail;
    const double c = (head - r) - tail;                 /* r + c == head - tail */
    const double p = tp_exp_poly(r);                    /* tp_exp's polynomial */
    /* exp(r) = 1 + r + u = s + s_lo, s_lo below half an ulp of s (TwoSum, then Fast2Sum) */
    const double u = TP_FMA(r * r, p, c);
    const double w = r + u, w_virtual = w - u;
    const double w_lo = (r - w_virtual) + (u - (w - w_virtual));
    const double s = 1.0 + w;                           /* |w| < 0.42: Fast2Sum */
    const double s_lo = ((1.0 - s) + w) + w_lo;
    const double e = s * scale, e_lo = s_lo * scale;    /* E = exp(y), exact scalings */
    const double d = e + 1.0;                           /* E + 1 = d + d_lo (e >= 1) */
    const double d_lo = ((e - d) + 1.0) + e_lo;
    const double q = 2.0 / d;                           /* 2 / (E + 1) = q + q_lo */
    const double q_lo = (TP_FMA(-q, d, 2.0) - q * d_lo) * (0.5 * q);
    const double one_minus_q = 1.0 - q;                 /* q <= 0.78: Fast2Sum */
    return one_minus_q + (((1.0 - one_minus_q) - q) - q_lo);
}

TP_INLINE double tp_tanh_f64(double x) {
    const double ax = fabs(x);
    const double t = ax < 0.25 ? tp_tanh_series_f64(ax) : tp_tanh_exp_f64(ax);
    return x != x ? x : copysign(t, x);
}

#endif /* TRANSPILE_TANH_H */
