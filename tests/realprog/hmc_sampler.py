"""Hamiltonian Monte Carlo in blackjax's style: the potential's gradient by jax.grad inside a
leapfrog lax.fori_loop, a Metropolis accept with jax.random.uniform and jnp.where over the
position pytree, a chain as a lax.scan over split keys, and four chains run with vmap; the
target is a correlated Gaussian plus a banana-shaped term."""
import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

PRECISION = jnp.array([[2.0, -0.8], [-0.8, 1.0]])


def log_density(position):
    x = position["x"]
    gauss = -0.5 * x @ PRECISION @ x
    banana = -0.5 * (position["y"] - x[0] ** 2) ** 2 / 0.5
    return gauss + banana


def leapfrog(position, momentum, step_size, n_steps):
    grad = jax.grad(log_density)

    def body(_, state):
        q, p = state
        p = jax.tree_util.tree_map(lambda p, g: p + 0.5 * step_size * g, p, grad(q))
        q = jax.tree_util.tree_map(lambda q, p: q + step_size * p, q, p)
        p = jax.tree_util.tree_map(lambda p, g: p + 0.5 * step_size * g, p, grad(q))
        return q, p

    return lax.fori_loop(0, n_steps, body, (position, momentum))


def kinetic(momentum):
    return sum(0.5 * jnp.sum(p ** 2) for p in jax.tree_util.tree_leaves(momentum))


def hmc_step(position, key):
    key_momentum, key_accept = jax.random.split(key)
    leaves, treedef = jax.tree_util.tree_flatten(position)
    keys = jax.random.split(key_momentum, len(leaves))
    momentum = jax.tree_util.tree_unflatten(
        treedef, [jax.random.normal(k, jnp.shape(leaf)) for k, leaf in zip(keys, leaves)])
    proposal, new_momentum = leapfrog(position, momentum, 0.15, 10)
    log_ratio = (log_density(proposal) - kinetic(new_momentum)
                 - log_density(position) + kinetic(momentum))
    accept = jnp.log(jax.random.uniform(key_accept)) < log_ratio
    position = jax.tree_util.tree_map(lambda new, old: jnp.where(accept, new, old),
                                      proposal, position)
    return position, (position["x"], position["y"], accept)


def chain(key, init):
    _, (xs, ys, accepted) = lax.scan(hmc_step, init, jax.random.split(key, 60))
    return xs, ys, accepted.mean()


@jax.jit
def program(seed, x0, y0):
    keys = jax.random.split(jax.random.PRNGKey(seed), x0.shape[0])
    xs, ys, rate = jax.vmap(chain)(keys, {"x": x0, "y": y0})
    return xs.mean(axis=(0, 1)), ys.mean(), rate, xs[:, -1], ys[:, -5:]


def inputs():
    rng = np.random.default_rng(25)
    return (np.int32(0), rng.standard_normal((4, 2)).astype(np.float32),
            rng.standard_normal(4).astype(np.float32))
