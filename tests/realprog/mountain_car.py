"""MountainCar in gymnax's style: discrete action to force, clipped velocity and position,
a left-wall reset of the velocity with jnp.where, rolled out with lax.scan."""
import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

MIN_POS, MAX_POS, MAX_SPEED, GOAL = -1.2, 0.6, 0.07, 0.5
FORCE, GRAVITY = 0.001, 0.0025


def step(state, action):
    position, velocity = state
    velocity = velocity + (action - 1) * FORCE - jnp.cos(3 * position) * GRAVITY
    velocity = jnp.clip(velocity, -MAX_SPEED, MAX_SPEED)
    position = jnp.clip(position + velocity, MIN_POS, MAX_POS)
    velocity = velocity * (1 - (position == MIN_POS) * (velocity < 0))
    done = position >= GOAL
    reward = -1.0 * (1 - done)
    return (position, velocity), (jnp.stack([position, velocity]), reward)


def program(position, actions):
    state = (position, jnp.zeros_like(position))
    final, (obs, rewards) = jax.jit(lambda s, a: lax.scan(step, s, a))(state, actions)
    return obs, rewards, final


def inputs():
    rng = np.random.default_rng(1)
    position = np.float32(rng.uniform(-0.6, -0.4))
    actions = np.where(np.arange(120) % 30 < 15, 2, 0).astype(np.int32)
    return np.asarray(position), actions
