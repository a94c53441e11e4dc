"""First-call time against program size: unrolled chains and stencils, cold disk cache.

    PYTHONPATH=$PWD python benchmarks/bench_scale.py [--repeat 3] [--no-jax] [--quick]

A Python loop unrolled under tracing makes a program as long (and, fused, an expression as
deep) as its trip count. For each size this prints the median first-call time of
`transpile.jit` (each sample a new function object and an empty TRANSPILE_CACHE_DIR, so the
C compiler runs every time), in wall-clock seconds and in CPU seconds (this process and the
compiler it runs: on a shared machine the load inflates wall time, not CPU time), each with
its ratio to the size before it (one doubling: the target is at most 3x); where the CPU time
went (trace, simplification passes, lowering, C rendering, the C compiler), measured on one
more run of the same program through the backend's own steps; and, when jax is importable,
`jax.jit`'s first call beside it (wall clock, caches cleared per sample) and the ratio of
the two wall times.
"""
from __future__ import annotations

import argparse
import os
import resource
import statistics
import sys
import tempfile
import time

import numpy as np

import transpile as tp
import transpile.numpy as tnp
from transpile.backends.cpu import ENTRY, backend, source_header
from transpile.codegen.c_render import CRenderer
from transpile.codegen.lower import lower
from transpile.passes.simplify import simplify

try:                                            # optional: the JAX column
    import jax
    import jax.numpy as jnp
    jax.config.update("jax_enable_x64", True)
except ImportError:
    jax = jnp = None

STAGES = ("trace", "passes", "lower", "render", "cc")


def chain(xnp, steps):
    """y = sin(y) * 0.5 + x, `steps` times: one expression `steps` levels deep."""
    def f(x):
        y = x
        for _ in range(steps):
            y = xnp.sin(y) * 0.5 + x
        return y
    return f


def stencil(xnp, steps):
    """`steps` 5-point Jacobi sweeps over the interior of a grid, by slicing."""
    def f(u):
        for _ in range(steps):
            inner = 0.25 * (u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:])
            u = u.at[1:-1, 1:-1].set(inner)
        return u
    return f


CASES = {
    "chain": (chain, (50, 100, 200, 400, 800, 1600),
              lambda: np.linspace(-1.0, 1.0, 1024, dtype=np.float32)),
    "stencil": (stencil, (10, 20, 40, 80),
                lambda: np.random.default_rng(0).random((32, 32))),
}


def cpu_seconds() -> float:
    """CPU time of this process and of the children it waited for (the C compiler)."""
    own, children = (resource.getrusage(who) for who in
                     (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN))
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def first_call_transpile(make, steps, x) -> tuple[float, float]:
    """(wall, CPU) seconds of one first call through an empty disk cache."""
    with tempfile.TemporaryDirectory(prefix="tp-bench-scale-") as cache:
        os.environ["TRANSPILE_CACHE_DIR"] = cache
        fn = tp.jit(make(tnp, steps))
        wall, cpu = time.perf_counter(), cpu_seconds()
        np.asarray(fn(x))
        return time.perf_counter() - wall, cpu_seconds() - cpu


def stage_split(make, steps, x) -> dict:
    """CPU seconds per pipeline stage, through the CPU backend's own steps."""
    times, clock = {}, cpu_seconds
    fn = tp.jit(make(tnp, steps))
    t = clock()
    lowered = fn.lower(x)
    times["trace"] = clock() - t
    t = clock()
    ir = simplify(lowered.ir)
    times["passes"] = clock() - t
    t = clock()
    program = lower(ir, ENTRY)
    times["lower"] = clock() - t
    t = clock()
    source = CRenderer().render_program(program, source_header("bench", "", ir))
    times["render"] = clock() - t
    with tempfile.TemporaryDirectory(prefix="tp-bench-scale-") as tmp:
        c_path = os.path.join(tmp, "module.c")
        with open(c_path, "w") as f:
            f.write(source)
        t = clock()
        backend().compiler.compile(c_path, os.path.join(tmp, "module.so"))
        times["cc"] = clock() - t
    times["c_lines"] = source.count("\n")
    return times


