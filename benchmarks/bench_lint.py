"""How fast is `transpile lint`? Lines per second over a generated tree of jitted modules.

    python benchmarks/bench_lint.py [--modules 300] [--functions 12] [--jobs N]

Writes a few hundred synthetic modules (jitted functions with shape branches, static
arguments, helpers, loops, lax bodies, and some hazards, plus a share of plain modules that
never import transpile) to a temporary folder, lints them through the same entry point as the
command line, and prints lines/second for one process and for the default worker count.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from transpile.lint.config import LintConfig  # noqa: E402
from transpile.lint.runner import Job, run  # noqa: E402
from transpile.lint.walk import Walker  # noqa: E402

HEADER = '''"""Synthetic module {index}."""
from functools import partial

import transpile as tp
import transpile.numpy as tnp
from transpile import lax

SCALE = {index}

'''

TEMPLATES = [
    '''
def helper_{i}(v, k):
    out = v
    for _ in range(k):
        out = out * 0.5 + v
    return out


@partial(tp.jit, static_argnames=["k"])
def smooth_{i}(x, k):
    """Shape branches and a static loop: clean."""
    if x.ndim == 2:
        x = x.sum(axis=0)
    y = helper_{i}(x, k)
    return tnp.where(y > 0, y, 0.0) * SCALE
''',
    '''
@tp.jit
def step_{i}(x, n):
    """A while loop on a traced argument: TP101."""
    i = 0
    while i < n:
        x = x + i
        i += 1
    return x
''',
    '''
@tp.jit
def body_{i}(state, xs):
    """Pytree loop and a lax body: clean."""
    total = tnp.zeros(state.shape)
    for leaf in xs:
        total = total + leaf
    return lax.fori_loop(0, 10, lambda j, acc: acc + state[j], total)
''',
    '''
def norm_{i}(x):
    m = tnp.max(x)
    if m > 1:
        return x / m
    return x


norm_{i}_jit = tp.jit(norm_{i})
''',
    '''
class Model{i}:
    def __init__(self, width):
        self.width = width

    @partial(tp.jit, static_argnums=0)
    def apply(self, x):
        if self.width > 4:
            return x[: self.width] * 2
        return self.scale(x)

    def scale(self, v):
        return v * self.width
''',
]

PLAIN = '''"""A module that never jits anything."""
import math


def area_{i}(r):
    if r > 0:
        return math.pi * r * r
    return 0.0
'''


def generate(root: Path, modules: int, functions: int, seed: int = 0) -> None:
    rng = random.Random(seed)
    for index in range(modules):
        folder = root / f"pkg{index % 10}" / f"sub{index % 7}"
        folder.mkdir(parents=True, exist_ok=True)
        if index % 5 == 4:
            text = "".join(PLAIN.format(i=i) for i in range(functions))
        else:
            parts = [HEADER.format(index=index)]
            parts += [rng.choice(TEMPLATES).format(i=i) for i in range(functions)]
            text = "".join(parts)
        (folder / f"mod{index}.py").write_text(text)
    (root / ".gitignore").write_text("build/\n")


def measure(root: Path, jobs: int | None) -> tuple[int, int, int, float]:
    config = LintConfig(root=root)
    start = time.perf_counter()
    files = [str(p) for p in Walker(config.exclude, root).files([root])]
    results = run(files, Job(config), jobs)
    elapsed = time.perf_counter() - start
    lines = sum(result.lines for result in results)
    findings = sum(len(result.findings) for result in results)
    return len(files), lines, findings, elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--modules", type=int, default=300)
    parser.add_argument("--functions", type=int, default=12, help="functions per module")
    parser.add_argument("--jobs", type=int, default=None, help="workers for the parallel run (default: auto)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        generate(root, args.modules, args.functions)
        print(f"cpus: {os.cpu_count()}")
        for label, jobs in (("1 process", 1), ("parallel", args.jobs)):
            files, lines, findings, seconds = measure(root, jobs)
            print(
                f"{label:>10}: {files} files, {lines} lines, {findings} findings in {seconds:.2f} s "
                f"= {lines / seconds:,.0f} lines/s"
            )


if __name__ == "__main__":
    main()
