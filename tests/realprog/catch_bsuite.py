"""bsuite's Catch in gymnax's style: the state is a registered dataclass, a step samples a
fresh start each time and an auto-reset picks it with tree_map(lax.select) when the episode
ends, and eight environments roll out side by side with vmap over a lax.scan."""
import dataclasses

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

ROWS, COLUMNS = 10, 5


@jax.tree_util.register_dataclass
@dataclasses.dataclass
class State:
    ball_x: jax.Array
    ball_y: jax.Array
    paddle_x: jax.Array
    paddle_y: jax.Array
    prev_done: jax.Array
    time: jax.Array


def fresh_state(key):
    ball_x = jax.random.randint(key, (), 0, COLUMNS)
    return State(ball_x, jnp.int32(0), jnp.int32(COLUMNS // 2), jnp.int32(ROWS - 1),
                 jnp.bool_(False), jnp.int32(0))


def observe(state):
    board = jnp.zeros((ROWS, COLUMNS))
    board = board.at[state.ball_y, state.ball_x].set(1.0)
    return board.at[state.paddle_y, state.paddle_x].set(1.0)


def env_step(key, state, action):
    start = fresh_state(key)
    paddle_x = lax.select(state.prev_done, start.paddle_x,
                          jnp.clip(state.paddle_x + action - 1, 0, COLUMNS - 1))
    ball_y = lax.select(state.prev_done, start.ball_y, state.ball_y + 1)
    ball_x = lax.select(state.prev_done, start.ball_x, state.ball_x)
    landed = ball_y == state.paddle_y
    reward = landed * lax.select(paddle_x == ball_x, 1.0, -1.0)
    state = dataclasses.replace(state, ball_x=ball_x, ball_y=ball_y, paddle_x=paddle_x,
                                prev_done=landed, time=state.time + 1)
    done = jnp.logical_or(state.ball_y == ROWS - 1, state.time >= 1000)
    return state, reward, done


def auto_reset_step(key, state, action):
    key_step, key_reset = jax.random.split(key)
    stepped, reward, done = env_step(key_step, state, action)
    reset = fresh_state(key_reset)
    state = jax.tree_util.tree_map(lambda r, s: lax.select(done, r, s), reset, stepped)
    return state, observe(state), reward, done


def rollout(key, actions):
    key_init, key_steps = jax.random.split(key)

    def body(state, inputs):
        step_key, action = inputs
        state, obs, reward, done = auto_reset_step(step_key, state, action)
        return state, (obs.sum(), reward, done)

    keys = jax.random.split(key_steps, actions.shape[0])
    final, (obs_mass, rewards, dones) = lax.scan(body, fresh_state(key_init), (keys, actions))
    return final.ball_x, final.paddle_x, obs_mass, rewards, dones


@jax.jit
def program(seed, actions):
    keys = jax.random.split(jax.random.PRNGKey(seed), actions.shape[0])
    ball_x, paddle_x, obs_mass, rewards, dones = jax.vmap(rollout)(keys, actions)
    return ball_x, paddle_x, obs_mass, rewards.sum(axis=1), dones.sum(axis=1)


def inputs():
    rng = np.random.default_rng(11)
    return np.int32(5), rng.integers(0, 3, (8, 30)).astype(np.int32)
