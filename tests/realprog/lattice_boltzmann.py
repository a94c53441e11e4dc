"""A D2Q9 lattice Boltzmann step (BGK collision, streaming with jnp.roll per direction, a
cylinder obstacle with bounce-back), in the style of the published JAX LBM codes."""
import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

SHIFTS_X = (0, 1, 0, -1, 0, 1, -1, -1, 1)
SHIFTS_Y = (0, 0, 1, 0, -1, 1, 1, -1, -1)
CX, CY = jnp.array(SHIFTS_X), jnp.array(SHIFTS_Y)
W = jnp.array([4 / 9, 1 / 9, 1 / 9, 1 / 9, 1 / 9, 1 / 36, 1 / 36, 1 / 36, 1 / 36])
OPPOSITE = jnp.array([0, 3, 4, 1, 2, 7, 8, 5, 6])
NX, NY, TAU = 32, 16, 0.6


def equilibrium(rho, ux, uy):
    cu = 3.0 * (CX * ux[..., None] + CY * uy[..., None])
    usq = 1.5 * (ux ** 2 + uy ** 2)
    return rho[..., None] * W * (1.0 + cu + 0.5 * cu ** 2 - usq[..., None])


def stream(f):
    return jnp.stack([jnp.roll(jnp.roll(f[:, :, i], SHIFTS_X[i], axis=0), SHIFTS_Y[i], axis=1)
                      for i in range(9)], axis=-1)


def lbm_step(f, obstacle):
    rho = jnp.sum(f, axis=-1)
    ux = jnp.sum(f * CX, axis=-1) / rho
    uy = jnp.sum(f * CY, axis=-1) / rho
    f_post = f - (f - equilibrium(rho, ux, uy)) / TAU
    bounced = f[:, :, OPPOSITE]
    f_post = jnp.where(obstacle[..., None], bounced, f_post)
    return stream(f_post)


@jax.jit
def program(f0, obstacle):
    f = lax.fori_loop(0, 20, lambda _, f: lbm_step(f, obstacle), f0)
    rho = jnp.sum(f, axis=-1)
    ux = jnp.sum(f * CX, axis=-1) / rho
    vorticity = jnp.gradient(ux, axis=1)
    return rho, ux, vorticity


def inputs():
    rng = np.random.default_rng(9)
    x, y = np.meshgrid(np.arange(NX), np.arange(NY), indexing="ij")
    obstacle = (x - NX / 4) ** 2 + (y - NY / 2) ** 2 < (NY / 6) ** 2
    f0 = np.ones((NX, NY, 9), np.float32) + 0.01 * rng.standard_normal((NX, NY, 9)).astype(
        np.float32)
    f0[:, :, 1] += 0.2
    return f0, obstacle
