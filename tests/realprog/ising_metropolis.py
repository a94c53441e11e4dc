"""A 2-D Ising model with checkerboard Metropolis updates in the style of JAX physics demos:
neighbour sums with jnp.roll, acceptance from jax.random.uniform, a parity mask from
jnp.indices-free arithmetic on aranges, sweeps in lax.fori_loop, magnetisation and energy."""
import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

L, BETA = 16, 0.6


def neighbour_sum(spins):
    return (jnp.roll(spins, 1, 0) + jnp.roll(spins, -1, 0) + jnp.roll(spins, 1, 1)
            + jnp.roll(spins, -1, 1))


def half_sweep(spins, key, parity):
    rows, cols = jnp.arange(L)[:, None], jnp.arange(L)[None, :]
    mask = (rows + cols) % 2 == parity
    delta_e = 2.0 * spins * neighbour_sum(spins)
    accept = jax.random.uniform(key, (L, L)) < jnp.exp(-BETA * delta_e)
    return jnp.where(mask & accept, -spins, spins)


def energy(spins):
    return -jnp.sum(spins * (jnp.roll(spins, 1, 0) + jnp.roll(spins, 1, 1))) / spins.size


@jax.jit
def program(spins, seed):
    def sweep(i, carry):
        spins, key = carry
        key, even_key, odd_key = jax.random.split(key, 3)
        spins = half_sweep(spins, even_key, 0)
        return half_sweep(spins, odd_key, 1), key

    spins, _ = lax.fori_loop(0, 10, sweep, (spins, jax.random.PRNGKey(seed)))
    return spins, jnp.abs(spins.mean()), energy(spins)


def inputs():
    rng = np.random.default_rng(18)
    return rng.choice(np.array([-1.0, 1.0], np.float32), (L, L)), np.int32(4)
