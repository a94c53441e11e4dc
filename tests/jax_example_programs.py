"""JAX's own example scripts (jax-ml/jax examples/), their training loops written once
against a JAX-like module `jx` so that JAX 0.10.2 (tools/record_jax_examples.py, recorded
in tests/data/jax_examples.json) and transpile (tests/test_jax_examples.py) run the same
code with only the import swapped. The datasets are synthetic and the loops a few steps
long, so the scripts need no download and the losses after each step can be compared.

- `mnist_fromscratch`: examples/mnist_classifier_fromscratch.py (an MLP, SGD written by
  hand, `grad` inside a jitted update).
- `kernel_lsq`: examples/kernel_lsq.py (a Gram matrix by nested vmap, momentum from
  example_libraries.optimizers, jit(vmap(predict))).
- `dp_sgd`: examples/differentially_private_sgd.py (stax layers, per-example gradients by
  vmap(grad) over a batch axis, clipping by global norm, Gaussian noise from split keys).
"""
from __future__ import annotations

import importlib
from functools import partial

import numpy as np


def _library(jx, name):
    return importlib.import_module(f"{jx.__name__}.example_libraries.{name}")


# -- examples/mnist_classifier_fromscratch.py ---------------------------------------------

def mnist_fromscratch(jx, steps=6):
    jnp = jx.numpy

    def init_random_params(scale, layer_sizes, rng=np.random.RandomState(0)):
        return [(scale * rng.randn(m, n), scale * rng.randn(n))
                for m, n, in zip(layer_sizes[:-1], layer_sizes[1:])]

    def predict(params, inputs):
        activations = inputs
        for w, b in params[:-1]:
            outputs = jnp.dot(activations, w) + b
            activations = jnp.tanh(outputs)
        final_w, final_b = params[-1]
        logits = jnp.dot(activations, final_w) + final_b
        return logits - jx.scipy.special.logsumexp(logits, axis=1, keepdims=True)

    def loss(params, batch):
        inputs, targets = batch
        preds = predict(params, inputs)
        return -jnp.mean(jnp.sum(preds * targets, axis=1))

    def accuracy(params, batch):
        inputs, targets = batch
        target_class = jnp.argmax(targets, axis=1)
        predicted_class = jnp.argmax(predict(params, inputs), axis=1)
        return jnp.mean(predicted_class == target_class)

    rng = np.random.RandomState(0)
    centres = np.random.RandomState(42).randn(4, 32)
    labels = rng.randint(0, 4, 64)
    images = centres[labels] + 1.5 * rng.randn(64, 32)
    targets = np.eye(4)[labels]
    params = init_random_params(0.1, [32, 16, 16, 4])
    step_size = 0.05

    @jx.jit
    def update(params, batch):
        grads = jx.grad(loss)(params, batch)
        return [(w - step_size * dw, b - step_size * db)
                for (w, b), (dw, db) in zip(params, grads)]

    losses = []
    for i in range(steps):
        batch = (images[i % 4 * 16:(i % 4 + 1) * 16], targets[i % 4 * 16:(i % 4 + 1) * 16])
        params = update(params, batch)
        losses.append(loss(params, (images, targets)))
    return {"losses": jnp.stack(losses), "accuracy": accuracy(params, (images, targets)),
            "last_w": params[-1][0]}


# -- examples/kernel_lsq.py -----------------------------------------------------------------

def kernel_lsq(jx, num_steps=40):
    jnp, vmap, jit, grad = jx.numpy, jx.vmap, jx.jit, jx.grad
    optimizers = _library(jx, "optimizers")

    def gram(kernel, xs):
        return vmap(lambda x: vmap(lambda y: kernel(x, y))(xs))(xs)

    def minimize(f, x, num_steps, step_size=0.0005, mass=0.9):
        opt_init, opt_update, get_params = optimizers.momentum(step_size, mass)

        @jit
        def update(i, opt_state):
            x = get_params(opt_state)
            return opt_update(i, grad(f)(x), opt_state)

        opt_state = opt_init(x)
        for i in range(num_steps):
            opt_state = update(i, opt_state)
        return get_params(opt_state)

    def train(kernel, xs, ys, regularization=0.01):
        gram_ = jit(partial(gram, kernel))
        gram_mat = gram_(xs)
        n = xs.shape[0]

        def objective(v):
            risk = .5 * jnp.sum((jnp.dot(gram_mat, v) - ys) ** 2.)
            reg = regularization * jnp.sum(v ** 2.)
            return risk + reg

        v = minimize(objective, jnp.zeros(n), num_steps)

        def predict(x):
            prods = vmap(lambda x_: kernel(x, x_))(xs)
            return jnp.sum(v * prods)

        return jit(vmap(predict)), objective(v)

    n, d = 24, 5
    rng = np.random.RandomState(0)
    truth = rng.randn(d)
    xs = rng.randn(n, d)
    ys = jnp.dot(xs, truth)
    linear = lambda x, y: jnp.dot(x, y)                       # noqa: E731 (the example's)
    predict, objective = train(linear, xs, ys)
    sq_exp = lambda x, y: jnp.exp(-jnp.linalg.norm(x - y) ** 2)  # noqa: E731
    predict_sq, objective_sq = train(sq_exp, xs, ys)
    return {"linear_objective": objective, "linear_mse": jnp.mean((predict(xs) - ys) ** 2),
            "sq_exp_objective": objective_sq, "sq_exp_predictions": predict_sq(xs[:5])}


