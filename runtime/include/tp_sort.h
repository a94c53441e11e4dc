/* Stable sorting of the rows of a contiguous (rows, n) array, in NumPy's order: NaN after
 * every number, and -0.0 and 0.0 tie (so they keep their input order). A bottom-up merge
 * sort on indices: O(n log n), stable, and it needs scratch space the caller allocates
 * (4 * rows * n int64 slots), so a kernel never allocates or fails. */
#ifndef TRANSPILE_SORT_H
#define TRANSPILE_SORT_H

#include <stdint.h>
#include <string.h>
#include "tp_kernel_api.h"

/* TP_DEVICE: empty in C; `__host__ __device__` under the CUDA prelude (tp_cuda.h), where a
 * kernel sorts each row in a thread of its own with the same functions. The CUDA prelude
 * also sets TP_DEVICE_HELPERS, which leaves out the OpenMP drivers over all rows. */
#ifndef TP_DEVICE
#define TP_DEVICE
#endif

#define TP_LESS_NAN_LAST(a, b) ((a) < (b) || ((b) != (b) && (a) == (a)))
#define TP_LESS_PLAIN(a, b) ((a) < (b))

/* Runs this short are sorted by insertion first (fewer passes over memory). */
#define TP_SORT_RUN 16

#define TP_SORT(tag, T, LESS)                                                                 \
    /* Sorts (key, idx) pairs by key, stably; the other two arrays are scratch. The keys      \
     * travel with their indices, so merging reads memory in order (no key[idx[i]]). */       \
    static inline TP_DEVICE void tp_sort_row_##tag(T *key, int64_t *idx, T *ktmp,             \
                                                   int64_t *itmp, int64_t n) {                \
        for (int64_t lo = 0; lo < n; lo += TP_SORT_RUN) {                                     \
            const int64_t hi = lo + TP_SORT_RUN < n ? lo + TP_SORT_RUN : n;                   \
            for (int64_t i = lo + 1; i < hi; i++) {                                           \
                const T v = key[i];                                                           \
                const int64_t x = idx[i];                                                     \
                int64_t j = i;                                                                \
                for (; j > lo && LESS(v, key[j - 1]); j--) {  /* strictly less: stable */     \
                    key[j] = key[j - 1];                                                      \
                    idx[j] = idx[j - 1];                                                      \
                }                                                                             \
                key[j] = v;                                                                   \
                idx[j] = x;                                                                   \
            }                                                                                 \
        }                                                                                     \
        T *k_src = key, *k_dst = ktmp;                                                        \
        int64_t *i_src = idx, *i_dst = itmp;                                                  \
        for (int64_t width = TP_SORT_RUN; width < n; width *= 2) {                            \
            for (int64_t lo = 0; lo < n; lo += 2 * width) {                                   \
                const int64_t mid = lo + width < n ? lo + width : n;                          \
                const int64_t hi = mid + width < n ? mid + width : n;                         \
                int64_t i = lo, j = mid, k = lo;                                              \
                /* Take from the right run only when strictly less: that is stability. */     \
                while (i < mid && j < hi) {                                                   \
                    const int right = LESS(k_src[j], k_src[i]);                               \
                    const int64_t from = right ? j++ : i++;                                   \
                    k_dst[k] = k_src[from];                                                   \
                    i_dst[k++] = i_src[from];                                                 \
                }                                                                             \
                for (; i < mid; i++, k++) { k_dst[k] = k_src[i]; i_dst[k] = i_src[i]; }       \
                for (; j < hi; j++, k++) { k_dst[k] = k_src[j]; i_dst[k] = i_src[j]; }        \
            }                                                                                 \
            T *kt = k_src; k_src = k_dst; k_dst = kt;                                         \
            int64_t *it = i_src; i_src = i_dst; i_dst = it;                                   \
        }                                                                                     \
        if (k_src != key) {                                                                   \
            memcpy(key, k_src, (size_t)n * sizeof(T));                                        \
            memcpy(idx, i_src, (size_t)n * sizeof(int64_t));                                  \
        }                                                                                     \
    }                                                                                         \
    /* Row r of `in` sorted into values or indices (either may be null); its scratch is     \
     * 4 * n int64 slots at scratch + 4 * r * n (indices, keys, and a second copy of each). */\
    static inline TP_DEVICE void tp_sort_##tag##_item(const T *in, T *values, int64_t *indices, \
                                                      int64_t *scratch, int64_t rows,         \
                                                      int64_t n, int64_t r) {                 \
        int64_t *idx = scratch + 4 * r * n, *itmp = idx + n;                                  \
        T *key = (T *)(itmp + n), *ktmp = (T *)(itmp + 2 * n);                                \
        const T *row = in + r * n;                                                            \
        (void)rows;                                                                           \
        for (int64_t i = 0; i < n; i++) { key[i] = row[i]; idx[i] = i; }                      \
        tp_sort_row_##tag(key, idx, ktmp, itmp, n);                                           \
        for (int64_t i = 0; i < n; i++) {                                                     \
            if (values) values[r * n + i] = key[i];                                           \
            if (indices) indices[r * n + i] = idx[i];                                         \
        }                                                                                     \
    }                                                                                         \
    TP_SORT_ROWS(tag, T)                                                                      \
    TP_SORT_BLOCK(tag, T, LESS)

