/* transpile runtime: special functions libm lacks or gets racy, and bit reinterpretation.
 *
 * lgamma: libm's lgamma() writes the global `signgam`, a data race inside OpenMP loops; the
 * reentrant lgamma_r() writes the sign to a local instead (declared here because -std=c11
 * hides it).
 *
 * erf_inv: M. Giles' single-precision approximation ("Approximating the erfinv function",
 * GPU Computing Gems Jade, 2011) as a start, evaluated in double, then four Newton steps:
 * on erf(t) = a in the centre, and on log(erfc(t)) = log(1 - a) for a > 0.5, where 1 - a is
 * exact and the log keeps the steps well scaled far into the tail. Measured against mpmath:
 * within 2 ulp in float64 over (-1, 1), and float32 (computed in double, rounded once)
 * within 1 ulp. transpile/rules/special.py is the same algorithm on NumPy.
 *
 * digamma: SciPy's values (-inf at +0, +inf at -0, NaN at the negative integers and -inf).
 * Negative x reflect, psi(x) = psi(1 - x) - pi / tan(pi x) (tan of the distance to the
 * nearest integer, which is exact); x < 10 steps up by psi(x) = psi(x + 1) - 1 / x; then
 * the asymptotic series to x^-14 (the next term is below 1e-16 at x = 10). float32 is
 * computed in double and rounded once. Near the positive root (x = 1.4616...) the error is
 * absolute, about 1e-16, as with any evaluation that does not expand around the root.
 */
#ifndef TRANSPILE_SPECIAL_H
#define TRANSPILE_SPECIAL_H

#include <math.h>
#include <stdint.h>
#include <string.h>

extern double lgamma_r(double, int *);
extern float lgammaf_r(float, int *);

static inline __attribute__((unused)) double tp_lgamma_f64(double x) {
    int sign;
    return lgamma_r(x, &sign);
}

static inline __attribute__((unused)) float tp_lgamma_f32(float x) {
    int sign;
    return lgammaf_r(x, &sign);
}

static inline __attribute__((unused)) double tp_digamma_f64(double x) {
    const double pi = 3.14159265358979323846;
    if (x != x || x == INFINITY) return x;
    if (x == 0) return copysign(INFINITY, -x);
    double result = 0;
    if (x < 0) {
        if (x == floor(x)) return NAN;           /* the poles, and -inf */
        result = -pi / tan(pi * (x - nearbyint(x)));
        x = 1 - x;
    }
    for (; x < 10; x += 1) result -= 1 / x;
    const double f = 1 / (x * x);
    const double series = f * (-1.0 / 12 + f * (1.0 / 120 + f * (-1.0 / 252 + f * (1.0 / 240
                          + f * (-1.0 / 132 + f * (691.0 / 32760 + f * (-1.0 / 12)))))));
    return result + log(x) - 0.5 / x + series;
}

static inline __attribute__((unused)) float tp_digamma_f32(float x) {
    return (float)tp_digamma_f64((double)x);
}

static inline double tp_erfinv_horner(const double *c, double w) {
    double p = c[0];
    for (int k = 1; k < 9; k++) p = c[k] + p * w;
    return p;
}

static inline __attribute__((unused)) double tp_erf_inv_f64(double x) {
    static const double central[9] = {
        2.81022636e-08, 3.43273939e-07, -3.5233877e-06, -4.39150654e-06, 0.00021858087,
        -0.00125372503, -0.00417768164, 0.246640727, 1.50140941};
    static const double tail[9] = {
        -0.000200214257, 0.000100950558, 0.00134934322, -0.00367342844, 0.00573950773,
        -0.0076224613, 0.00943887047, 1.00167406, 2.83297682};
    double a = fabs(x);
    if (!(a < 1.0)) return a == 1.0 ? copysign((double)INFINITY, x) : (double)NAN;
    double q = 1.0 - a;                     /* exact for a >= 0.5 */
    double w = -log1p(-a * a);
    double t = a * (w < 5.0 ? tp_erfinv_horner(central, w - 2.5)
                            : tp_erfinv_horner(tail, sqrt(w) - 3.0));
    for (int step = 0; step < 4; step++) {
        double slope = 1.1283791670955126 * exp(-t * t);     /* d erf(t) / dt */
        if (a > 0.5) {
            double e = erfc(t);
            t += (log(e) - log(q)) * e / slope;
        } else {
            t -= (erf(t) - a) / slope;
        }
    }
    return copysign(t, x);
}

static inline __attribute__((unused)) float tp_erf_inv_f32(float x) {
    return (float)tp_erf_inv_f64((double)x);
}

/* ---- bit reinterpretation between same-width types (memcpy: no aliasing UB) ---- */
#define TP_BITCAST(name, FROM, TO)                                                          \
    static inline __attribute__((unused)) TO tp_bitcast_##name(FROM v) {                     \
        TO out;                                                                              \
        memcpy(&out, &v, sizeof out);                                                        \
        return out;                                                                          \
    }
TP_BITCAST(u32_f32, uint32_t, float)
TP_BITCAST(f32_u32, float, uint32_t)
TP_BITCAST(i32_f32, int32_t, float)
TP_BITCAST(f32_i32, float, int32_t)
TP_BITCAST(u64_f64, uint64_t, double)
TP_BITCAST(f64_u64, double, uint64_t)
TP_BITCAST(i64_f64, int64_t, double)
TP_BITCAST(f64_i64, double, int64_t)

#endif
