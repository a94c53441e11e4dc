"""Pendulum in gymnax's style, batched over many environments with jax.vmap (each lane keeps
its own state and continuous action)."""
import jax
import jax.numpy as jnp
import numpy as np

MAX_SPEED, MAX_TORQUE, DT, G, M, L = 8.0, 2.0, 0.05, 10.0, 1.0, 1.0


def angle_normalize(x):
    return ((x + jnp.pi) % (2 * jnp.pi)) - jnp.pi


def step(theta, theta_dot, action):
    u = jnp.clip(action, -MAX_TORQUE, MAX_TORQUE)
    reward = -(angle_normalize(theta) ** 2 + 0.1 * theta_dot ** 2 + 0.001 * u ** 2)
    new_dot = theta_dot + (3 * G / (2 * L) * jnp.sin(theta) + 3.0 / (M * L ** 2) * u) * DT
    new_dot = jnp.clip(new_dot, -MAX_SPEED, MAX_SPEED)
    new_theta = theta + new_dot * DT
    obs = jnp.array([jnp.cos(new_theta), jnp.sin(new_theta), new_dot]).squeeze()
    return obs, reward.squeeze(), new_theta, new_dot


program = jax.jit(jax.vmap(step))


def inputs():
    rng = np.random.default_rng(3)
    n = 16
    return (rng.uniform(-np.pi, np.pi, n).astype(np.float32),
            rng.uniform(-1, 1, n).astype(np.float32),
            rng.uniform(-3, 3, n).astype(np.float32))
