/* transpile CUDA prelude: what every generated .cu includes, on a GPU or under emulation.
 *
 * It makes transpile.h's scalar helpers device functions (TP_DEVICE), and holds the pieces
 * the generated kernels share: the launch macro, grid sizing, warp/block reductions built
 * on shuffles and one shared slot per warp (no atomics: results are deterministic), the
 * argmax/argmin combine with NumPy's rules, a tiled shared-memory matmul, and the host's
 * one-element reads and writes of device buffers (loop bounds, flags, loop indices).
 *
 * Under TRANSPILE_CUDA_EMULATE the runtime compiles the same source as host C++ with
 * `-include tp_cuda_emulate.h`, which defines the CUDA vocabulary used here.
 */
#ifndef TRANSPILE_CUDA_H
#define TRANSPILE_CUDA_H

#ifndef TP_CUDA_EMULATE
#include <cuda_runtime.h>
#endif

#define TP_DEVICE __host__ __device__
/* The runtime helper headers (tp_sort.h, tp_linalg.h, tp_scatter.h) then define only the
 * per-problem functions a kernel's thread calls, not their OpenMP drivers. */
#define TP_DEVICE_HELPERS 1
#include "transpile.h"

/* Threads per block of every 1-D kernel, and the most blocks a grid-stride launch uses
 * (the emulation header lowers both: each emulated thread costs about a microsecond). */
#ifndef TP_THREADS
#define TP_THREADS 256
#endif
#ifndef TP_MAX_BLOCKS
#define TP_MAX_BLOCKS 4096
#endif
#define TP_WARPS (TP_THREADS / 32)
#define TP_FULL_MASK 0xffffffffu
#define TP_TILE 16
/* The most blocks along a grid's y or z dimension (CUDA's limit; x allows 2^31 - 1). A
 * kernel whose grid would need more loops over the rest (the emulation lowers it, so tests
 * reach that path with small shapes). */
#ifndef TP_GRID_YZ_MAX
#define TP_GRID_YZ_MAX 65535
#endif

#ifndef TP_LAUNCH
#define TP_LAUNCH(kernel, grid, block, ...) kernel<<<(grid), (block)>>>(__VA_ARGS__)
#endif

/* Blocks for `n` work items at `per_block` items per block, capped (grid-stride loops do
 * the rest). Deterministic in n, so reductions always combine partials in the same order. */
static inline unsigned tp_blocks(int64_t n, int64_t per_block) {
    int64_t blocks = (n + per_block - 1) / per_block;
    if (blocks < 1) blocks = 1;
    return (unsigned)(blocks < TP_MAX_BLOCKS ? blocks : TP_MAX_BLOCKS);
}

/* Blocks along a grid dimension for `n` items, one block each, at most `limit`. */
static inline unsigned tp_grid_dim(int64_t n, int64_t limit) {
    return (unsigned)(n < 1 ? 1 : n < limit ? n : limit);
}

/* The status after a launch: an earlier error stays; else the launch's own (a bad
 * configuration). A fault inside the kernel shows at the next synchronising call. */
static inline int tp_launched(int status) {
    return status != 0 ? status : (int)cudaGetLastError();
}

/* ---- host access to one element of a device buffer; the first error is kept in *status,
 * so a failed read ends the loop that asked for it and the entry returns the error ---- */
template <typename T>
static T tp_read(const T *device_ptr, int *status) {
    T value = T();
    cudaError_t err = cudaMemcpy(&value, device_ptr, sizeof(T), cudaMemcpyDeviceToHost);
    if (err != cudaSuccess && *status == 0) *status = (int)err;
    return value;
}

/* Async on the default stream: from pageable memory the value is staged before the call
 * returns, so the host may reuse it, and the device is not synchronised (a loop writes its
 * index each iteration). */
template <typename T>
static void tp_write(T *device_ptr, T value, int *status) {
    cudaError_t err = cudaMemcpyAsync(device_ptr, &value, sizeof(T), cudaMemcpyHostToDevice, 0);
    if (err != cudaSuccess && *status == 0) *status = (int)err;
}

/* A fresh host copy of `nbytes` of device memory (NULL for a NULL pointer), for the debug
 * print hook; the caller frees it. cudaMemcpy waits for the kernels launched before. */
static inline void *tp_host_copy(const void *device_ptr, size_t nbytes, int *status) {
    if (!device_ptr) return NULL;
    void *host = malloc(nbytes ? nbytes : 1);
    cudaError_t err = cudaErrorMemoryAllocation;
    if (host) err = cudaMemcpy(host, device_ptr, nbytes, cudaMemcpyDeviceToHost);
    if (err != cudaSuccess && *status == 0) *status = (int)err;
    return host;
}

/* ---- warp and block reductions ----
 * Any accumulator type (bool, small ints, argmax pairs) is shuffled as 32-bit words. */
template <typename T>
__device__ __forceinline__ T tp_shfl_down(T v, int offset) {
    constexpr int words = (int)((sizeof(T) + 3) / 4);
    unsigned int w[words] = {};
    memcpy(w, &v, sizeof(T));
    for (int k = 0; k < words; k++) w[k] = __shfl_down_sync(TP_FULL_MASK, w[k], offset);
    memcpy(&v, w, sizeof(T));
    return v;
}

