"""Per-example gradients as in JAX's docs: vmap of grad with in_axes=(None, 0, 0) over a
linear model's squared loss, plus their per-example norms and a clipped mean (DP-SGD style)."""
import jax
import jax.numpy as jnp
import numpy as np


def loss(params, x, y):
    w, b = params
    pred = jnp.dot(x, w) + b
    return 0.5 * (pred - y) ** 2


@jax.jit
def program(w, b, xs, ys):
    grads_w, grads_b = jax.vmap(jax.grad(loss), in_axes=(None, 0, 0))((w, b), xs, ys)
    norms = jnp.sqrt(jnp.sum(grads_w ** 2, axis=1) + grads_b ** 2)
    scale = jnp.minimum(1.0, 1.0 / (norms + 1e-6))
    clipped = jnp.mean(grads_w * scale[:, None], axis=0)
    return grads_w, grads_b, norms, clipped


def inputs():
    rng = np.random.default_rng(6)
    w = rng.standard_normal(5).astype(np.float32)
    b = np.float32(0.3)
    xs = rng.standard_normal((10, 5)).astype(np.float32)
    ys = rng.standard_normal(10).astype(np.float32)
    return w, np.asarray(b), xs, ys
