/* tp_kernel_api.h: how the runtime's whole-buffer kernels (tp_gemm_*, tp_sort_*, the
 * factorizations, tp_fft_*, tp_conv_*, tp_scatter_*) are declared where they are defined.
 *
 * Left alone, TP_KERNEL_API is `static`: whoever includes a kernel header gets a private
 * copy of the kernels it calls. That is what CUDA modules (whose helpers are device code and
 * must be compiled into the module) and exported libraries (self-contained) do.
 * The runtime library (tp_runtime_library.c) defines it first, to export each kernel once;
 * generated CPU modules then include only tp_runtime.h's declarations and call into it,
 * instead of compiling the kernels at -O3 into every module (issue 22). */
#ifndef TRANSPILE_KERNEL_API_H
#define TRANSPILE_KERNEL_API_H

#ifndef TP_KERNEL_API
#define TP_KERNEL_API static __attribute__((unused))
#endif

#endif /* TRANSPILE_KERNEL_API_H */
