"""Molecular dynamics in JAX-MD's style: a periodic box, pairwise displacements by broadcasting
with a minimum-image wrap, a truncated Lennard-Jones energy whose forces are -grad(energy),
and velocity-Verlet steps in a jitted lax.scan recording kinetic and potential energy."""
import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

BOX = 6.0


def displacement(ra, rb):
    d = ra - rb
    return jnp.mod(d + BOX / 2, BOX) - BOX / 2


def lennard_jones(r2, sigma=1.0, epsilon=1.0, cutoff=2.5):
    inv6 = (sigma ** 2 / r2) ** 3
    energy = 4.0 * epsilon * (inv6 ** 2 - inv6)
    return jnp.where(r2 < cutoff ** 2, energy, 0.0)


def energy_fn(positions):
    dr = jax.vmap(jax.vmap(displacement, (None, 0)), (0, None))(positions, positions)
    n = positions.shape[0]
    r2 = jnp.sum(dr ** 2, axis=-1) + jnp.eye(n)          # keep the diagonal away from 0
    pair = lennard_jones(r2) * (1.0 - jnp.eye(n))
    return 0.5 * jnp.sum(pair)


force_fn = jax.grad(lambda r: -energy_fn(r))


def verlet(state, _, dt=0.002):
    r, v, f = state
    r = jnp.mod(r + dt * v + 0.5 * dt ** 2 * f, BOX)
    f_new = force_fn(r)
    v = v + 0.5 * dt * (f + f_new)
    return (r, v, f_new), (0.5 * jnp.sum(v ** 2), energy_fn(r))


@jax.jit
def program(positions, velocities):
    state = (positions, velocities, force_fn(positions))
    (r, v, f), (kinetic, potential) = lax.scan(verlet, state, None, length=50)
    return r, v, kinetic, potential, kinetic + potential


def inputs():
    grid = np.stack(np.meshgrid(*[np.arange(3)] * 3, indexing="ij"), -1).reshape(-1, 3)
    rng = np.random.default_rng(19)
    positions = (grid * 1.9 + 0.5 + 0.05 * rng.standard_normal(grid.shape)).astype(np.float32)
    velocities = (0.3 * rng.standard_normal(grid.shape)).astype(np.float32)
    return positions, velocities
