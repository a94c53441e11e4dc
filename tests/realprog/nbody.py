"""A gravitational N-body leapfrog (kick-drift-kick) with softened pairwise accelerations
from broadcasting, the loop a lax.fori_loop over a (pos, vel) carry, energy at the end."""
import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

G, SOFTENING, DT = 1.0, 0.1, 0.01


def accelerations(pos, mass):
    d = pos[None, :, :] - pos[:, None, :]
    inv_r3 = (jnp.sum(d ** 2, axis=-1) + SOFTENING ** 2) ** -1.5
    return G * jnp.einsum("ijk,ij,j->ik", d, inv_r3, mass)


def energy(pos, vel, mass):
    kinetic = 0.5 * jnp.sum(mass[:, None] * vel ** 2)
    d = pos[None, :, :] - pos[:, None, :]
    r = jnp.sqrt(jnp.sum(d ** 2, axis=-1) + SOFTENING ** 2)
    pair = -G * mass[:, None] * mass[None, :] / r
    potential = 0.5 * jnp.sum(jnp.triu(pair, 1) + jnp.tril(pair, -1))
    return kinetic, potential


@jax.jit
def program(pos, vel, mass):
    def body(_, carry):
        pos, vel = carry
        vel = vel + accelerations(pos, mass) * DT / 2.0
        pos = pos + vel * DT
        vel = vel + accelerations(pos, mass) * DT / 2.0
        return pos, vel

    pos, vel = lax.fori_loop(0, 50, body, (pos, vel))
    return pos, vel, energy(pos, vel, mass)


def inputs():
    rng = np.random.default_rng(8)
    n = 12
    pos = rng.standard_normal((n, 3)).astype(np.float32)
    vel = 0.1 * rng.standard_normal((n, 3)).astype(np.float32)
    mass = np.full(n, 20.0 / n, np.float32)
    return pos, vel - vel.mean(axis=0), mass