def first_call_jax(make, steps, x) -> float:
    jax.clear_caches()
    fn = jax.jit(make(jnp, steps))
    started = time.perf_counter()
    np.asarray(fn(x))
    return time.perf_counter() - started


def check(make, steps, x) -> None:
    """The compiled answer against NumPy's, before anything is timed."""
    got = tp.jit(make(tnp, steps))(x)
    np.testing.assert_allclose(got, make(np, steps)(x.copy()), rtol=1e-5, atol=1e-6)


def stencil_numpy(steps):
    def f(u):
        u = u.copy()
        for _ in range(steps):
            u[1:-1, 1:-1] = 0.25 * (u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:])
        return u
    return f


def run_case(name, repeat, with_jax, sizes=None) -> None:
    make, default_sizes, data = CASES[name]
    sizes = sizes or default_sizes
    x = data()
    reference = make if name == "chain" else (lambda xnp, steps: stencil_numpy(steps)
                                               if xnp is np else stencil(xnp, steps))
    print(f"\n{name}: first call, median of {repeat}; wall and CPU seconds, each with its "
          "ratio to the size before; stage CPU seconds from one more run")
    head = f"{'steps':>6} {'wall':>7} {'x':>5} {'cpu':>7} {'x':>5} " + \
        " ".join(f"{s:>6}" for s in STAGES) + f" {'C lines':>7}"
    if with_jax:
        head += f" {'jax':>7} {'x':>5} {'tp/jax':>6}"
    print(head)
    previous = previous_jax = None
    for steps in sizes:
        try:
            check(reference, steps, x)
            samples = [first_call_transpile(make, steps, x) for _ in range(repeat)]
            split = stage_split(make, steps, x)
        except Exception as err:        # an older transpile: say where it stops, go on
            print(f"{steps:>6} {type(err).__name__}: {str(err)[:70]}", flush=True)
            previous = None
            continue
        ours = tuple(statistics.median(s[i] for s in samples) for i in (0, 1))
        row = f"{steps:>6} {ours[0]:>7.3f} {_ratio(ours[0], previous, 0)} {ours[1]:>7.3f} " \
            f"{_ratio(ours[1], previous, 1)} " + " ".join(f"{split[s]:>6.3f}" for s in STAGES) \
            + f" {split['c_lines']:>7}"
        if with_jax:
            theirs = statistics.median(first_call_jax(make, steps, x) for _ in range(repeat))
            row += f" {theirs:>7.3f} {_ratio(theirs, previous_jax)} {ours[0] / theirs:>6.2f}"
            previous_jax = theirs
        print(row, flush=True)
        previous = ours


def _ratio(now, before, item=None) -> str:
    if before is not None and item is not None:
        before = before[item]
    return f"{'':>5}" if before is None else f"{now / before:>5.2f}"


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="samples per size (median)")
    parser.add_argument("--no-jax", action="store_true", help="skip the JAX column")
    parser.add_argument("--case", choices=sorted(CASES), action="append",
                        help="only this case (may be given twice)")
    parser.add_argument("--steps", type=int, nargs="+", help="these sizes instead")
    args = parser.parse_args(argv)
    with_jax = jax is not None and not args.no_jax
    if jax is None and not args.no_jax:
        print("jax is not importable: no JAX column", file=sys.stderr)
    # One untimed compile first: process-wide set-up (compiler probe) is not a size's cost.
    first_call_transpile(chain, 1, np.zeros(4, np.float32))
    if with_jax:
        first_call_jax(chain, 1, np.zeros(4, np.float32))
    for name in args.case or sorted(CASES):
        run_case(name, args.repeat, with_jax, args.steps)


if __name__ == "__main__":
    main()
