"""A Kepler orbit integrated with classical RK4 in double precision, as scientific JAX codes
do: 64-bit mode switched on at import with jax.config.update, float64 state, a lax.scan of
steps, energy and angular-momentum drift as the diagnostics."""
import jax

jax.config.update("jax_enable_x64", True)

import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402
from jax import lax  # noqa: E402

GM, DT = 1.0, 0.01


def acceleration(q):
    return -GM * q / jnp.linalg.norm(q) ** 3


def rk4_step(state, _):
    q, p = state

    def f(q, p):
        return p, acceleration(q)

    k1q, k1p = f(q, p)
    k2q, k2p = f(q + DT / 2 * k1q, p + DT / 2 * k1p)
    k3q, k3p = f(q + DT / 2 * k2q, p + DT / 2 * k2p)
    k4q, k4p = f(q + DT * k3q, p + DT * k3p)
    q = q + DT / 6 * (k1q + 2 * k2q + 2 * k3q + k4q)
    p = p + DT / 6 * (k1p + 2 * k2p + 2 * k3p + k4p)
    return (q, p), 0.5 * p @ p - GM / jnp.linalg.norm(q)


@jax.jit
def program(q0, p0):
    (q, p), energies = lax.scan(rk4_step, (q0, p0), None, length=300)
    angular = q[0] * p[1] - q[1] * p[0]
    return q, p, energies.max() - energies.min(), angular


def inputs():
    return np.array([1.0, 0.0]), np.array([0.0, 1.2])
