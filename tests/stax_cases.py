"""A small CNN built with stax and trained a few steps with several optimizers, written
once for JAX (tools/record_jax_stax.py records it) and for transpile
(tests/test_example_libraries.py checks it): `run(jax, jnp, stax, optimizers)`."""
import numpy as np

OPTIMIZERS = {
    "adam": lambda o: o.adam(1e-3),
    "momentum": lambda o: o.momentum(0.01, mass=0.9),
    "rmsprop": lambda o: o.rmsprop(o.exponential_decay(1e-3, 10, 0.5)),
    "nesterov": lambda o: o.nesterov(o.inverse_time_decay(0.01, 5, 0.3, staircase=True), 0.9),
    "adamax": lambda o: o.adamax(o.polynomial_decay(0.01, 10, 0.001)),
    "sgd": lambda o: o.sgd(o.piecewise_constant([1, 2], [0.1, 0.01, 0.001])),
}


def data():
    rng = np.random.default_rng(0)
    images = rng.normal(size=(32, 8, 8, 1)).astype(np.float32)
    labels = np.eye(10, dtype=np.float32)[rng.integers(0, 10, 32)]
    return images, labels


def model(stax):
    return stax.serial(
        stax.Conv(3, (3, 3), padding="SAME"), stax.Relu, stax.MaxPool((2, 2), (2, 2)),
        stax.BatchNorm(), stax.Conv(4, (3, 3)), stax.Tanh, stax.AvgPool((2, 2), padding="SAME"),
        stax.FanOut(2), stax.parallel(stax.Identity, stax.Identity), stax.FanInSum,
        stax.Flatten, stax.Dense(16), stax.Relu, stax.Dense(10), stax.LogSoftmax)


def run(jax, jnp, stax, optimizers, steps=3, names=tuple(OPTIMIZERS)):
    """{optimizer: (final loss, sum of |params|)} after `steps` clipped steps."""
    init_params, predict = model(stax)
    images, labels = data()

    def loss(params, batch):
        inputs, targets = batch
        return -jnp.mean(jnp.sum(predict(params, inputs) * targets, axis=1))

    out = {}
    for name in names:
        make = OPTIMIZERS[name]
        opt_init, opt_update, get_params = make(optimizers)

        def update(i, state, batch, opt_update=opt_update, get_params=get_params):
            grads = jax.grad(loss)(get_params(state), batch)
            return opt_update(i, optimizers.clip_grads(grads, 5.0), state)
        update = jax.jit(update)
        _, params = init_params(jax.random.PRNGKey(0), (-1, 8, 8, 1))
        state = opt_init(params)
        for i in range(steps):
            b = slice(8 * i, 8 * i + 8)
            state = update(i, state, (images[b], labels[b]))
        params = get_params(state)
        leaves = jax.tree_util.tree_leaves(params)
        out[name] = (float(loss(params, (images, labels))),
                     float(sum(np.abs(np.asarray(x)).sum() for x in leaves)))
    return out
