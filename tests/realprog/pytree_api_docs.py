"""JAX's docs on pytrees and the less common transformations: an MLP's parameters built and
updated with jax.tree.map / jax.tree.leaves / jax.tree.reduce, a custom pytree class
registered with register_pytree_node_class, jnp.vectorize with a gufunc signature, a running
maximum and a linear recurrence by lax.associative_scan, lax.map with batch_size, and
jax.tree_util.tree_flatten_with_path's key strings turned into per-layer norms."""
import jax
import jax.numpy as jnp
import numpy as np
from jax import lax


@jax.tree_util.register_pytree_node_class
class Linear:
    def __init__(self, w, b):
        self.w, self.b = w, b

    def __call__(self, x):
        return x @ self.w + self.b

    def tree_flatten(self):
        return (self.w, self.b), None

    @classmethod
    def tree_unflatten(cls, aux, children):
        return cls(*children)


def init(key, sizes):
    keys = jax.random.split(key, len(sizes) - 1)
    return [Linear(jax.random.normal(k, (m, n)) * jnp.sqrt(2.0 / m), jnp.zeros(n))
            for k, m, n in zip(keys, sizes[:-1], sizes[1:])]


def forward(layers, x):
    for layer in layers[:-1]:
        x = jax.nn.relu(layer(x))
    return layers[-1](x)


@jnp.vectorize
def huber(r):
    return jnp.where(jnp.abs(r) < 1.0, 0.5 * r ** 2, jnp.abs(r) - 0.5)


@jax.jit
def program(xs, ys, series):
    layers = init(jax.random.PRNGKey(0), [3, 8, 8, 1])
    loss = lambda p: jnp.mean(huber(forward(p, xs)[:, 0] - ys))
    for _ in range(5):
        grads = jax.grad(loss)(layers)
        layers = jax.tree.map(lambda p, g: p - 0.05 * g, layers, grads)
    count = jax.tree.reduce(lambda a, b: a + b, jax.tree.map(jnp.size, layers))
    paths, _ = jax.tree_util.tree_flatten_with_path(layers)
    norms = jnp.stack([jnp.linalg.norm(leaf) for _, leaf in paths])
    covariance = jnp.vectorize(lambda a, b: jnp.outer(a, b), signature="(n),(m)->(n,m)")(
        xs[:4], xs[4:8])
    running_max = lax.associative_scan(jnp.maximum, series)
    decay, inputs = jnp.full_like(series, 0.9), series

    def combine(left, right):
        return left[0] * right[0], right[0] * left[1] + right[1]

    _, ema = lax.associative_scan(combine, (decay, inputs))
    squares = lax.map(lambda row: jnp.sum(row ** 2), xs, batch_size=4)
    return (loss(layers), count, norms, covariance, running_max, ema, squares,
            jax.tree.leaves(layers)[0])


def inputs():
    rng = np.random.default_rng(28)
    xs = rng.standard_normal((10, 3)).astype(np.float32)
    ys = (xs[:, 0] - 2 * xs[:, 1] * xs[:, 2]).astype(np.float32)
    return xs, ys, rng.standard_normal(12).astype(np.float32)
