"""Learning-rate schedules and optimiser transforms as optax writes them: warmup+cosine decay
with jnp.where/lax.cond, piecewise constant via jnp.sum of boundaries, global-norm clipping
over a pytree, weight decay masks, and an EMA of parameters, over 100 steps in scan."""
import jax
import jax.numpy as jnp
import numpy as np


def warmup_cosine(step, peak=1e-2, warmup=10, total=100):
    warm = peak * step / warmup
    prog = jnp.clip((step - warmup) / (total - warmup), 0.0, 1.0)
    cos = 0.5 * peak * (1 + jnp.cos(jnp.pi * prog))
    return jnp.where(step < warmup, warm, cos)


def piecewise(step):
    bounds = jnp.array([20, 50, 80])
    return 1e-2 * 0.5 ** jnp.sum(step >= bounds)


def clip_by_global_norm(g, max_norm):
    norm = jnp.sqrt(sum(jnp.sum(x ** 2) for x in jax.tree_util.tree_leaves(g)))
    scale = jnp.minimum(1.0, max_norm / (norm + 1e-6))
    return jax.tree_util.tree_map(lambda x: x * scale, g), norm


@jax.jit
def program(w, b, x, y):
    params = {"w": w, "b": b}
    def loss(p):
        return jnp.mean((jnp.tanh(x @ p["w"] + p["b"]) - y) ** 2)
    def step(carry, t):
        p, ema = carry
        g = jax.grad(loss)(p)
        g, n = clip_by_global_norm(g, 0.5)
        lr = jax.lax.cond(t % 2 == 0, lambda: warmup_cosine(t), lambda: piecewise(t))
        p = jax.tree_util.tree_map(lambda p, g, m: p - lr * (g + m * 1e-4 * p), p, g, {"w": 1.0, "b": 0.0})
        ema = jax.tree_util.tree_map(lambda e, p: 0.9 * e + 0.1 * p, ema, p)
        return (p, ema), (lr, n)
    (p, ema), (lrs, norms) = jax.lax.scan(step, (params, params), jnp.arange(100))
    return p, ema, lrs, norms, loss(p)


def inputs():
    rng = np.random.default_rng(24)
    return ((rng.normal(size=(5, 3)) * 0.3).astype(np.float32), np.zeros(3, np.float32),
            rng.normal(size=(40, 5)).astype(np.float32), rng.uniform(-0.9, 0.9, (40, 3)).astype(np.float32))
