"""A MinAtar-Breakout-like step in gymnax's style: paddle and ball positions, brick map updates
with .at[].set, ball direction from a module-level table, bounces via lax.select / jnp.where,
and the observation rendered into a (10, 10, 4) boolean grid."""
import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

BALL_DIRECTIONS = jnp.array([[-1, -1], [-1, 1], [1, 1], [1, -1]])
FLIP_X = jnp.array([1, 0, 3, 2])
FLIP_Y = jnp.array([3, 2, 1, 0])


def step(state, action):
    paddle, ball_y, ball_x, direction, bricks, score = state
    paddle = jnp.clip(paddle + jnp.array([0, -1, 1])[action], 0, 9)
    dy, dx = BALL_DIRECTIONS[direction]
    new_x = ball_x + dx
    hit_side = (new_x < 0) | (new_x > 9)
    direction = lax.select(hit_side, FLIP_X[direction], direction)
    new_x = jnp.clip(new_x, 0, 9)
    new_y = ball_y + dy
    hit_top = new_y < 0
    direction = jnp.where(hit_top, FLIP_Y[direction], direction)
    new_y = jnp.clip(new_y, 0, 9)
    brick_hit = bricks[new_y, new_x]
    bricks = bricks.at[new_y, new_x].set(False)
    direction = jnp.where(brick_hit, FLIP_Y[direction], direction)
    new_y = jnp.where(brick_hit, ball_y, new_y)
    at_paddle = (new_y == 9) & (new_x == paddle)
    direction = jnp.where(at_paddle, FLIP_Y[direction], direction)
    new_y = jnp.where(at_paddle, 8, new_y)
    score = score + brick_hit.astype(jnp.int32)
    return (paddle, new_y, new_x, direction, bricks, score), None


def render(state):
    paddle, ball_y, ball_x, _, bricks, _ = state
    obs = jnp.zeros((10, 10, 4), dtype=bool)
    obs = obs.at[9, paddle, 0].set(True)
    obs = obs.at[ball_y, ball_x, 1].set(True)
    return obs.at[:, :, 2].set(bricks)


@jax.jit
def program(actions):
    bricks = jnp.zeros((10, 10), dtype=bool).at[1:4, :].set(True)
    state = (jnp.int32(4), jnp.int32(6), jnp.int32(3), jnp.int32(0), bricks, jnp.int32(0))
    state, _ = lax.scan(step, state, actions)
    return render(state), state[5], state[4].sum()


def inputs():
    return (np.random.default_rng(13).integers(0, 3, 50).astype(np.int32),)
