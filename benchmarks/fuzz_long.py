"""Run the differential fuzzer (tests/fuzz) over many seeds and report the finding classes.

    python benchmarks/fuzz_long.py --start 0 --count 10000 --jobs 2 [--shrink] [--json out.json]

Each class of finding (kind, op, backend, dtype kinds, features) is printed once with its
count, its first seed, the issue-7 class it belongs to and whether it is a known open class
(tests/fuzz/known.py). `--shrink` prints a small program for each class's first seed; rerun
one seed with `--start SEED --count 1 --shrink`. `--jax x32` (or `x64`) runs under JAX's
dtype rules, 64-bit mode off (on): NumPy computes each value at JAX's dtypes
(tests/fuzz/jax_mode.py).
"""
from __future__ import annotations

import argparse
import base64
import concurrent.futures
import json
import os
import pickle
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)                        # transpile from this checkout
sys.path.insert(0, os.path.join(ROOT, "tests"))  # the fuzz package

CHUNK = 48           # seeds per worker process
CHUNK_TIMEOUT = 600  # seconds; a chunk that hangs is bisected like one that crashes
JAX_MODE_VARIABLE = "FUZZ_JAX_MODE"   # x32 / x64 in the workers' environment: --jax


def _rules():
    """A context for the dtype rules --jax asked for (the workers read the environment)."""
    import contextlib
    mode = os.environ.get(JAX_MODE_VARIABLE)
    if not mode:
        return contextlib.nullcontext()
    from fuzz import jax_mode
    return jax_mode.jax_rules(x64=mode == "x64")


def _worker(start, count):
    """Run seeds in this process; print the findings, pickled, on stdout."""
    from fuzz import run
    with _rules():
        report = run.run_seeds(range(start, start + count))
    sys.stdout.write(base64.b64encode(pickle.dumps((report.programs, report.findings)))
                     .decode())


def _run_chunk(seeds: range):
    """Seeds in a fresh process, so that a crash (a segfault in generated code) or a hang
    is a finding of its own: the chunk is bisected down to the seed that crashes."""
    cmd = [sys.executable, os.path.abspath(__file__), "--worker", str(seeds.start),
           str(len(seeds))]
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=CHUNK_TIMEOUT,
                              cwd=ROOT)
        ok, why = done.returncode == 0, f"exit status {done.returncode}: " + \
            done.stderr.strip()[-300:]
    except subprocess.TimeoutExpired:
        ok, why = False, f"no answer in {CHUNK_TIMEOUT} s"
    if ok:
        return pickle.loads(base64.b64decode(done.stdout.strip().splitlines()[-1]))
    if len(seeds) > 1:
        half = len(seeds) // 2
        (n1, f1), (n2, f2) = _run_chunk(seeds[:half]), _run_chunk(seeds[half:])
        return n1 + n2, f1 + f2
    from fuzz.findings import Finding
    return 1, [Finding("crash", "-", "cpu", (), frozenset(), why, seeds.start)]


def run_all(start, count, jobs, progress=True):
    chunks = [range(s, min(s + CHUNK, start + count)) for s in range(start, start + count, CHUNK)]
    programs, findings, started = 0, [], time.perf_counter()
    with concurrent.futures.ThreadPoolExecutor(max(1, jobs)) as pool:
        for n, found in pool.map(_run_chunk, chunks):
            programs += n
            findings += found
            if progress:
                print(f"  {programs} programs, {len({f.seed for f in findings})} with findings,"
                      f" {time.perf_counter() - started:.0f} s", file=sys.stderr, flush=True)
    return programs, findings, time.perf_counter() - started


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--start", type=int, default=0)
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--shrink", action="store_true")
    parser.add_argument("--json", help="write the classes to this file")
    parser.add_argument("--jax", choices=["x32", "x64"],
                        help="JAX's dtype rules, without or with 64-bit dtypes")
    parser.add_argument("--worker", nargs=2, type=int, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        return _worker(*args.worker)
    if args.jax:
        os.environ[JAX_MODE_VARIABLE] = args.jax
    with _rules():
        return _report(args)


def _report(args):
    from fuzz import generate, known, shrink
    from fuzz.findings import deduplicate
    programs, findings, seconds = run_all(args.start, args.count, args.jobs)
    classes = deduplicate(findings)
    print(f"{programs} programs in {seconds:.0f} s ({programs / max(seconds, 1e-9):.1f}/s), "
          f"{len({f.seed for f in findings})} with findings, {len(classes)} classes")
    rows = []
    for key, fs in sorted(classes.items(), key=lambda kv: kv[1][0].seed):
        first = fs[0]
        issue = known.issue_class(first)
        open_entry = known.open_entry(first)
        status = ("known open: " + open_entry.name if open_entry else
                  "JAX wraps it (known.jax_mode_wraps)" if args.jax and known.jax_mode_wraps(first)
                  else "NEW")
        print(f"{len(fs):5d}  {key}\n       first seed {first.seed} (v{first.node}); issue class "
              f"{issue or '-'}; {status}\n"
              f"       {first.detail[:200]}")
        if args.shrink:
            small = shrink.shrink(generate.program(first.seed), first)
            print("       shrunk:\n" + "\n".join("         " + line
                                                 for line in small.describe().splitlines()))
        rows.append({"key": key, "count": len(fs), "seed": first.seed, "node": first.node,
                     "issue_class": issue, "known_open": open_entry.name if open_entry else None,
                     "detail": first.detail})
    by_issue = {}
    for f in findings:
        by_issue.setdefault(known.issue_class(f) or "other", set()).add(f.seed)
    print("programs per issue class: " + ", ".join(
        f"{k}: {len(v)} (first seed {min(v)})" for k, v in sorted(by_issue.items())))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"programs": programs, "seconds": seconds, "classes": rows}, f, indent=1)
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
