/* CUDA emulation on the CPU, for testing generated .cu files on machines without a GPU.
 *
 * The runtime compiles the same source as host C++: `g++ -x c++ -include tp_cuda_emulate.h`.
 * Each CUDA thread is a fiber (ucontext) with its own stack; the blocks of a grid run one
 * after the other on the calling thread. `__syncthreads`, `__syncwarp` and warp shuffles
 * are scheduling points: a fiber stops there until every live thread of its block (or warp)
 * has arrived, so a missing barrier gives a wrong answer (deterministically: fibers run in
 * thread order) instead of a lucky right one. `__shared__` variables are static (one block
 * runs at a time, so that is per block). Device memory is host memory, and the cudart
 * calls generated code makes are served by host implementations below.
 *
 * Cost: about a microsecond per emulated thread and scheduling point, so grids are small
 * here (TP_THREADS, TP_MAX_BLOCKS below); grid-stride loops cover any size.
 */
#ifndef TRANSPILE_CUDA_EMULATE_H
#define TRANSPILE_CUDA_EMULATE_H

#define TP_CUDA_EMULATE 1
#define TP_THREADS 128
#define TP_MAX_BLOCKS 4
#ifndef TP_GRID_YZ_MAX
#define TP_GRID_YZ_MAX 3        /* CUDA's is 65535: lowered so small tests loop over tiles */
#endif

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ucontext.h>

#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __launch_bounds__(...)
#define __restrict__ __restrict
#define __shared__ static

struct uint3 { unsigned int x, y, z; };
struct dim3 {
    unsigned int x, y, z;
    dim3(unsigned int x_ = 1, unsigned int y_ = 1, unsigned int z_ = 1) : x(x_), y(y_), z(z_) {}
};

