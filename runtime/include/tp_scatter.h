/* Scatters: out[idx[i]] = combine(out[idx[i]], upd[i]) for i = 0 .. count-1, in order, so
 * duplicates all accumulate (add, mul, min, max) or the last one wins (set). Positions
 * outside [0, size) are dropped, as JAX does for updates. Serial: duplicates make the
 * read-modify-write order matter. Integer add and multiply wrap (computed in uint64_t);
 * float min and max propagate NaN and keep the old value on ties, as np.minimum does. */
#ifndef TRANSPILE_SCATTER_H
#define TRANSPILE_SCATTER_H

#include <stdbool.h>
#include <stdint.h>
#include "tp_complex.h"
#include "tp_kernel_api.h"

/* TP_DEVICE: empty in C; `__host__ __device__` under the CUDA prelude (tp_cuda.h), whose
 * kernel runs a scatter on one device thread: the same serial order, the same answer. */
#ifndef TP_DEVICE
#define TP_DEVICE
#endif

#define TP_SC_SET(T, a, b) (b)
#define TP_SC_ADD_INT(T, a, b) ((T)((uint64_t)(a) + (uint64_t)(b)))
#define TP_SC_MUL_INT(T, a, b) ((T)((uint64_t)(a) * (uint64_t)(b)))
#define TP_SC_ADD_FLOAT(T, a, b) ((a) + (b))
#define TP_SC_MUL_FLOAT(T, a, b) ((a) * (b))
#define TP_SC_MIN_INT(T, a, b) ((b) < (a) ? (b) : (a))
#define TP_SC_MAX_INT(T, a, b) ((b) > (a) ? (b) : (a))
#define TP_SC_MIN_FLOAT(T, a, b) ((a) != (a) ? (a) : (b) != (b) ? (b) : (b) < (a) ? (b) : (a))
#define TP_SC_MAX_FLOAT(T, a, b) ((a) != (a) ? (a) : (b) != (b) ? (b) : (b) > (a) ? (b) : (a))
#define TP_SC_OR(T, a, b) ((a) || (b))
#define TP_SC_AND(T, a, b) ((a) && (b))

#define TP_SCATTER(mode, tag, T, COMBINE)                                                     \
    TP_KERNEL_API __attribute__((noinline)) TP_DEVICE void tp_scatter_##mode##_##tag(         \
            const int64_t *idx, const T *upd, T *out, int64_t count, int64_t size) {          \
        for (int64_t i = 0; i < count; i++) {                                                 \
            const int64_t p = idx[i];                                                         \
            if (p >= 0 && p < size) out[p] = COMBINE(T, out[p], upd[i]);                      \
        }                                                                                     \
    }

#define TP_SCATTER_INT(tag, T)                                                                \
    TP_SCATTER(set, tag, T, TP_SC_SET) TP_SCATTER(add, tag, T, TP_SC_ADD_INT)                 \
    TP_SCATTER(mul, tag, T, TP_SC_MUL_INT) TP_SCATTER(min, tag, T, TP_SC_MIN_INT)             \
    TP_SCATTER(max, tag, T, TP_SC_MAX_INT)
#define TP_SCATTER_FLOAT(tag, T)                                                              \
    TP_SCATTER(set, tag, T, TP_SC_SET) TP_SCATTER(add, tag, T, TP_SC_ADD_FLOAT)               \
    TP_SCATTER(mul, tag, T, TP_SC_MUL_FLOAT) TP_SCATTER(min, tag, T, TP_SC_MIN_FLOAT)         \
    TP_SCATTER(max, tag, T, TP_SC_MAX_FLOAT)

TP_SCATTER(set, b, bool, TP_SC_SET)
TP_SCATTER(add, b, bool, TP_SC_OR)
TP_SCATTER(mul, b, bool, TP_SC_AND)
TP_SCATTER(min, b, bool, TP_SC_AND)
TP_SCATTER(max, b, bool, TP_SC_OR)
TP_SCATTER_INT(i8, int8_t)
TP_SCATTER_INT(i16, int16_t)
TP_SCATTER_INT(i32, int32_t)
TP_SCATTER_INT(i64, int64_t)
TP_SCATTER_INT(u8, uint8_t)
TP_SCATTER_INT(u16, uint16_t)
TP_SCATTER_INT(u32, uint32_t)
TP_SCATTER_INT(u64, uint64_t)
TP_SCATTER_FLOAT(f32, float)
TP_SCATTER_FLOAT(f64, double)

/* Complex: set, add and multiply (NumPy's product); NumPy orders complex numbers
 * lexicographically, which min and max do not compile (lowering refuses them). */
#define TP_SCATTER_COMPLEX(tag, T)                                                            \
    TP_SCATTER(set, tag, T, TP_SC_SET)                                                        \
    TP_SCATTER(add, tag, T, TP_SC_ADD_##tag) TP_SCATTER(mul, tag, T, TP_SC_MUL_##tag)
#define TP_SC_ADD_c64(T, a, b) tp_add_c64(a, b)
#define TP_SC_MUL_c64(T, a, b) tp_mul_c64(a, b)
#define TP_SC_ADD_c128(T, a, b) tp_add_c128(a, b)
#define TP_SC_MUL_c128(T, a, b) tp_mul_c128(a, b)
TP_SCATTER_COMPLEX(c64, tp_c64)
TP_SCATTER_COMPLEX(c128, tp_c128)

#endif /* TRANSPILE_SCATTER_H */
