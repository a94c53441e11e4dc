"""vmap: one batched compiled program against a Python loop of jitted per-example calls (and
against jax.jit(jax.vmap(...)) when JAX is importable).

Usage:  python benchmarks/bench_vmap.py [--quick]

Patterns
--------
* pairwise: Euclidean distances between every pair of N points (vmap of vmap), float64.
* mlp: a per-example MLP forward pass (784-512-10, tanh), weights shared (in_axes None),
  a batch of 256 examples, float32.
* halvings: per-example while_loop with a batched predicate (each lane halves its value
  until it drops below 1; lanes finish at different steps), float64.
* per_example_grads: vmap(grad(loss)) of a 784-128-10 MLP's squared error over 128
  examples, float32 (only where transpile has `grad`, i.e. with transpile/autodiff merged).
  Its output is 128 full gradients (50 MB): memory traffic, not call overhead, bounds it.

Method: every column runs in this one process on the same inputs, after a warm-up call that
compiles it and a check of its answer against the loop; a sample is a few back-to-back calls
timed with perf_counter (each side first runs untimed for a moment so the other side's idle
threads have gone to sleep, harness.settle); the table shows medians. The loop column calls
one jitted per-example function N times from Python (what a user writes without vmap); the
hand column is the same computation written batched by hand and jitted (vmap's overhead). The
run uses a temporary TRANSPILE_CACHE_DIR.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
os.environ.setdefault("TRANSPILE_CACHE_DIR", tempfile.mkdtemp(prefix="tp-bench-vmap-"))

import transpile as tp  # noqa: E402
import transpile.numpy as tnp  # noqa: E402
from transpile import lax  # noqa: E402

from harness import settle  # noqa: E402

try:
    import jax
    import jax.numpy as jnp
except Exception:          # not installed (or broken): its column says so
    jax = jnp = None


def median_seconds(call, repeats, inner=3):
    settle(call)
    samples = []
    for _ in range(repeats):
        start = time.perf_counter()
        for _ in range(inner):
            call()
        samples.append((time.perf_counter() - start) / inner)
    return statistics.median(samples)


# -- the per-example programs, written once for transpile.numpy and jax.numpy ---------------

def distance(np_, a, b):
    return np_.sqrt(np_.sum((a - b) ** 2))


def mlp(np_, params, x):
    (w1, b1), (w2, b2) = params
    return np_.tanh(x @ w1 + b1) @ w2 + b2


def pairwise_by_hand(np_, a, b):
    return np_.sqrt(np_.sum((a[:, None, :] - b[None, :, :]) ** 2, axis=-1))


def halvings(lax_, np_, x):
    return lax_.while_loop(lambda s: s[0] >= 1.0, lambda s: (s[0] * 0.5, s[1] + 1),
                           (np_.abs(x), 0))[1]


def mlp_loss(np_, params, x, y):
    return ((mlp(np_, params, x) - y) ** 2).sum()


def _has_grad() -> bool:
    try:
        return callable(tp.grad)
    except AttributeError:
        return False


def cases(quick):
    rng = np.random.default_rng(0)
    n_points = 256 if quick else 512
    points = rng.standard_normal((n_points, 64))
    params = ((rng.standard_normal((784, 512)).astype(np.float32) * 0.05,
               np.zeros(512, np.float32)),
              (rng.standard_normal((512, 10)).astype(np.float32) * 0.05,
               np.zeros(10, np.float32)))
    batch = rng.standard_normal((256, 784)).astype(np.float32)
    values = rng.standard_normal(4096) * 1e6
    small = ((rng.standard_normal((784, 128)).astype(np.float32) * 0.05,
              np.zeros(128, np.float32)),
             (rng.standard_normal((128, 10)).astype(np.float32) * 0.05, np.zeros(10, np.float32)))
    targets = rng.standard_normal((128, 10)).astype(np.float32)
    found = {
        "pairwise": dict(
            tp=lambda: tp.jit(tp.vmap(tp.vmap(lambda a, b: distance(tnp, a, b), (None, 0)),
                                      (0, None))),
            loop_one=lambda: tp.jit(tp.vmap(lambda a, b: distance(tnp, a, b), (None, 0))),
            jax=lambda: jax.jit(jax.vmap(jax.vmap(lambda a, b: distance(jnp, a, b),
                                                  (None, 0)), (0, None))),
            hand=lambda: tp.jit(lambda a, b: pairwise_by_hand(tnp, a, b)),
            args=(points, points), loop_arg=0, rtol=1e-9),
        "mlp": dict(
            tp=lambda: tp.jit(tp.vmap(lambda p, x: mlp(tnp, p, x), (None, 0))),
            loop_one=lambda: tp.jit(lambda p, x: mlp(tnp, p, x)),
            jax=lambda: jax.jit(jax.vmap(lambda p, x: mlp(jnp, p, x), (None, 0))),
            hand=lambda: tp.jit(lambda p, x: mlp(tnp, p, x)),    # already batch-polymorphic
            args=(params, batch), loop_arg=1, rtol=1e-4),
        "halvings": dict(
            tp=lambda: tp.jit(tp.vmap(lambda x: halvings(lax, tnp, x))),
            loop_one=lambda: tp.jit(lambda x: halvings(lax, tnp, x)),
            jax=lambda: jax.jit(jax.vmap(lambda x: halvings(jax.lax, jnp, x))),
            hand=None,           # a per-lane while loop has no one-line batched spelling
            args=(values,), loop_arg=0, rtol=0),
    }
    if _has_grad():
        grad_of = lambda np_: (lambda p, x, y: mlp_loss(np_, p, x, y))  # noqa: E731
        found["per_example_grads"] = dict(
            tp=lambda: tp.jit(tp.vmap(tp.grad(grad_of(tnp)), (None, 0, 0))),
            loop_one=lambda: tp.jit(tp.grad(grad_of(tnp))),
            jax=lambda: jax.jit(jax.vmap(jax.grad(grad_of(jnp)), (None, 0, 0))),
            hand=None, args=(small, batch[:128], targets), loop_arg=(1, 2), rtol=1e-3)
    return found


def loop_call(one, args, loop_arg):
    """The per-example function called once per member of the mapped argument(s) (an index
    or a tuple of them), its results (arrays or pytrees) stacked."""
    mapped = loop_arg if isinstance(loop_arg, tuple) else (loop_arg,)

    def call():
        rest = list(args)
        outs = []
        for i in range(len(args[mapped[0]])):
            for k in mapped:
                rest[k] = args[k][i]
            outs.append(one(*rest))
        return tp.tree_util.tree_map(lambda *xs: np.stack(xs), *outs)
    return call


def check_close(got, expected, rtol):
    got, expected = tp.tree_util.tree_leaves(got), tp.tree_util.tree_leaves(expected)
    assert len(got) == len(expected)
    for g, e in zip(got, expected):
        np.testing.assert_allclose(np.asarray(g), e, rtol=rtol, atol=max(rtol, 1e-6))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    quick = parser.parse_args().quick
    repeats = 5 if quick else 15
    print(f"{'pattern':18} {'vmap (ms)':>10} {'hand (ms)':>10} {'loop (ms)':>10} "
          f"{'loop/vmap':>10} {'jax (ms)':>10} {'jax/vmap':>9}")
    for name, case in cases(quick).items():
        args = case["args"]
        batched = case["tp"]()
        expected = loop_call(case["loop_one"](), args, case["loop_arg"])()
        got = batched(*args)
        check_close(got, expected, case["rtol"])
        t_vmap = median_seconds(lambda: batched(*args), repeats)
        t_loop = median_seconds(loop_call(case["loop_one"](), args, case["loop_arg"]),
                                max(3, repeats // 3), inner=1)
        hand_text = f"{'n/a':>10}"
        if case["hand"] is not None:
            hand = case["hand"]()
            check_close(hand(*args), expected, case["rtol"])
            hand_text = f"{median_seconds(lambda: hand(*args), repeats) * 1e3:10.3f}"
        jax_text = f"{'n/a':>10} {'':>9}"
        if jax is not None:
            jfn = case["jax"]()
            jargs = jax.tree_util.tree_map(jnp.asarray, args)
            check_close(jfn(*jargs), expected, max(case["rtol"], 1e-4))
            t_jax = median_seconds(lambda: jax.block_until_ready(jfn(*jargs)), repeats)
            jax_text = f"{t_jax * 1e3:10.3f} {t_jax / t_vmap:9.2f}"
        print(f"{name:18} {t_vmap * 1e3:10.3f} {hand_text} {t_loop * 1e3:10.2f} "
              f"{t_loop / t_vmap:10.1f} {jax_text}")


if __name__ == "__main__":
    main()
