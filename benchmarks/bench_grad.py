"""Reverse mode: value_and_grad of an MLP loss, and what compiling a gradient costs.

Usage:  python benchmarks/bench_grad.py [--repeats 20]
        (with JAX importable, e.g. PYTHONPATH=. /tmp/jaxenv/bin/python benchmarks/bench_grad.py,
        a JAX column is added: jax.jit(jax.value_and_grad(loss)) on the same data)

The loss: batch 128, layers 784-512-512-10 (tanh, tanh, softmax cross-entropy), in float32
and float64. Times are medians of `--repeats` calls after a warm-up, in milliseconds, wall
clock, both libraries in this one process. The second table compares the time to trace and
compile jit(value_and_grad(loss)) with jit(loss) itself (each in a fresh cache directory, so
the C compiler runs; the issue's target: at most 2x).
"""
from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time

import numpy as np

os.environ.setdefault("TRANSPILE_CACHE_DIR", tempfile.mkdtemp(prefix="tp-bench-grad-"))

import transpile as tp  # noqa: E402
import transpile.numpy as tnp  # noqa: E402

try:
    import jax  # noqa: E402
    import jax.numpy as jnp  # noqa: E402
except ImportError:
    jax = jnp = None

SIZES = (784, 512, 512, 10)
BATCH = 128


def make_loss(np_):
    def loss(params, x, labels):
        h = x
        for i, (w, b) in enumerate(params):
            h = h @ w + b
            if i < len(params) - 1:
                h = np_.tanh(h)
        logits = h - np_.max(h, axis=1, keepdims=True)
        logp = logits - np_.log(np_.sum(np_.exp(logits), axis=1, keepdims=True))
        return -np_.mean(np_.sum(logp * labels, axis=1))
    return loss


def data(dtype):
    rng = np.random.default_rng(0)
    params = [((rng.normal(size=(a, b)) / np.sqrt(a)).astype(dtype), np.zeros(b, dtype))
              for a, b in zip(SIZES[:-1], SIZES[1:])]
    x = rng.normal(size=(BATCH, SIZES[0])).astype(dtype)
    labels = np.eye(SIZES[-1], dtype=dtype)[rng.integers(0, SIZES[-1], BATCH)]
    return params, x, labels


def median_ms(fn, args, repeats, block=lambda r: r):
    block(fn(*args))
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        block(fn(*args))
        times.append(time.perf_counter() - start)
    return 1e3 * statistics.median(times)


def compile_seconds(fun, args):
    """Trace and compile `fun` under jit in a fresh cache directory (so gcc runs)."""
    saved = os.environ["TRANSPILE_CACHE_DIR"]
    os.environ["TRANSPILE_CACHE_DIR"] = tempfile.mkdtemp(prefix="tp-bench-grad-compile-")
    try:
        start = time.perf_counter()
        tp.jit(fun)(*args)
        return time.perf_counter() - start
    finally:
        os.environ["TRANSPILE_CACHE_DIR"] = saved


def make_rnn_loss(np_, lax_):
    """An Elman RNN over T steps (lax.scan), squared error on the last hidden state."""
    def loss(params, xs, target):
        w_h, w_x = params

        def step(h, x):
            h = np_.tanh(h @ w_h + x @ w_x)
            return h, None
        h, _ = lax_.scan(step, np_.zeros((xs.shape[1], w_h.shape[0]), xs.dtype), xs)
        return np_.mean((h - target) ** 2)
    return loss


def rnn_data(dtype, steps=50, batch=32, hidden=128, features=16):
    rng = np.random.default_rng(1)
    params = ((rng.normal(size=(hidden, hidden)) / np.sqrt(hidden)).astype(dtype),
              (rng.normal(size=(features, hidden)) / np.sqrt(features)).astype(dtype))
    xs = rng.normal(size=(steps, batch, features)).astype(dtype)
    target = rng.normal(size=(batch, hidden)).astype(dtype)
    return params, xs, target