/* ---- the scheduler ---- */
namespace tp_emu {

enum State { READY, AT_BARRIER, AT_WARP, DONE };

struct Fiber {
    ucontext_t context;
    State state;
    uint3 thread_idx;
    unsigned int linear;        /* x + y * bx + z * bx * by: warps are 32 consecutive ones */
    char *stack;
};

/* Plain arrays and a function pointer, not <vector>/<functional>: this header is parsed
 * with every emulated module, and those headers would double its compile time. */
enum { MAX_THREADS = 1024 };

struct Block {
    Fiber fibers[MAX_THREADS];
    uint64_t exchange[MAX_THREADS];      /* shuffle values, one slot per thread */
    unsigned int n_threads;
    ucontext_t scheduler;
    Fiber *current;
    void (*body)(void *);
    void *context;
    uint3 block_idx;
    dim3 block_dim, grid_dim;
};

inline thread_local Block *block = nullptr;
/* A launch CUDA would refuse (a grid over its limits) runs nothing and leaves this error
 * for cudaGetLastError, as on a device. */
enum { INVALID_CONFIGURATION = 9 };
inline thread_local int launch_error = 0;
inline const size_t STACK_BYTES = 64 * 1024;

/* Fiber stacks, kept for the next launch (allocating and freeing them costs more than
 * running a small kernel). */
static inline char *stack(unsigned int t) {
    static thread_local char *pool[MAX_THREADS];
    if (!pool[t] && !(pool[t] = (char *)malloc(STACK_BYTES))) {
        fprintf(stderr, "tp_cuda_emulate: out of memory for fiber stacks\n");
        abort();
    }
    return pool[t];
}

static inline void wait_at(State state) {
    Fiber *self = block->current;
    self->state = state;
    swapcontext(&self->context, &block->scheduler);
}

static inline void fiber_main() {
    block->body(block->context);
    block->current->state = DONE;        /* uc_link returns to the scheduler */
}

/* Release the fibers waiting at a point every live member of their group has reached:
 * a warp's shuffle/syncwarp, else the block's barrier. False: nothing can run (deadlock). */
static inline bool release(Block &b) {
    bool released = false;
    const size_t n = b.n_threads;
    for (size_t w = 0; w < n; w += 32) {
        bool all_at_warp = true, any_live = false;
        for (size_t t = w; t < n && t < w + 32; t++) {
            if (b.fibers[t].state == DONE) continue;
            any_live = true;
            all_at_warp = all_at_warp && b.fibers[t].state == AT_WARP;
        }
        if (any_live && all_at_warp) {
            for (size_t t = w; t < n && t < w + 32; t++)
                if (b.fibers[t].state == AT_WARP) b.fibers[t].state = READY;
            released = true;
        }
    }
    if (released) return true;
    bool any_live = false, all_at_barrier = true;
    for (size_t t = 0; t < n; t++) {
        const Fiber &f = b.fibers[t];
        if (f.state == DONE) continue;
        any_live = true;
        all_at_barrier = all_at_barrier && f.state == AT_BARRIER;
    }
    if (any_live && !all_at_barrier) {
        fprintf(stderr, "tp_cuda_emulate: deadlock in block (%u, %u, %u): threads wait at "
                "different barriers (a __syncthreads or warp shuffle in divergent code)\n",
                b.block_idx.x, b.block_idx.y, b.block_idx.z);
        abort();
    }
    for (size_t t = 0; t < n; t++)
        if (b.fibers[t].state == AT_BARRIER) b.fibers[t].state = READY;
    return any_live;
}

/* Out of line: getcontext "returns twice", so no caller's loop variable may live across it. */
__attribute__((noinline)) static void start_fiber(Fiber *f, ucontext_t *scheduler) {
    f->state = READY;
    getcontext(&f->context);
    f->context.uc_stack.ss_sp = f->stack;
    f->context.uc_stack.ss_size = STACK_BYTES;
    f->context.uc_link = scheduler;
    makecontext(&f->context, fiber_main, 0);
}

static inline void run_block(Block &b) {
    for (unsigned int t = 0; t < b.n_threads; t++) start_fiber(&b.fibers[t], &b.scheduler);
    do {
        for (unsigned int t = 0; t < b.n_threads; t++) {
            if (b.fibers[t].state != READY) continue;
            b.current = &b.fibers[t];
            swapcontext(&b.scheduler, &b.current->context);
        }
    } while (release(b));
}

static inline void launch(dim3 grid, dim3 block_dim, void (*body)(void *), void *context) {
    static thread_local Block *reused = nullptr;      /* ~1 MB: on the heap, made once */
    if (!reused && !(reused = (Block *)calloc(1, sizeof(Block)))) {
        fprintf(stderr, "tp_cuda_emulate: out of memory for a block\n");
        abort();
    }
    Block &b = *reused;
    const unsigned int n = block_dim.x * block_dim.y * block_dim.z;
    if (n == 0 || n > MAX_THREADS) {
        fprintf(stderr, "tp_cuda_emulate: a block of %u threads (at most %d)\n", n, MAX_THREADS);
        abort();
    }
    if (grid.x == 0 || grid.y == 0 || grid.z == 0 || grid.y > TP_GRID_YZ_MAX ||
        grid.z > TP_GRID_YZ_MAX) {
        launch_error = INVALID_CONFIGURATION;
        return;
    }
    b.n_threads = n;
    memset(b.exchange, 0, sizeof b.exchange);
    for (unsigned int t = 0; t < n; t++) {
        Fiber &f = b.fibers[t];
        f.linear = t;
        f.thread_idx = {t % block_dim.x, (t / block_dim.x) % block_dim.y,
                        t / (block_dim.x * block_dim.y)};
        f.stack = stack(t);
    }
    b.body = body;
    b.context = context;
    b.block_dim = block_dim;
    b.grid_dim = grid;
    block = &b;
    for (unsigned int z = 0; z < grid.z; z++)
        for (unsigned int y = 0; y < grid.y; y++)
            for (unsigned int x = 0; x < grid.x; x++) {
                b.block_idx = {x, y, z};
                run_block(b);
            }
    block = nullptr;
}

/* A shuffle: publish, wait for the warp, read the source lane, wait again (so no lane
 * overwrites its slot before every lane has read it). */
template <typename T>
static inline T shuffle(T value, int source_lane) {
    static_assert(sizeof(T) <= sizeof(uint64_t), "shuffles move at most 8 bytes");
    Fiber *self = block->current;
    uint64_t bits = 0;
    memcpy(&bits, &value, sizeof(T));
    block->exchange[self->linear] = bits;
    wait_at(AT_WARP);
    const unsigned int warp_base = self->linear - self->linear % 32;
    const unsigned int source = warp_base + (unsigned int)source_lane;
    uint64_t got = source < block->n_threads ? block->exchange[source] : bits;
    wait_at(AT_WARP);
    T result;
    memcpy(&result, &got, sizeof(T));
    return result;
}

}  // namespace tp_emu

#define threadIdx (tp_emu::block->current->thread_idx)
#define blockIdx (tp_emu::block->block_idx)
#define blockDim (tp_emu::block->block_dim)
#define gridDim (tp_emu::block->grid_dim)
#define warpSize 32

static inline void __syncthreads() { tp_emu::wait_at(tp_emu::AT_BARRIER); }
static inline void __syncwarp(unsigned int = 0xffffffffu) { tp_emu::wait_at(tp_emu::AT_WARP); }

