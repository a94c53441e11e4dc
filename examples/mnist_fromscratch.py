"""JAX's examples/mnist_classifier_fromscratch.py with its imports swapped for transpile's:
an MLP trained by SGD with `grad` inside a jitted update, so forward and backward pass are one
compiled C module. The data are synthetic (ten Gaussian clusters in 784 dimensions) so the
script needs no download; it checks that training reaches high accuracy.

    python examples/mnist_fromscratch.py
"""
import time

import numpy as np
import numpy.random as npr

import transpile as tp
import transpile.numpy as jnp
from transpile import grad, jit


def logsumexp(x, axis, keepdims):
    top = jnp.max(x, axis=axis, keepdims=True)
    return jnp.log(jnp.sum(jnp.exp(x - top), axis=axis, keepdims=keepdims)) + (
        top if keepdims else jnp.squeeze(top, axis))


def init_random_params(scale, layer_sizes, rng=npr.RandomState(0)):
    return [(scale * rng.randn(m, n), scale * rng.randn(n))
            for m, n, in zip(layer_sizes[:-1], layer_sizes[1:])]


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


def synthetic_mnist(n, rng):
    """Ten classes, each a Gaussian cloud around its own random centre in 784 dimensions."""
    centres = np.random.RandomState(42).randn(10, 784)
    labels = rng.randint(0, 10, n)
    images = centres[labels] + 2.0 * rng.randn(n, 784)
    return images, np.eye(10)[labels]


def main():
    layer_sizes = [784, 256, 256, 10]
    param_scale = 0.1
    step_size = 0.02
    num_epochs = 4
    batch_size = 128

    rng = npr.RandomState(0)
    train_images, train_labels = synthetic_mnist(4096, rng)
    test_images, test_labels = synthetic_mnist(1024, rng)
    num_train = train_images.shape[0]
    num_batches = num_train // batch_size

    def data_stream():
        while True:
            perm = rng.permutation(num_train)
            for i in range(num_batches):
                batch_idx = perm[i * batch_size:(i + 1) * batch_size]
                yield train_images[batch_idx], train_labels[batch_idx]
    batches = data_stream()

    @jit
    def update(params, batch):
        grads = grad(loss)(params, batch)
        return [(w - step_size * dw, b - step_size * db)
                for (w, b), (dw, db) in zip(params, grads)]

    params = init_random_params(param_scale, layer_sizes)
    before = float(accuracy(params, (test_images, test_labels)))
    print("\nStarting training...")
    for epoch in range(num_epochs):
        start_time = time.time()
        for _ in range(num_batches):
            params = update(params, next(batches))
        epoch_time = time.time() - start_time
        train_acc = float(accuracy(params, (train_images, train_labels)))
        test_acc = float(accuracy(params, (test_images, test_labels)))
        print(f"Epoch {epoch} in {epoch_time:0.2f} sec")
        print(f"Training set accuracy {train_acc}")
        print(f"Test set accuracy {test_acc}")
    assert test_acc > 0.9 > before + 0.3, (before, test_acc)
    info = update.cache_info()
    assert info.misses == 1, info            # one trace and compile, then memory hits
    print(f"update compiled once; {info.hits} calls from memory "
          f"(C source: {len(update.lower(params, next(batches)).source.splitlines())} lines)")


if __name__ == "__main__":
    main()
