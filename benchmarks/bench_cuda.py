"""CUDA backend benchmarks: device-event timing, warm-up, medians, inputs larger than L2.

    python benchmarks/bench_cuda.py [--reps 20] [--small]

Cases (the issue's targets in brackets), side by side with CuPy and JAX when importable:
- device-to-device copy bandwidth (cudaMemcpy), the reference for memory-bound kernels;
- selu and x*2+1 on 1e8 float32 [>= 85 % of copy bandwidth];
- full sum of 1e8 float32 and row softmax of 16384 x 4096 float32 [>= 80 %];
- matmul 4096^2 float32, TFLOP/s (no TF32 anywhere: CuPy's default is full FP32);
- per-call overhead: wall-clock microseconds of a call on 8 elements;
- the kernels that run the runtime's helpers on the device (no target: they report where
  they stand): row sort of 16384 x 1024 float32 (a block per row), batched solve of 65536
  8x8 float64 systems (a thread per matrix), and a scatter-add of 1e6 updates into 1e4
  float64 (serial, on one thread: deterministic, and the slowest by design).
transpile, CuPy and the copy are timed with CUDA events around each call; JAX (its own
runtime and stream) with wall-clock time after block_until_ready. Needs a GPU: without
one it says why and exits with status 2.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time

import numpy as np

import transpile as tp
import transpile.numpy as tnp
from transpile.runtime import cudart



class Events:
    """Median device time (ms) of a callable, measured with a pair of CUDA events."""

    def __init__(self, rt):
        import _cffi_backend as backend
        self.rt, self.backend = rt, backend
        void_pp = backend.new_pointer_type(backend.new_pointer_type(backend.new_void_type()))
        self.start, self.stop = backend.newp(void_pp, None), backend.newp(void_pp, None)
        rt.check(rt.call("cudaEventCreate", self.start), "cudaEventCreate")
        rt.check(rt.call("cudaEventCreate", self.stop), "cudaEventCreate")
        self.ms = backend.newp(backend.new_pointer_type(backend.new_primitive_type("float")), 0)

    def time(self, fn, reps: int, warmup: int = 3) -> float:
        for _ in range(warmup):
            fn()
        self.rt.synchronize()
        samples = []
        for _ in range(reps):
            self.rt.call("cudaEventRecord", self.start[0], self.backend.cast(
                self.backend.typeof(self.start[0]), 0))
            fn()
            self.rt.call("cudaEventRecord", self.stop[0], self.backend.cast(
                self.backend.typeof(self.stop[0]), 0))
            self.rt.check(self.rt.call("cudaEventSynchronize", self.stop[0]), "event sync")
            self.rt.call("cudaEventElapsedTime", self.ms, self.start[0], self.stop[0])
            samples.append(self.ms[0])
        return statistics.median(samples)


def wall_ms(fn, reps: int, warmup: int = 3) -> float:
    for _ in range(warmup):
        fn()
    samples = []
    for _ in range(reps):
        t = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - t) * 1e3)
    return statistics.median(samples)


def selu(x):
    return 1.05 * tnp.where(x > 0, x, 1.67 * tnp.exp(x) - 1.67)


def affine(x):
    return x * 2 + 1


def softmax(x):
    e = tnp.exp(x - tnp.max(x, axis=1, keepdims=True))
    return e / tnp.sum(e, axis=1, keepdims=True)


def row_sort(x):
    return tnp.sort(x, axis=1)


def batched_solve(a, b):
    return tnp.linalg.solve(a, b)


def scatter_add(x, idx, upd):
    return x.at[idx].add(upd)


def full_sum(x):
    return tnp.sum(x)


def matmul(a, b):
    return a @ b


def cases(small: bool):
    n = 10**6 if small else 10**8
    rows, cols = (256, 1024) if small else (16384, 4096)
    mm = 64 if small else 4096
    rng = np.random.default_rng(0)
    vec = rng.standard_normal(n, dtype=np.float32)
    mat = rng.standard_normal((rows, cols), dtype=np.float32)
    a, b = (rng.standard_normal((mm, mm), dtype=np.float32) for _ in range(2))
    sort_rows, systems, updates = (256, 4096, 10**4) if small else (16384, 65536, 10**6)
    to_sort = rng.standard_normal((sort_rows, 1024), dtype=np.float32)
    lhs = rng.standard_normal((systems, 8, 8)) + 8 * np.eye(8)
    rhs = rng.standard_normal((systems, 8, 1))
    target = np.zeros(10**4)
    idx, upd = rng.integers(0, 10**4, updates), rng.standard_normal(updates)
    return [  # name, function, host arguments, bytes moved, flops (0, 0: time only)
        ("selu 1e8 f32" if not small else "selu", selu, (vec,), 2 * vec.nbytes, 0),
        ("x*2+1 1e8 f32" if not small else "x*2+1", affine, (vec,), 2 * vec.nbytes, 0),
        ("full sum 1e8 f32" if not small else "sum", full_sum, (vec,), vec.nbytes, 0),
        (f"row softmax {rows}x{cols}", softmax, (mat,), 2 * mat.nbytes, 0),
        (f"matmul {mm}^2 f32", matmul, (a, b), 3 * a.nbytes, 2 * mm**3),
        (f"row sort {sort_rows}x1024 f32", row_sort, (to_sort,), 0, 0),
        (f"batched solve {systems}x8x8", batched_solve, (lhs, rhs), 0, 0),
        (f"scatter-add {updates:.0e}", scatter_add, (target, idx, upd), 0, 0),
    ]


def copy_bandwidth(rt, events, nbytes: int, reps: int) -> float:
    src, dst = tp.DeviceArray.empty((nbytes,), np.uint8), tp.DeviceArray.empty((nbytes,), np.uint8)
    ms = events.time(lambda: rt.copy_on_device(dst.ptr, src.ptr, nbytes), reps)
    return 2 * nbytes / ms / 1e6          # GB/s: read + write


def rate(nbytes, flops, ms, copy_gbs) -> str:
    if not nbytes and not flops:
        return "-"
    if flops:
        return f"{flops / ms / 1e9:8.2f} TFLOP/s"
    gbs = nbytes / ms / 1e6
    return f"{gbs:8.0f} GB/s ({100 * gbs / copy_gbs:5.1f} % of copy)"


def cupy_runner(name, args):
    import cupy
    dev = [cupy.asarray(x) for x in args]
    ops = {"selu": lambda x: 1.05 * cupy.where(x > 0, x, 1.67 * cupy.exp(x) - 1.67),
           "x*2+1": lambda x: x * 2 + 1, "full sum": lambda x: x.sum(),
           "row softmax": lambda x: (lambda e: e / e.sum(axis=1, keepdims=True))(
               cupy.exp(x - x.max(axis=1, keepdims=True))),
           "matmul": lambda a, b: a @ b, "row sort": lambda x: cupy.sort(x, axis=1),
           "batched solve": cupy.linalg.solve, "scatter-add": _cupy_scatter_add}
    op = next(v for k, v in ops.items() if name.startswith(k))
    return lambda: op(*dev)


def _cupy_scatter_add(x, idx, upd):
    import cupyx
    out = x.copy()
    cupyx.scatter_add(out, idx, upd)     # float atomics: its sums' order varies per run
    return out


def jax_runner(fn, args):
    import jax
    import jax.numpy as jnp
    jfn = {"selu": lambda x: 1.05 * jnp.where(x > 0, x, 1.67 * jnp.exp(x) - 1.67),
           "affine": lambda x: x * 2 + 1, "full_sum": jnp.sum,
           "softmax": lambda x: jax.nn.softmax(x, axis=1),
           "matmul": lambda a, b: jnp.matmul(a, b, precision="highest"),
           "row_sort": lambda x: jnp.sort(x, axis=1), "batched_solve": jnp.linalg.solve,
           "scatter_add": lambda x, i, u: x.at[i].add(u)}[fn.__name__]
    jitted = jax.jit(jfn)
    dev = [jax.device_put(x) for x in args]
    return lambda: jitted(*dev).block_until_ready()


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=20)
    parser.add_argument("--small", action="store_true", help="small sizes (a quick check)")
    opts = parser.parse_args(argv)
    try:
        rt = cudart.runtime()
    except cudart.CudaError as err:
        print(f"bench_cuda: needs a CUDA device: {err}")
        return 2
    if rt.emulated and not opts.small:
        print("bench_cuda: TRANSPILE_CUDA_EMULATE is set; only --small runs (a smoke test of "
              "this script: emulated timings mean nothing)")
        return 2
    events = Events(rt)
    work = cases(opts.small)
    copy_gbs = copy_bandwidth(rt, events, work[0][2][0].nbytes, opts.reps)
    print(f"device-to-device copy: {copy_gbs:.0f} GB/s (read + write)\n")
    print(f"{'case':28s} {'transpile':>12s} {'rate':>28s} {'CuPy':>12s} {'JAX (wall)':>12s}")
    for name, fn, args, nbytes, flops in work:
        f = tp.jit(fn, backend="cuda")
        dev = [tp.device_put(x) for x in args]
        f(*dev).block_until_ready()                     # compile outside the timing
        ms = events.time(lambda: f(*dev), opts.reps)
        others = []
        try:
            others.append(f"{events.time(cupy_runner(name, args), opts.reps):10.3f}ms")
        except ImportError:
            others.append(f"{'-':>12s}")
        try:
            others.append(f"{wall_ms(jax_runner(fn, args), opts.reps):10.3f}ms")
        except ImportError:
            others.append(f"{'-':>12s}")
        print(f"{name:28s} {ms:10.3f}ms {rate(nbytes, flops, ms, copy_gbs):>28s} "
              + " ".join(others))
    tiny = np.ones(8, np.float32)
    g = tp.jit(affine, backend="cuda")
    dev_tiny = tp.device_put(tiny)
    g(dev_tiny).block_until_ready()
    us = 1e3 * wall_ms(lambda: g(dev_tiny), opts.reps * 50)
    print(f"\nper-call overhead (8 elements, device input, wall clock, no sync): {us:.1f} us")
    return 0


if __name__ == "__main__":
    sys.exit(main())
