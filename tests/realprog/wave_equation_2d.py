"""2-D wave equation, leapfrog with jnp.roll Laplacian and absorbing edges via .at[].set,
time loop in scan recording energy; float32 (jax-cfd style)."""
import jax
import jax.numpy as jnp
import numpy as np


def laplacian(u, dx):
    return (jnp.roll(u, 1, 0) + jnp.roll(u, -1, 0) + jnp.roll(u, 1, 1) + jnp.roll(u, -1, 1) - 4 * u) / dx ** 2


@jax.jit
def program(u0):
    c, dx, dt = 1.0, 0.1, 0.05
    def step(carry, _):
        u, u_prev = carry
        u_next = 2 * u - u_prev + (c * dt) ** 2 * laplacian(u, dx)
        u_next = u_next.at[0, :].set(0.0).at[-1, :].set(0.0).at[:, 0].set(0.0).at[:, -1].set(0.0)
        energy = 0.5 * jnp.sum(((u_next - u) / dt) ** 2) + 0.5 * c ** 2 * jnp.sum(
            jnp.gradient(u_next, dx, axis=0) ** 2 + jnp.gradient(u_next, dx, axis=1) ** 2)
        return (u_next, u), energy
    (u, _), energies = jax.lax.scan(step, (u0, u0), None, length=100)
    return u, energies, jnp.unravel_index(jnp.argmax(jnp.abs(u)), u.shape)


def inputs():
    n = 48
    x = np.linspace(-1, 1, n)
    X, Y = np.meshgrid(x, x, indexing="ij")
    return (np.exp(-((X - 0.2) ** 2 + Y ** 2) / 0.02).astype(np.float32),)