template <typename T>
static inline T __shfl_down_sync(unsigned int, T value, unsigned int delta) {
    const unsigned int lane = tp_emu::block->current->linear % 32;
    return tp_emu::shuffle(value, (int)(lane + delta < 32 ? lane + delta : lane));
}
template <typename T>
static inline T __shfl_xor_sync(unsigned int, T value, int mask) {
    const unsigned int lane = tp_emu::block->current->linear % 32;
    return tp_emu::shuffle(value, (int)((lane ^ (unsigned int)mask) & 31u));
}
template <typename T>
static inline T __shfl_sync(unsigned int, T value, int source_lane) {
    return tp_emu::shuffle(value, source_lane & 31);
}

namespace tp_emu {
template <typename F>
static inline void invoke(void *f) { (*(F *)f)(); }
}

#define TP_LAUNCH(kernel, grid, block_dim, ...)                                              \
    do {                                                                                     \
        auto tp_body = [&]() { kernel(__VA_ARGS__); };                                       \
        tp_emu::launch(dim3(grid), dim3(block_dim), &tp_emu::invoke<decltype(tp_body)>,      \
                       &tp_body);                                                            \
    } while (0)

/* ---- the cudart calls transpile makes, served on the host ---- */
typedef int cudaError_t;
typedef void *cudaStream_t;
enum { cudaSuccess = 0, cudaErrorInvalidValue = 1, cudaErrorMemoryAllocation = 2,
       cudaErrorInvalidConfiguration = tp_emu::INVALID_CONFIGURATION };
enum cudaMemcpyKind { cudaMemcpyHostToHost = 0, cudaMemcpyHostToDevice = 1,
                      cudaMemcpyDeviceToHost = 2, cudaMemcpyDeviceToDevice = 3,
                      cudaMemcpyDefault = 4 };
enum { cudaDevAttrMultiProcessorCount = 16, cudaDevAttrComputeCapabilityMajor = 75,
       cudaDevAttrComputeCapabilityMinor = 76 };

namespace tp_emu_rt {
static inline cudaError_t cudaMalloc(void **ptr, size_t size) {
    *ptr = malloc(size ? size : 1);
    return *ptr ? cudaSuccess : cudaErrorMemoryAllocation;
}
static inline cudaError_t cudaMallocAsync(void **ptr, size_t size, cudaStream_t) {
    return cudaMalloc(ptr, size);
}
static inline cudaError_t cudaFree(void *ptr) { free(ptr); return cudaSuccess; }
static inline cudaError_t cudaFreeAsync(void *ptr, cudaStream_t) { return cudaFree(ptr); }
static inline cudaError_t cudaMemcpy(void *dst, const void *src, size_t n, int) {
    if (n) memmove(dst, src, n);
    return cudaSuccess;
}
static inline cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t n, int kind,
                                          cudaStream_t) {
    return cudaMemcpy(dst, src, n, kind);
}
static inline cudaError_t cudaMemset(void *dst, int value, size_t n) {
    memset(dst, value, n);
    return cudaSuccess;
}
static inline cudaError_t cudaDeviceSynchronize(void) { return cudaSuccess; }
static inline cudaError_t cudaPeekAtLastError(void) { return tp_emu::launch_error; }
static inline cudaError_t cudaGetLastError(void) {
    const cudaError_t err = tp_emu::launch_error;
    tp_emu::launch_error = cudaSuccess;
    return err;
}
static inline const char *cudaGetErrorString(cudaError_t err) {
    return err == cudaSuccess ? "no error" : err == cudaErrorMemoryAllocation
        ? "out of memory (emulated device)" : err == cudaErrorInvalidConfiguration
        ? "invalid configuration argument (emulated device)" : "error (emulated device)";
}
static inline const char *cudaGetErrorName(cudaError_t err) {
    return err == cudaSuccess ? "cudaSuccess" : err == cudaErrorMemoryAllocation
        ? "cudaErrorMemoryAllocation" : err == cudaErrorInvalidConfiguration
        ? "cudaErrorInvalidConfiguration" : "cudaErrorUnknown";
}
static inline cudaError_t cudaGetDeviceCount(int *count) { *count = 1; return cudaSuccess; }
static inline cudaError_t cudaGetDevice(int *device) { *device = 0; return cudaSuccess; }
static inline cudaError_t cudaDeviceGetAttribute(int *value, int attribute, int) {
    *value = attribute == cudaDevAttrComputeCapabilityMajor ? 9
           : attribute == cudaDevAttrComputeCapabilityMinor ? 0
           : attribute == cudaDevAttrMultiProcessorCount ? 1 : 0;
    return cudaSuccess;
}
static inline cudaError_t cudaRuntimeGetVersion(int *v) { *v = 0; return cudaSuccess; }
static inline cudaError_t cudaDriverGetVersion(int *v) { *v = 0; return cudaSuccess; }
}  // namespace tp_emu_rt

#ifndef TP_EMU_NO_CUDART_NAMES   /* the emulated libcudart defines the real names itself */
using namespace tp_emu_rt;
#endif

#endif /* TRANSPILE_CUDA_EMULATE_H */
