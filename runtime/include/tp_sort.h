/* Stable sorting of the rows of a contiguous (rows, n) array, in NumPy's order: NaN after
 * every number, and -0.0 and 0.0 tie (so they keep their input order). A bottom-up merge
 * sort on indices: O(n log n), stable, and it needs scratch space the caller allocates
 * (2 * rows * n int64 values), so a kernel never allocates or fails. */
#ifndef TRANSPILE_SORT_H
#define TRANSPILE_SORT_H

#include <stdint.h>
#include <string.h>

/* TP_DEVICE: empty in C; `__host__ __device__` under the CUDA prelude (tp_cuda.h), where a
 * kernel sorts each row in a thread of its own with the same functions. The CUDA prelude
 * also sets TP_DEVICE_HELPERS, which leaves out the OpenMP drivers over all rows. */
#ifndef TP_DEVICE
#define TP_DEVICE
#endif

#define TP_LESS_NAN_LAST(a, b) ((a) < (b) || ((b) != (b) && (a) == (a)))
#define TP_LESS_PLAIN(a, b) ((a) < (b))

#define TP_SORT(tag, T, LESS)                                                                 \
    static inline TP_DEVICE void tp_sort_row_##tag(const T *key, int64_t *idx, int64_t *tmp,  \
                                                   int64_t n) {                               \
        for (int64_t i = 0; i < n; i++) idx[i] = i;                                           \
        for (int64_t width = 1; width < n; width *= 2) {                                      \
            for (int64_t lo = 0; lo < n; lo += 2 * width) {                                   \
                const int64_t mid = lo + width < n ? lo + width : n;                          \
                const int64_t hi = mid + width < n ? mid + width : n;                         \
                int64_t i = lo, j = mid, k = lo;                                              \
                /* Take from the right run only when strictly less: that is stability. */     \
                while (i < mid && j < hi)                                                     \
                    tmp[k++] = LESS(key[idx[j]], key[idx[i]]) ? idx[j++] : idx[i++];          \
                while (i < mid) tmp[k++] = idx[i++];                                          \
                while (j < hi) tmp[k++] = idx[j++];                                           \
            }                                                                                 \
            memcpy(idx, tmp, (size_t)n * sizeof(int64_t));                                    \
        }                                                                                     \
    }                                                                                         \
    /* Row r of `in` sorted into values or indices (either may be null); its scratch is     \
     * 2 * n int64 at scratch + 2 * r * n. */                                                 \
    static inline TP_DEVICE void tp_sort_##tag##_item(const T *in, T *values, int64_t *indices, \
                                                      int64_t *scratch, int64_t rows,         \
                                                      int64_t n, int64_t r) {                 \
        int64_t *idx = scratch + 2 * r * n, *tmp = idx + n;                                   \
        const T *row = in + r * n;                                                            \
        (void)rows;                                                                           \
        tp_sort_row_##tag(row, idx, tmp, n);                                                  \
        for (int64_t i = 0; i < n; i++) {                                                     \
            if (values) values[r * n + i] = row[idx[i]];                                      \
            if (indices) indices[r * n + i] = idx[i];                                         \
        }                                                                                     \
    }                                                                                         \
    TP_SORT_ROWS(tag, T)                                                                      \
    TP_SORT_BLOCK(tag, T, LESS)

#ifdef TP_DEVICE_HELPERS
#define TP_SORT_ROWS(tag, T)
#else
#define TP_SORT_ROWS(tag, T)                                                                  \
    static __attribute__((noinline, unused)) void tp_sort_##tag(                              \
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
        int64_t *idx = scratch + 2 * r * n, *tmp = idx + n;                                   \
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
