"""A training loop in the style of JAX's examples/mnist_classifier_fromscratch.py: an MLP as a
list of (W, b) pairs, log-softmax via logsumexp, a jitted SGD update from jax.grad, accuracy."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.scipy.special import logsumexp


def init_random_params(scale, layer_sizes, rng):
    return [(scale * rng.standard_normal((m, n)).astype(np.float32),
             scale * rng.standard_normal(n).astype(np.float32))
            for m, n in zip(layer_sizes[:-1], layer_sizes[1:])]


def predict(params, inputs):
    activations = inputs
    for w, b in params[:-1]:
        outputs = jnp.dot(activations, w) + b
        activations = jnp.tanh(outputs)
    final_w, final_b = params[-1]
    logits = jnp.dot(activations, final_w) + final_b
    return logits - logsumexp(logits, axis=1, keepdims=True)


def loss(params, batch):
    inputs, targets = batch
    preds = predict(params, inputs)
    return -jnp.mean(jnp.sum(preds * targets, axis=1))


def accuracy(params, batch):
    inputs, targets = batch
    target_class = jnp.argmax(targets, axis=1)
    predicted_class = jnp.argmax(predict(params, inputs), axis=1)
    return jnp.mean(predicted_class == target_class)


@jax.jit
def update(params, batch, step_size):
    grads = jax.grad(loss)(params, batch)
    return [(w - step_size * dw, b - step_size * db)
            for (w, b), (dw, db) in zip(params, grads)]


def program(params, images, labels):
    batch = (images, labels)
    losses = []
    for _ in range(5):
        params = update(params, batch, 0.1)
        losses.append(loss(params, batch))
    return jnp.stack(losses), accuracy(params, batch), params[-1][1]


def inputs():
    rng = np.random.default_rng(5)
    params = init_random_params(0.1, [20, 16, 16, 4], rng)
    images = rng.standard_normal((24, 20)).astype(np.float32)
    labels = np.eye(4, dtype=np.float32)[rng.integers(0, 4, 24)]
    return params, images, labels