def make_newton(np_, jacfwd, solve):
    """One Newton step on F(x) = A tanh(x) + x - b (n unknowns), its Jacobian by jacfwd."""
    def residual(x, a, b):
        return a @ np_.tanh(x) + x - b

    def step(x, a, b):
        return x - solve(jacfwd(residual)(x, a, b), residual(x, a, b))
    return step


def newton_data(n=32):
    rng = np.random.default_rng(2)
    return rng.normal(size=n), rng.normal(size=(n, n)) / n, rng.normal(size=n)


def _jax_row(name, tp_fun, jax_fun, args, repeats):
    tp_ms = median_ms(tp_fun, args, repeats)
    jax_ms = None
    if jax is not None:
        jargs = jax.tree_util.tree_map(jnp.asarray, args)
        jax_ms = median_ms(jax_fun, jargs, repeats, block=jax.block_until_ready)
    ratio = f"{jax_ms / tp_ms:13.2f}" if jax_ms else f"{'-':>13}"
    jax_text = f"{jax_ms:10.3f}" if jax_ms else f"{'-':>10}"
    print(f"{name:26} {tp_ms:10.3f} {jax_text} {ratio}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeats", type=int, default=20)
    args = parser.parse_args()
    print(f"value_and_grad of an MLP loss, batch {BATCH}, layers {'-'.join(map(str, SIZES))} "
          f"(median ms)")
    print(f"{'dtype':8} {'transpile':>10} {'jax':>10} {'ratio jax/tp':>13}")
    for dtype in (np.float32, np.float64):
        params, x, labels = data(dtype)
        tp_fun = tp.jit(tp.value_and_grad(make_loss(tnp)))
        tp_ms = median_ms(tp_fun, (params, x, labels), args.repeats)
        jax_ms = None
        if jax is not None:
            jax.config.update("jax_enable_x64", True)
            jax_fun = jax.jit(jax.value_and_grad(make_loss(jnp)))
            jparams = jax.tree_util.tree_map(jnp.asarray, params)
            jax_ms = median_ms(jax_fun, (jparams, jnp.asarray(x), jnp.asarray(labels)),
                               args.repeats, block=jax.block_until_ready)
        ratio = f"{jax_ms / tp_ms:13.2f}" if jax_ms else f"{'-':>13}"
        jax_text = f"{jax_ms:10.2f}" if jax_ms else f"{'-':>10}"
        print(f"{np.dtype(dtype).name:8} {tp_ms:10.2f} {jax_text} {ratio}")
    print(f"\n{'program (median ms)':26} {'transpile':>10} {'jax':>10} {'ratio jax/tp':>13}")
    from transpile import lax as tlax
    for dtype in (np.float32, np.float64):
        rnn = make_rnn_loss(tnp, tlax)
        jrnn = make_rnn_loss(jnp, jax.lax) if jax is not None else None
        _jax_row(f"RNN scan grad {np.dtype(dtype).name}", tp.jit(tp.value_and_grad(rnn)),
                 jax.jit(jax.value_and_grad(jrnn)) if jax is not None else None,
                 rnn_data(dtype), args.repeats)
    newton = make_newton(tnp, tp.jacfwd, tnp.linalg.solve)
    jnewton = make_newton(jnp, jax.jacfwd, jnp.linalg.solve) if jax is not None else None
    _jax_row("jacfwd Newton step n=32", tp.jit(newton),
             jax.jit(jnewton) if jax is not None else None, newton_data(), args.repeats)
    params, x, labels = data(np.float32)
    loss = make_loss(tnp)
    plain = compile_seconds(loss, (params, x, labels))
    with_grad = compile_seconds(tp.value_and_grad(loss), (params, x, labels))
    print(f"\ncompile (trace + gcc), float32: jit(loss) {plain:.2f} s, "
          f"jit(value_and_grad(loss)) {with_grad:.2f} s, ratio {with_grad / plain:.2f}")


if __name__ == "__main__":
    main()
