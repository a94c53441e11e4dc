"""custom_jvp for a numerically safe softplus/log1mexp, used in a loss and differentiated;
jax.nn.initializers for weights; jax.checkpoint around a block."""
import jax
import jax.numpy as jnp
import numpy as np


@jax.custom_jvp
def safe_softplus(x):
    return jnp.logaddexp(x, 0.0)


@safe_softplus.defjvp
def _softplus_jvp(primals, tangents):
    (x,), (t,) = primals, tangents
    return safe_softplus(x), jax.nn.sigmoid(x) * t


@jax.custom_jvp
def log1mexp(x):
    return jnp.where(x > -0.693, jnp.log(-jnp.expm1(x)), jnp.log1p(-jnp.exp(x)))


@log1mexp.defjvp
def _log1mexp_jvp(primals, tangents):
    (x,), (t,) = primals, tangents
    return log1mexp(x), -t / jnp.expm1(-x)


@jax.jit
def program(x, key):
    init = jax.nn.initializers.glorot_normal()
    w = init(key, (4, 8), jnp.float32)
    b = jax.nn.initializers.zeros(key, (8,), jnp.float32)
    @jax.checkpoint
    def block(w, x):
        return safe_softplus(x @ w + b)
    def loss(w):
        h = block(w, x)
        return jnp.mean(log1mexp(-h - 1e-3))
    l, g = jax.value_and_grad(loss)(w)
    return l, g, jax.grad(lambda z: jnp.sum(safe_softplus(z)))(jnp.array([-50.0, 0.0, 50.0])), w.std()


def inputs():
    rng = np.random.default_rng(9)
    return rng.normal(size=(16, 4)).astype(np.float32), np.array([0, 7], dtype=np.uint32)
