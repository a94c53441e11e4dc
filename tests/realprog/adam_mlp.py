"""An optax-style Adam loop written by hand: MLP regression, value_and_grad, tree_map updates."""
import jax
import jax.numpy as jnp
import numpy as np


def init(key, sizes):
    params = []
    for i, (m, n) in enumerate(zip(sizes[:-1], sizes[1:])):
        k1, key = jax.random.split(key)
        params.append({"w": jax.random.normal(k1, (m, n)) * jnp.sqrt(2.0 / m), "b": jnp.zeros(n)})
    return params


def forward(params, x):
    for layer in params[:-1]:
        x = jax.nn.gelu(x @ layer["w"] + layer["b"])
    return x @ params[-1]["w"] + params[-1]["b"]


def loss(params, x, y):
    return jnp.mean((forward(params, x) - y) ** 2)


@jax.jit
def program(x, y):
    params = init(jax.random.PRNGKey(0), [3, 16, 16, 1])
    m = jax.tree_util.tree_map(jnp.zeros_like, params)
    v = jax.tree_util.tree_map(jnp.zeros_like, params)
    def step(carry, t):
        params, m, v = carry
        l, g = jax.value_and_grad(loss)(params, x, y)
        m = jax.tree_util.tree_map(lambda m, g: 0.9 * m + 0.1 * g, m, g)
        v = jax.tree_util.tree_map(lambda v, g: 0.999 * v + 0.001 * g * g, v, g)
        tt = t + 1
        mhat = jax.tree_util.tree_map(lambda m: m / (1 - 0.9 ** tt), m)
        vhat = jax.tree_util.tree_map(lambda v: v / (1 - 0.999 ** tt), v)
        params = jax.tree_util.tree_map(lambda p, a, b: p - 1e-2 * a / (jnp.sqrt(b) + 1e-8), params, mhat, vhat)
        return (params, m, v), l
    (params, m, v), losses = jax.lax.scan(step, (params, m, v), jnp.arange(50))
    return losses, params


def inputs():
    rng = np.random.default_rng(0)
    x = rng.normal(size=(64, 3)).astype(np.float32)
    y = (np.sin(x[:, :1]) + x[:, 1:2] * x[:, 2:3]).astype(np.float32)
    return x, y