# -- examples/differentially_private_sgd.py ---------------------------------------------------

def dp_sgd(jx, steps=4):
    jnp, random = jx.numpy, jx.random
    stax, optimizers = _library(jx, "stax"), _library(jx, "optimizers")
    tree_flatten, tree_unflatten = jx.tree_util.tree_flatten, jx.tree_util.tree_unflatten
    l2_norm_clip, noise_multiplier, batch_size, learning_rate = 1.5, 1.1, 8, 0.15

    init_random_params, predict = stax.serial(
        stax.Conv(4, (3, 3), (1, 1), padding="SAME"), stax.Relu,
        stax.Flatten, stax.Dense(8), stax.Relu, stax.Dense(3), stax.LogSoftmax)

    def loss(params, batch):
        inputs, targets = batch
        logits = predict(params, inputs)
        logits = stax.logsoftmax(logits)  # log normalize
        return -jnp.mean(jnp.sum(logits * targets, axis=1))  # cross entropy loss

    def clipped_grad(params, l2_norm_clip, single_example_batch):
        """Evaluate gradient for a single-example batch and clip its grad norm."""
        grads = jx.grad(loss)(params, single_example_batch)
        nonempty_grads, tree_def = tree_flatten(grads)
        total_grad_norm = jnp.linalg.norm(
            jnp.array([jnp.linalg.norm(neg.ravel()) for neg in nonempty_grads]))
        divisor = jnp.maximum(total_grad_norm / l2_norm_clip, 1.)
        normalized_nonempty_grads = [g / divisor for g in nonempty_grads]
        return tree_unflatten(tree_def, normalized_nonempty_grads)

    def private_grad(params, batch, rng, l2_norm_clip, noise_multiplier, batch_size):
        """Return differentially private gradients for params, evaluated on batch."""
        clipped_grads = jx.vmap(clipped_grad, (None, None, 0))(params, l2_norm_clip, batch)
        clipped_grads_flat, grads_treedef = tree_flatten(clipped_grads)
        aggregated_clipped_grads = [g.sum(0) for g in clipped_grads_flat]
        rngs = random.split(rng, len(aggregated_clipped_grads))
        noised_aggregated_clipped_grads = [
            g + l2_norm_clip * noise_multiplier * random.normal(r, g.shape)
            for r, g in zip(rngs, aggregated_clipped_grads)]
        normalized_noised_aggregated_clipped_grads = [
            g / batch_size for g in noised_aggregated_clipped_grads]
        return tree_unflatten(grads_treedef, normalized_noised_aggregated_clipped_grads)

    rng_np = np.random.RandomState(1)
    labels = rng_np.randint(0, 3, 32)
    images = rng_np.randn(32, 5, 5, 1) + labels[:, None, None, None]
    targets = np.eye(3)[labels]

    key = random.PRNGKey(1337)
    opt_init, opt_update, get_params = optimizers.sgd(learning_rate)

    @jx.jit
    def private_update(rng, i, opt_state, batch):
        params = get_params(opt_state)
        rng = random.fold_in(rng, i)  # get new key for new random numbers
        return opt_update(
            i, private_grad(params, batch, rng, l2_norm_clip, noise_multiplier, batch_size),
            opt_state)

    _, init_params = init_random_params(key, (-1, 5, 5, 1))
    opt_state = opt_init(init_params)
    losses = []
    for i in range(steps):
        lo = i * batch_size
        batch = (images[lo:lo + batch_size, None], targets[lo:lo + batch_size, None])
        opt_state = private_update(key, i, opt_state, batch)
        losses.append(loss(get_params(opt_state), (images, targets)))
    return {"losses": jnp.stack(losses), "init_dense": init_params[3][0],
            "last_bias": get_params(opt_state)[-2][1]}


PROGRAMS = {"mnist_fromscratch": mnist_fromscratch, "kernel_lsq": kernel_lsq,
            "dp_sgd": dp_sgd}
