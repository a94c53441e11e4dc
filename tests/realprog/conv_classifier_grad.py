"""A small CNN (lax.conv_general_dilated, NHWC, SAME), avg pooling, cross-entropy with
optax-like one_hot labels; one SGD step's gradients."""
import jax
import jax.numpy as jnp
from jax import lax
import numpy as np


def net(params, x):
    dn = lax.conv_dimension_numbers(x.shape, params["k1"].shape, ("NHWC", "HWIO", "NHWC"))
    h = lax.conv_general_dilated(x, params["k1"], (1, 1), "SAME", dimension_numbers=dn)
    h = jax.nn.relu(h + params["b1"])
    h = lax.reduce_window(h, 0.0, lax.add, (1, 2, 2, 1), (1, 2, 2, 1), "VALID") / 4.0
    dn2 = lax.conv_dimension_numbers(h.shape, params["k2"].shape, ("NHWC", "HWIO", "NHWC"))
    h = lax.conv_general_dilated(h, params["k2"], (2, 2), ((1, 1), (1, 1)), dimension_numbers=dn2)
    h = jax.nn.silu(h).mean(axis=(1, 2))
    return h @ params["w"]


def loss(params, x, labels):
    logits = net(params, x)
    return -jnp.mean(jnp.sum(jax.nn.one_hot(labels, 5) * jax.nn.log_softmax(logits), -1))


@jax.jit
def program(x, labels, k1, k2, w):
    params = {"k1": k1, "b1": jnp.zeros(k1.shape[-1]), "k2": k2, "w": w}
    l, g = jax.value_and_grad(loss)(params, x, labels)
    new = jax.tree_util.tree_map(lambda p, g: p - 0.1 * g, params, g)
    return l, g, loss(new, x, labels), jnp.argmax(net(new, x), -1)


def inputs():
    rng = np.random.default_rng(6)
    return (rng.normal(size=(4, 12, 12, 3)).astype(np.float32), rng.integers(0, 5, 4).astype(np.int32),
            (rng.normal(size=(3, 3, 3, 8)) * 0.3).astype(np.float32),
            (rng.normal(size=(3, 3, 8, 8)) * 0.2).astype(np.float32),
            (rng.normal(size=(8, 5)) * 0.3).astype(np.float32))
