"""How fast is `transpile lint`? Lines per second over a generated jit-heavy tree, next to
libcst's bare parse of the same files in the same run.

    python benchmarks/bench_lint.py [--lines 60000] [--jobs N] [--repeat 3]
    python benchmarks/bench_lint.py --tree DIR [DIR ...] [--with-tests] [--show-findings]

Writes a tree of ~60k lines of realistic jitted code (training steps with optimizer updates,
stencils, solvers with lax loops, scans, pytrees of params, dataclasses, jitted methods,
helpers called from jitted functions, some hazards; half transpile, half JAX spelling, and a
tenth of the modules never jit anything) to a temporary folder, then reports the median of
`--repeat` runs of: libcst's `parse_module` over every file (no metadata), the linter in one
process, and the linter with `--jobs` worker processes.

`--tree` lints real code instead (installed JAX libraries, say), test files left out unless
`--with-tests`, and reports lines per CPU-second of one process, the load beside it, and the
findings per 100k lines (`--show-findings` lists them, to read each one).
"""

from __future__ import annotations

import argparse
import os
import random
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from transpile.lint.config import LintConfig  # noqa: E402
from transpile.lint.runner import Job, run  # noqa: E402
from transpile.lint.walk import Walker  # noqa: E402

HEADERS = {
    "transpile": '''"""Model code, module {index}."""
from __future__ import annotations

import dataclasses
from functools import partial
from typing import NamedTuple

import transpile as tp
import transpile.numpy as np_
from transpile import lax

LEARNING_RATE = 1e-3
''',
    "jax": '''"""Model code, module {index}."""
from __future__ import annotations

import dataclasses
from functools import partial
from typing import NamedTuple

import jax
import jax.numpy as np_
from jax import lax

LEARNING_RATE = 1e-3
''',
}
JIT = {"transpile": "tp.jit", "jax": "jax.jit"}