#ifdef TP_DEVICE_HELPERS
#define TP_SORT_ROWS(tag, T)
#else
#define TP_SORT_ROWS(tag, T)                                                                  \
    TP_KERNEL_API __attribute__((noinline)) void tp_sort_##tag(                               \
            const T *in, T *values, int64_t *indices, int64_t *scratch, int64_t rows,         \
            int64_t n) {                                                                      \
        _Pragma("omp parallel for schedule(dynamic) if(rows > 1 && rows * n > 32768)")        \
        for (int64_t r = 0; r < rows; r++)                                                    \
            tp_sort_##tag##_item(in, values, indices, scratch, rows, n, r);                   \
    }
#endif

/* Under the CUDA prelude, also a whole block per row (for long rows, where a thread per row
 * leaves the device idle): at each width the threads split the level's n outputs evenly;
 * each finds where its share starts inside its merge by binary search (the merge path),
 * then merges the share serially with the serial rule, so the result is the same. */
#ifdef TP_DEVICE_HELPERS
#define TP_SORT_BLOCK(tag, T, LESS)                                                           \
    static __device__ __attribute__((unused)) void tp_sort_##tag##_block(                     \
            const T *in, T *values, int64_t *indices, int64_t *scratch, int64_t rows,         \
            int64_t n, int64_t r) {                                                           \
        int64_t *idx = scratch + 4 * r * n, *tmp = idx + n;                                   \
        const T *key = in + r * n;                                                            \
        const int64_t threads = (int64_t)blockDim.x, share = (n + threads - 1) / threads;     \
        (void)rows;                                                                           \
        for (int64_t i = threadIdx.x; i < n; i += threads) idx[i] = i;                        \
        __syncthreads();                                                                      \
        for (int64_t width = 1; width < n; width *= 2) {                                      \
            const int64_t first = (int64_t)threadIdx.x * share;                               \
            const int64_t last = first + share < n ? first + share : n;                       \
            for (int64_t p = first; p < last;) {                                              \
                const int64_t lo = p / (2 * width) * (2 * width);                             \
                const int64_t mid = lo + width < n ? lo + width : n;                          \
                const int64_t hi = mid + width < n ? mid + width : n;                         \
                const int64_t k = p - lo, stop = hi < last ? hi : last;                       \
                /* the fewest left-run elements among the first k outputs such that the     \
                 * right run's last one taken precedes the next left one */                   \
                int64_t a = k - (hi - mid) > 0 ? k - (hi - mid) : 0;                          \
                int64_t b = k < mid - lo ? k : mid - lo;                                      \
                while (a < b) {                                                               \
                    const int64_t i = (a + b) / 2, j = k - i;                                 \
                    if (j == 0 || lo + i == mid || LESS(key[idx[mid + j - 1]], key[idx[lo + i]])) \
                        b = i;                                                                \
                    else                                                                      \
                        a = i + 1;                                                            \
                }                                                                             \
                int64_t i = lo + a, j = mid + (k - a);                                        \
                for (; p < stop; p++)                                                         \
                    tmp[p] = j < hi && (i >= mid || LESS(key[idx[j]], key[idx[i]]))           \
                        ? idx[j++] : idx[i++];                                                \
            }                                                                                 \
            __syncthreads();                                                                  \
            int64_t *swap = idx; idx = tmp; tmp = swap;                                       \
        }                                                                                     \
        for (int64_t i = threadIdx.x; i < n; i += threads) {                                  \
            if (values) values[r * n + i] = key[idx[i]];                                      \
            if (indices) indices[r * n + i] = idx[i];                                         \
        }                                                                                     \
        __syncthreads();                  /* the next row's first pass reuses nothing */      \
    }
#else
#define TP_SORT_BLOCK(tag, T, LESS)
#endif

TP_SORT(b, bool, TP_LESS_PLAIN)
TP_SORT(i8, int8_t, TP_LESS_PLAIN)
TP_SORT(i16, int16_t, TP_LESS_PLAIN)
TP_SORT(i32, int32_t, TP_LESS_PLAIN)
TP_SORT(i64, int64_t, TP_LESS_PLAIN)
TP_SORT(u8, uint8_t, TP_LESS_PLAIN)
TP_SORT(u16, uint16_t, TP_LESS_PLAIN)
TP_SORT(u32, uint32_t, TP_LESS_PLAIN)
TP_SORT(u64, uint64_t, TP_LESS_PLAIN)
TP_SORT(f32, float, TP_LESS_NAN_LAST)
TP_SORT(f64, double, TP_LESS_NAN_LAST)

#endif /* TRANSPILE_SORT_H */