/* Lane 0 gets the combination of the warp's 32 values (in lane order, as a tree). */
template <typename T, typename F>
__device__ __forceinline__ T tp_warp_reduce(T v, F combine) {
    for (int offset = 16; offset > 0; offset /= 2) v = combine(v, tp_shfl_down(v, offset));
    return v;
}

/* Thread 0 gets the combination of the block's values. Every thread must call it. */
template <typename T, typename F>
__device__ __forceinline__ T tp_block_reduce(T v, T identity, F combine) {
    __shared__ T slots[TP_WARPS];          /* one slot per warp */
    const int lane = (int)(threadIdx.x % 32), warp = (int)(threadIdx.x / 32);
    v = tp_warp_reduce(v, combine);
    if (lane == 0) slots[warp] = v;
    __syncthreads();
    if (warp == 0) v = tp_warp_reduce(lane < TP_WARPS ? slots[lane] : identity, combine);
    __syncthreads();                       /* the slots may be reused by the next call */
    return v;
}

/* ---- argmax/argmin: NumPy's rules, as an associative combine of (value, index) pairs:
 * the first NaN wins; otherwise the extreme value, ties to the first index. Float max/min
 * use it too, with ties to the last index (NumPy's in-order maximum returns its second
 * operand on ties: a zero result has the sign of the last zero), and complex max/min with
 * ties to the first: the pairs make the answer independent of the order a tree of
 * threads combines them in. ---- */
template <typename T>
struct TpArg {
    T value;
    int64_t index;      /* -1: no element yet */
};

template <typename T> __device__ __forceinline__ bool tp_is_nan(T) { return false; }
template <> __device__ __forceinline__ bool tp_is_nan<float>(float v) { return isnan(v); }
template <> __device__ __forceinline__ bool tp_is_nan<double>(double v) { return isnan(v); }

template <typename T> __device__ __forceinline__ bool tp_arg_greater(T a, T b) { return a > b; }

template <bool MAX, bool LAST_TIE = false, typename T>
__device__ __forceinline__ TpArg<T> tp_arg_combine(TpArg<T> a, TpArg<T> b) {
    if (a.index < 0) return b;
    if (b.index < 0) return a;
    const bool a_first = a.index < b.index, a_nan = tp_is_nan(a.value), b_nan = tp_is_nan(b.value);
    if (a_nan || b_nan) return (a_nan && (!b_nan || a_first)) ? a : b;
    if (MAX ? tp_arg_greater(a.value, b.value) : tp_arg_greater(b.value, a.value)) return a;
    if (MAX ? tp_arg_greater(b.value, a.value) : tp_arg_greater(a.value, b.value)) return b;
    return a_first != LAST_TIE ? a : b;
}

/* ---- one matrix product on TP_TILE x TP_TILE tiles in shared memory ----
 * The block computes tile (tile_row, tile_col) of out (m x n, contiguous), every thread of
 * the block calling it with the same tile (it holds barriers); operands are read in
 * place through their row and column strides (transposes, slices, broadcasts: no copies).
 * Each thread sums one output over k in order (no FMA contraction under --fmad=false, no
 * TF32), so results are deterministic. Integers accumulate in the unsigned type W, where
 * overflow wraps as NumPy's does; complex numbers through tp_complex.h's C++ operators. */
template <typename T, typename W>
__device__ __forceinline__ void tp_matmul_tile(const T *lhs, int64_t lhs_row, int64_t lhs_col,
                                               const T *rhs, int64_t rhs_row, int64_t rhs_col,
                                               T *__restrict__ out, int64_t m, int64_t k,
                                               int64_t n, int64_t tile_row, int64_t tile_col) {
    __shared__ W a_tile[TP_TILE][TP_TILE];
    __shared__ W b_tile[TP_TILE][TP_TILE + 1];   /* +1: no bank conflicts on column reads */
    const int tx = (int)threadIdx.x, ty = (int)threadIdx.y;
    const int64_t row = tile_row * TP_TILE + ty;
    const int64_t col = tile_col * TP_TILE + tx;
    W acc = W();                                 /* zero, for numbers and complex structs */
    for (int64_t p0 = 0; p0 < k; p0 += TP_TILE) {
        a_tile[ty][tx] = (row < m && p0 + tx < k)
            ? (W)lhs[row * lhs_row + (p0 + tx) * lhs_col] : W();
        b_tile[ty][tx] = (p0 + ty < k && col < n)
            ? (W)rhs[(p0 + ty) * rhs_row + col * rhs_col] : W();
        __syncthreads();
        const int depth = (int)(k - p0 < TP_TILE ? k - p0 : TP_TILE);  /* no padded terms */
        for (int q = 0; q < depth; q++) acc = acc + a_tile[ty][q] * b_tile[q][tx];
        __syncthreads();
    }
    if (row < m && col < n) out[row * n + col] = (T)acc;
}

#endif /* TRANSPILE_CUDA_H */
