"""A small convolutional classifier trained by hand in the style of JAX's CNN tutorials:
lax.conv_general_dilated with NHWC/HWIO dimension numbers and SAME padding, max pooling by
lax.reduce_window, jax.nn.log_softmax cross-entropy with one_hot labels, value_and_grad over a
params dict and a few jitted SGD steps with a momentum buffer kept by jax.tree_util."""
import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

DN = ("NHWC", "HWIO", "NHWC")


def init(key):
    k1, k2, k3 = jax.random.split(key, 3)
    return {"conv1": jax.random.normal(k1, (3, 3, 1, 4)) * 0.3,
            "conv2": jax.random.normal(k2, (3, 3, 4, 8)) * 0.2,
            "dense": jax.random.normal(k3, (2 * 2 * 8, 3)) * 0.1, "bias": jnp.zeros(3)}


def max_pool(x):
    return lax.reduce_window(x, -jnp.inf, lax.max, (1, 2, 2, 1), (1, 2, 2, 1), "VALID")


def forward(params, images):
    x = lax.conv_general_dilated(images, params["conv1"], (1, 1), "SAME",
                                 dimension_numbers=DN)
    x = max_pool(jax.nn.relu(x))
    x = lax.conv_general_dilated(x, params["conv2"], (1, 1), "SAME", dimension_numbers=DN)
    x = max_pool(jax.nn.gelu(x))
    return x.reshape(x.shape[0], -1) @ params["dense"] + params["bias"]


def loss_fn(params, images, labels):
    logp = jax.nn.log_softmax(forward(params, images))
    return -jnp.mean(jnp.sum(jax.nn.one_hot(labels, 3) * logp, axis=-1))


@jax.jit
def train_step(params, velocity, images, labels):
    loss, grads = jax.value_and_grad(loss_fn)(params, images, labels)
    velocity = jax.tree_util.tree_map(lambda v, g: 0.9 * v + g, velocity, grads)
    params = jax.tree_util.tree_map(lambda p, v: p - 0.1 * v, params, velocity)
    return params, velocity, loss


def program(images, labels):
    params = init(jax.random.PRNGKey(4))
    velocity = jax.tree_util.tree_map(jnp.zeros_like, params)
    losses = []
    for _ in range(4):
        params, velocity, loss = train_step(params, velocity, images, labels)
        losses.append(loss)
    accuracy = jnp.mean(jnp.argmax(forward(params, images), -1) == labels)
    return jnp.stack(losses), accuracy, params["conv1"]


def inputs():
    rng = np.random.default_rng(31)
    images = rng.standard_normal((12, 8, 8, 1)).astype(np.float32)
    labels = rng.integers(0, 3, 12).astype(np.int32)
    images[labels == 1, 2:6, 2:6] += 1.5
    return images, labels
