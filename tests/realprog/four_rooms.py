"""A FourRooms-style gridworld in gymnax's style: the map is a module-level array indexed by
the traced position, moves come from a direction table, a random policy draws actions with
jax.random (split keys) inside a lax.scan."""
import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

LAYOUT = """
xxxxxxxxxxxxx
x     x     x
x     x     x
x           x
x     x     x
x     x     x
xx xxxx     x
x     xxx xxx
x     x     x
x     x     x
x           x
x     x     x
xxxxxxxxxxxxx"""
ENV_MAP = jnp.array([[c == "x" for c in row] for row in LAYOUT.strip().splitlines()])
DIRECTIONS = jnp.array([[-1, 0], [0, 1], [1, 0], [0, -1]])
GOAL = jnp.array([9, 9])


def step(carry, key):
    pos, reached = carry
    key_action, key_slip = jax.random.split(key)
    action = jax.random.randint(key_action, (), 0, 4)
    slip = jax.random.uniform(key_slip) < 0.1
    action = jnp.where(slip, (action + 1) % 4, action)
    proposed = pos + DIRECTIONS[action]
    blocked = ENV_MAP[proposed[0], proposed[1]]
    pos = jnp.where(blocked, pos, proposed)
    at_goal = jnp.all(pos == GOAL)
    return (pos, reached | at_goal), (pos, at_goal.astype(jnp.float32))


@jax.jit
def program(seed, start):
    keys = jax.random.split(jax.random.PRNGKey(seed), 60)
    (pos, reached), (path, rewards) = lax.scan(step, (start, jnp.bool_(False)), keys)
    visits = jnp.zeros(ENV_MAP.shape, jnp.int32).at[path[:, 0], path[:, 1]].add(1)
    return pos, reached, path, rewards.sum(), visits


def inputs():
    return np.int32(3), np.array([2, 2], np.int32)
