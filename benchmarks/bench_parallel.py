"""How to run OpenMP on a loaded machine: the wait policy and the serial-size threshold.

Usage:  python benchmarks/bench_parallel.py [--quick]

For each OpenMP wait policy (libgomp's default, PASSIVE, ACTIVE, or `spin:N`: spin N times,
then sleep; `--policies` picks them; a policy is fixed when libgomp loads, so each runs in a
fresh child process) this times, per array size, the
same kernels compiled twice: every loop parallel (threshold 0) and every loop serial. The
kernels: an elementwise map (x * 2 + 1), a full sum, and a loop of 50 small stencil steps
(one parallel region per step: the pattern whose regions multiply). Medians of
interleaved samples, like the other benchmarks. The README's choice of policy and of
CpuTarget.parallel_min_elements comes from this table, run while other jobs load the
machine (the load average is printed).
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

POLICIES = ("default", "PASSIVE", "ACTIVE")
SIZES = (1 << 12, 1 << 15, 1 << 18, 1 << 21)


def child(policy: str, sizes, repeats: int) -> dict:
    """Runs inside a process whose OMP_WAIT_POLICY is `policy`: {kernel: {size: (par, ser)}}."""
    import transpile as tp
    import transpile.numpy as tnp
    from transpile import lax
    from transpile.codegen.loop_schedule import CpuTarget

    def kernels():
        def stencil(x):
            return lax.fori_loop(0, 50, lambda i, v: v.at[1:-1].set(
                (v[:-2] + v[2:]) * 0.5), x)
        return {"map": lambda x: x * 2.0 + 1.0, "sum": lambda x: tnp.sum(x),
                "stencil loop": stencil}

    def compiled(threshold, fun, x):
        saved = CpuTarget.parallel_min_elements
        CpuTarget.parallel_min_elements = threshold
        try:
            f = tp.jit(lambda x: fun(x))     # a new function object: compiled afresh
            f(x)
        finally:
            CpuTarget.parallel_min_elements = saved
        return f

    results = {}
    for name, fun in kernels().items():
        results[name] = {}
        for n in sizes:
            x = np.random.default_rng(0).standard_normal(n)
            calls = {"parallel": compiled(0, fun, x), "serial": compiled(1 << 62, fun, x)}
            inner = max(1, int(2e-3 / max(_once(calls["serial"], x), 1e-7)))
            samples = {k: [] for k in calls}
            for _ in range(repeats):
                for k, f in calls.items():
                    start = time.perf_counter()
                    for _ in range(inner):
                        f(x)
                    samples[k].append((time.perf_counter() - start) / inner)
            results[name][n] = [statistics.median(samples["parallel"]),
                                statistics.median(samples["serial"])]
    return results


def _once(f, x) -> float:
    start = time.perf_counter()
    f(x)
    return time.perf_counter() - start


def run_child(policy: str, cfg) -> dict:
    env = dict(os.environ)
    env.pop("OMP_WAIT_POLICY", None)
    env.pop("GOMP_SPINCOUNT", None)
    if policy == "default":
        # libgomp's behaviour with no policy set: spin 300,000 times, then sleep. Naming it
        # explicitly also stops transpile from choosing a policy itself.
        env["GOMP_SPINCOUNT"] = "300000"
    elif policy.startswith("spin:"):
        env["GOMP_SPINCOUNT"] = policy[len("spin:"):]
    else:
        env["OMP_WAIT_POLICY"] = policy
    out = subprocess.run([sys.executable, __file__, "--child", policy,
                          "--repeats", str(cfg.repeats)], env=env, capture_output=True,
                         text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main(argv=None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--quick", action="store_true")
    p.add_argument("--child")
    p.add_argument("--repeats", type=int, default=0)
    p.add_argument("--policies", nargs="*", default=list(POLICIES),
                   help="default, PASSIVE, ACTIVE, or spin:N (GOMP_SPINCOUNT=N)")
    cfg = p.parse_args(argv)
    cfg.repeats = cfg.repeats or (5 if cfg.quick else 15)
    if cfg.child:
        print(json.dumps(child(cfg.child, SIZES, cfg.repeats)))
        return
    os.environ.setdefault("TRANSPILE_CACHE_DIR", tempfile.mkdtemp(prefix="tp-bench-par-"))
    print(f"bench_parallel: {os.cpu_count()} CPUs, load average "
          f"{os.getloadavg()[0]:.2f} at start; medians of {cfg.repeats} samples; "
          "times per call in microseconds, parallel / serial")
    policies = cfg.policies
    table = {policy: run_child(policy, cfg) for policy in policies}
    print(f"load average {os.getloadavg()[0]:.2f} at end\n")
    print("| kernel | size | " + " | ".join(f"{p} par / ser (us)" for p in policies) + " |")
    print("|---|---|" + "---|" * len(policies))
    for name in table[policies[0]]:
        for n in table[policies[0]][name]:
            cells = [f"{table[p][name][n][0] * 1e6:.0f} / {table[p][name][n][1] * 1e6:.0f}"
                     for p in policies]
            print(f"| {name} | {n} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
