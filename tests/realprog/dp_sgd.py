"""JAX's examples/differentially_private_sgd.py in small: a stax MLP, per-example gradients
with vmap(grad) over single-example batches, each clipped by its global norm (tree_flatten,
a norm of norms, stop_gradient), summed, noised with a fold_in key, and applied by
optimizers.sgd over a few jitted steps."""
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np
from jax import grad, jit, random, tree_util, vmap
from jax.example_libraries import optimizers, stax
from jax.lax import stop_gradient

init_random_params, predict = stax.serial(
    stax.Dense(16), stax.Relu, stax.Dense(8), stax.Tanh, stax.Dense(3))


def loss(params, batch):
    inputs, targets = batch
    logits = stax.logsoftmax(predict(params, inputs))
    return -jnp.mean(jnp.sum(logits * targets, 1))


def clipped_grad(params, l2_norm_clip, single_example_batch):
    grads = grad(loss)(params, single_example_batch)
    leaves, tree_def = tree_util.tree_flatten(grads)
    total = jnp.linalg.norm(jnp.array([jnp.linalg.norm(g.ravel()) for g in leaves]))
    divisor = stop_gradient(jnp.amax(jnp.array([total / l2_norm_clip, 1.0])))
    return tree_util.tree_unflatten(tree_def, [g / divisor for g in leaves])


def private_grad(params, batch, rng, l2_norm_clip, noise_multiplier, batch_size):
    per_example = vmap(partial(clipped_grad, params, l2_norm_clip))(batch)
    summed = tree_util.tree_map(lambda g: jnp.sum(g, 0), per_example)
    leaves, tree_def = tree_util.tree_flatten(summed)
    keys = random.split(rng, len(leaves))
    noised = [g + l2_norm_clip * noise_multiplier * random.normal(k, g.shape)
              for k, g in zip(keys, leaves)]
    return tree_util.tree_unflatten(tree_def, [g / batch_size for g in noised])


def program(images, labels):
    opt_init, opt_update, get_params = optimizers.sgd(0.15)
    key = random.PRNGKey(0)
    _, params = init_random_params(key, (-1, 10))
    opt_state = opt_init(params)

    @jit
    def private_update(rng, i, opt_state, batch):
        params = get_params(opt_state)
        rng = random.fold_in(rng, i)
        return opt_update(i, private_grad(params, batch, rng, 1.0, 1.1, 32), opt_state)

    for i in range(4):
        batch = (images[i * 8:(i + 1) * 8].reshape(8, 1, 10),
                 labels[i * 8:(i + 1) * 8].reshape(8, 1, 3))
        opt_state = private_update(key, i, opt_state, batch)
    params = get_params(opt_state)
    accuracy = jnp.mean(jnp.argmax(predict(params, images), 1) == jnp.argmax(labels, 1))
    return params, loss(params, (images, labels)), accuracy


def inputs():
    rng = np.random.default_rng(17)
    images = rng.standard_normal((32, 10)).astype(np.float32)
    labels = np.eye(3, dtype=np.float32)[rng.integers(0, 3, 32)]
    return images, labels