TEMPLATES = [
    '''

class Params{i}(NamedTuple):
    weights: object
    bias: object


def init_{i}(width, depth):
    """Plain Python set-up code, never jitted."""
    layers = []
    for level in range(depth):
        scale = 1.0 / (width + level)
        layers.append(Params{i}(np_.ones((width, width)) * scale, np_.zeros((width,))))
    return layers


def predict_{i}(params, x):
    for layer in params[:-1]:
        x = np_.tanh(x @ layer.weights + layer.bias)
    last = params[-1]
    return x @ last.weights + last.bias


def loss_{i}(params, x, y):
    error = predict_{i}(params, x) - y
    return np_.mean(error * error)


@{jit}
def sgd_step_{i}(params, x, y):
    """A training step: the optimizer update returns new state."""
    grads = [Params{i}(p.weights * 0.1, p.bias * 0.1) for p in params]
    new_params = []
    for p, g in zip(params, grads):
        new_params.append(Params{i}(p.weights - LEARNING_RATE * g.weights, p.bias - LEARNING_RATE * g.bias))
    return new_params, loss_{i}(params, x, y)
''',
    '''

@{jit}
def laplacian_{i}(u):
    """Five-point stencil with shape-dependent set-up."""
    n, m = u.shape
    if n < 3 or m < 3:
        return u
    interior = u[1:-1, 1:-1]
    out = np_.zeros_like(u)
    stencil = u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:] - 4.0 * interior
    return out.at[1:-1, 1:-1].set(stencil)


@partial({jit}, static_argnames=("steps",))
def diffuse_{i}(u, alpha, steps):
    def body(_, v):
        return v + alpha * laplacian_{i}(v)

    for _ in range(steps // 10):
        u = lax.fori_loop(0, 10, body, u)
    return u
''',
    '''

@{jit}
def newton_{i}(x0, target):
    """Newton iteration in a lax.while_loop."""

    def cond(state):
        x, err, k = state
        return np_.logical_and(err > 1e-6, k < 50)

    def body(state):
        x, _, k = state
        fx = x * x - target
        step = fx / (2.0 * x)
        return x - step, np_.max(np_.abs(step)), k + 1

    x, err, iterations = lax.while_loop(cond, body, (x0, np_.inf, 0))
    return x, err


def report_{i}(x0, target):
    x, err = newton_{i}(x0, target)
    if float(err) > 1e-3:
        print("did not converge", err)
    return x
''',
    '''

@dataclasses.dataclass(frozen=True)
class Config{i}:
    hidden: int = 32
    momentum: float = 0.9
    use_bias: bool = True


def momentum_update_{i}(velocity, grad, config):
    return [config.momentum * v + g for v, g in zip(velocity, grad)]


@partial({jit}, static_argnums=(2,))
def train_step_{i}(state, batch, config):
    """Pytree state, a static config dataclass, and a helper."""
    params, velocity = state
    inputs, labels = batch
    logits = inputs @ params[0]
    if config.use_bias:
        logits = logits + params[1]
    grad = [inputs.T @ (logits - labels), np_.sum(logits - labels, axis=0)]
    velocity = momentum_update_{i}(velocity, grad, config)
    params = [p - LEARNING_RATE * v for p, v in zip(params, velocity)]
    return (params, velocity), np_.mean((logits - labels) ** 2)
''',
    '''

@{jit}
def rnn_{i}(weights, xs, h0):
    """A recurrent layer as lax.scan over time."""

    def cell(h, x):
        h = np_.tanh(weights["hh"] @ h + weights["xh"] @ x)
        return h, h @ weights["out"]

    h, ys = lax.scan(cell, h0, xs)
    return ys, h


@{jit}
def softmax_{i}(logits, temperature=1.0):
    z = logits / temperature
    z = z - np_.max(z, axis=-1, keepdims=True)
    e = np_.exp(z)
    return e / np_.sum(e, axis=-1, keepdims=True)
''',
    '''

class Layer{i}:
    def __init__(self, width, activation="relu"):
        self.width = width
        self.activation = activation

    @partial({jit}, static_argnums=0)
    def __call__(self, x):
        if self.activation == "relu":
            return np_.maximum(x[..., : self.width], 0.0)
        return self._smooth(x)

    def _smooth(self, x):
        return np_.log1p(np_.exp(x[..., : self.width]))
''',
    '''

@{jit}
def pairwise_{i}(points):
    """Pairwise distances: broadcasting, reductions and where."""
    diff = points[:, None, :] - points[None, :, :]
    dist = np_.sqrt(np_.sum(diff * diff, axis=-1))
    nearest = np_.where(dist > 0, dist, np_.inf)
    return np_.min(nearest, axis=1)


@{jit}
def clip_norm_{i}(grads, max_norm):
    total = np_.sqrt(sum(np_.sum(g * g) for g in grads))
    scale = np_.minimum(1.0, max_norm / (total + 1e-6))
    return [g * scale for g in grads]
''',
    '''

@{jit}
def power_iteration_{i}(matrix, vector):
    def body(k, v):
        w = matrix @ v
        return w / np_.sqrt(np_.sum(w * w))

    v = lax.fori_loop(0, 20, body, vector)
    return v @ (matrix @ v)


@{jit}
def threshold_{i}(x, level):
    """Hazard: Python branch on a traced value (TP101)."""
    if np_.max(x) > level:
        return x - level
    return x
''',
    '''

@{jit}
def count_steps_{i}(x, n):
    """Hazard: a Python while on a traced argument (TP101)."""
    k = 0
    while k < n:
        x = x * 0.5
        k += 1
    return x


@{jit}
def positives_{i}(x):
    """Hazard: a data-dependent shape (TP105)."""
    return x[x > 0].sum()
''',
]

PLAIN = '''"""Utilities, module {index}: never jitted."""
import json
import math
from pathlib import Path


def load_{i}(path):
    with open(Path(path)) as handle:
        data = json.load(handle)
    if not data:
        return []
    return [float(item) for item in data]


def summarize_{i}(values):
    if len(values) < 2:
        return {{"mean": values[0] if values else math.nan}}
    mean = sum(values) / len(values)
    spread = math.sqrt(sum((v - mean) ** 2 for v in values) / (len(values) - 1))
    return {{"mean": mean, "spread": spread}}
'''


def generate(root: Path, lines: int, functions: int = 10, seed: int = 0) -> None:
    """Write modules until the tree holds about `lines` lines."""
    rng = random.Random(seed)
    total = index = 0
    while total < lines:
        folder = root / f"pkg{index % 10}" / f"sub{index % 7}"
        folder.mkdir(parents=True, exist_ok=True)
        if index % 10 == 9:
            text = "".join(PLAIN.format(i=i, index=index) for i in range(functions))
        else:
            flavour = "jax" if index % 2 else "transpile"
            parts = [HEADERS[flavour].format(index=index)]
            parts += [rng.choice(TEMPLATES).format(i=i, jit=JIT[flavour]) for i in range(functions)]
            text = "".join(parts)
        (folder / f"mod{index}.py").write_text(text)
        total += text.count("\n")
        index += 1
    (root / ".gitignore").write_text("build/\n")


