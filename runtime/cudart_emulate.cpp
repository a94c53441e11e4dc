/* The emulated CUDA runtime library: cudart's C entry points served on the host, built from
 * tp_cuda_emulate.h and loaded by runtime/cudart.py under TRANSPILE_CUDA_EMULATE=1, so that
 * Python allocates, copies and frees "device" memory exactly as generated modules do. */
#define TP_EMU_NO_CUDART_NAMES
#include "tp_cuda_emulate.h"

#include <time.h>

extern "C" {
cudaError_t cudaMalloc(void **ptr, size_t size) { return tp_emu_rt::cudaMalloc(ptr, size); }
cudaError_t cudaFree(void *ptr) { return tp_emu_rt::cudaFree(ptr); }
cudaError_t cudaMallocAsync(void **ptr, size_t size, cudaStream_t stream) {
    return tp_emu_rt::cudaMallocAsync(ptr, size, stream);
}
cudaError_t cudaFreeAsync(void *ptr, cudaStream_t stream) {
    return tp_emu_rt::cudaFreeAsync(ptr, stream);
}
cudaError_t cudaMemcpy(void *dst, const void *src, size_t n, int kind) {
    return tp_emu_rt::cudaMemcpy(dst, src, n, kind);
}
cudaError_t cudaDeviceSynchronize(void) { return tp_emu_rt::cudaDeviceSynchronize(); }
cudaError_t cudaGetLastError(void) { return tp_emu_rt::cudaGetLastError(); }
const char *cudaGetErrorString(cudaError_t err) { return tp_emu_rt::cudaGetErrorString(err); }
const char *cudaGetErrorName(cudaError_t err) { return tp_emu_rt::cudaGetErrorName(err); }
cudaError_t cudaGetDeviceCount(int *count) { return tp_emu_rt::cudaGetDeviceCount(count); }
cudaError_t cudaGetDevice(int *device) { return tp_emu_rt::cudaGetDevice(device); }
cudaError_t cudaDeviceGetAttribute(int *value, int attribute, int device) {
    return tp_emu_rt::cudaDeviceGetAttribute(value, attribute, device);
}
cudaError_t cudaRuntimeGetVersion(int *v) { return tp_emu_rt::cudaRuntimeGetVersion(v); }
cudaError_t cudaDriverGetVersion(int *v) { return tp_emu_rt::cudaDriverGetVersion(v); }

/* Events hold the host's monotonic time: launches are synchronous here. */
cudaError_t cudaEventCreate(void **event) {
    *event = calloc(1, sizeof(double));
    return *event ? cudaSuccess : cudaErrorMemoryAllocation;
}
cudaError_t cudaEventRecord(void *event, void *) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    *(double *)event = now.tv_sec * 1e3 + now.tv_nsec * 1e-6;
    return cudaSuccess;
}
cudaError_t cudaEventSynchronize(void *) { return cudaSuccess; }
cudaError_t cudaEventElapsedTime(float *ms, void *start, void *stop) {
    *ms = (float)(*(double *)stop - *(double *)start);
    return cudaSuccess;
}
cudaError_t cudaEventDestroy(void *event) { free(event); return cudaSuccess; }
}
