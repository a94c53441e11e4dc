/* tp_elementwise.h: one scalar function over a contiguous array, for the first-call executor.
 *
 * A generated module computes exp, tanh, log... inline, element by element, with the helpers
 * of transpile.h and tp_tanh.h or libm's scalar calls. The first-call executor
 * (transpile/backends/program_executor.py) runs a program before its module is built; for
 * these functions it calls the maps below, which the runtime library compiles with the
 * modules' own flags from the same helpers, spelled as c_ops.py spells them (a test checks
 * the spellings agree): the same IEEE operations on each element, so the same bits, however
 * either loop is vectorised (no contraction: -ffp-contract=off; explicit fma is fma in both).
 * Modules never call these. */
#ifndef TRANSPILE_ELEMENTWISE_H
#define TRANSPILE_ELEMENTWISE_H

#include <math.h>
#include <stdint.h>
#include "tp_kernel_api.h"
#include "tp_runtime.h"   /* the lists of maps, and their declarations */
#include "tp_tanh.h"
#include "transpile.h"

#define TP_MAP1(name, T, call)                                                                \
    TP_KERNEL_API void tp_map_##name(const T *restrict x, T *restrict y, int64_t n) {         \
        for (int64_t i = 0; i < n; i++) y[i] = call(x[i]);                                    \
    }
#define TP_MAP2(name, T, call)                                                                \
    TP_KERNEL_API void tp_map_##name(const T *restrict x, const T *restrict z, T *restrict y, \
                                     int64_t n) {                                             \
        for (int64_t i = 0; i < n; i++) y[i] = call(x[i], z[i]);                              \
    }

#define TP_DEFINE_MAP1(op, f32_call, f64_call)                                                \
    TP_MAP1(op##_f32, float, f32_call) TP_MAP1(op##_f64, double, f64_call)
#define TP_DEFINE_MAP2(op, f32_call, f64_call)                                                \
    TP_MAP2(op##_f32, float, f32_call) TP_MAP2(op##_f64, double, f64_call)
TP_UNARY_MAPS(TP_DEFINE_MAP1)
TP_BINARY_MAPS(TP_DEFINE_MAP2)

#endif /* TRANSPILE_ELEMENTWISE_H */