def files_of(root: Path) -> list[str]:
    return [str(p) for p in Walker(LintConfig(root=root).exclude, root).files([root])]


def lint_seconds(root: Path, files: list[str], jobs: int) -> tuple[float, float, int, int]:
    """(wall seconds, this process's CPU seconds, lines, findings)."""
    start, cpu = time.perf_counter(), time.process_time()
    results = run(files, Job(LintConfig(root=root)), jobs)
    elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
    return elapsed, cpu, sum(r.lines for r in results), sum(len(r.findings) for r in results)


def libcst_parse_seconds(files: list[str]) -> tuple[float, float]:
    import libcst

    start, cpu = time.perf_counter(), time.process_time()
    for path in files:
        libcst.parse_module(Path(path).read_text())
    return time.perf_counter() - start, time.process_time() - cpu


TEST_FILE = re.compile(r"(_test\.py$|/tests?/|/test_[^/]*$|/conftest\.py$)")


def real_tree(roots: list[Path], with_tests: bool, repeat: int, show: bool) -> None:
    """Lines per CPU-second of one process over real code, and its findings per 100k lines."""
    files = [str(p) for root in roots for p in Walker(LintConfig(root=root).exclude, root, False).files([root])]
    files = [path for path in files if with_tests or not TEST_FILE.search(path)]
    run(files[:3], Job(LintConfig()), 1)  # imports and first-use tables, as a long run has them
    seconds = []
    for _ in range(repeat):
        start = time.process_time()
        results = run(files, Job(LintConfig()), 1)
        seconds.append(time.process_time() - start)
    lines = sum(r.lines for r in results)
    findings = [f for r in results for f in r.findings]
    cpu = statistics.median(seconds)
    print(f"{len(files)} files, {lines:,} lines: {cpu:.2f} CPU-s (median of {repeat}), {lines / cpu:,.0f} lines/CPU-s, "
          f"load {os.getloadavg()[0]:.1f}; {len(findings)} findings ({100_000 * len(findings) / max(lines, 1):.2f} per 100k lines)")
    for finding in findings if show else []:
        print(f"  {finding.path}:{finding.line}: {finding.code} {finding.message}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=60_000)
    parser.add_argument("--jobs", type=int, default=2, help="workers for the parallel run")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--tree", type=Path, nargs="+", help="lint these folders of real code instead")
    parser.add_argument("--with-tests", action="store_true", help="--tree: keep test files")
    parser.add_argument("--show-findings", action="store_true", help="--tree: list every finding")
    args = parser.parse_args()
    if args.tree:
        real_tree(args.tree, args.with_tests, args.repeat, args.show_findings)
        return
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        generate(root, args.lines)
        files = files_of(root)
        print(f"cpus: {os.cpu_count()}, load: {os.getloadavg()[0]:.1f}")
        lines = findings = 0
        parallel = f"lint, --jobs {args.jobs}"
        wall: dict[str, list[float]] = {"libcst parse": [], "lint, 1 process": [], parallel: []}
        cpu: dict[str, list[float]] = {"libcst parse": [], "lint, 1 process": []}
        for _ in range(args.repeat):
            seconds, cpu_seconds = libcst_parse_seconds(files)
            wall["libcst parse"].append(seconds)
            cpu["libcst parse"].append(cpu_seconds)
            seconds, cpu_seconds, lines, findings = lint_seconds(root, files, 1)
            wall["lint, 1 process"].append(seconds)
            cpu["lint, 1 process"].append(cpu_seconds)
            wall[parallel].append(lint_seconds(root, files, args.jobs)[0])
        print(f"{len(files)} files, {lines} lines, {findings} findings (median of {args.repeat})")
        print(f"{'':>18}  {'wall':>8} {'lines/s':>9}   {'CPU':>7} {'lines/s':>9}  (CPU: this process only; on a")
        print(f"{'':>18}  {'':>8} {'':>9}   {'':>7} {'':>9}   busy machine wall time counts waiting)")
        for label, samples in wall.items():
            seconds = statistics.median(samples)
            row = f"{label:>18}: {seconds:6.2f} s {lines / seconds:>9,.0f}"
            if label in cpu:
                cpu_seconds = statistics.median(cpu[label])
                row += f"   {cpu_seconds:5.2f} s {lines / cpu_seconds:>9,.0f}"
            print(row)


if __name__ == "__main__":
    main()
