"""bsuite's DeepSea in gymnax's style, stochastic variant: a random action map drawn with
jax.random.bernoulli, noisy transitions and rewards from split keys, lax.select on mixed
bool/int operands, Python floats times bools, and an episode rolled out with lax.scan."""
import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

SIZE = 8
MOVE_COST = 0.01


def reset(key):
    action_map = jax.random.bernoulli(key, 0.5, (SIZE, SIZE))
    state = {"row": jnp.int32(0), "column": jnp.int32(0), "bad_episode": jnp.bool_(False),
             "denoised_return": jnp.int32(0), "action_map": action_map, "time": jnp.int32(0)}
    return state


def observe(state):
    empty = jnp.zeros((SIZE, SIZE), dtype=jnp.float32)
    filled = empty.at[state["row"], state["column"]].set(1.0)
    return lax.select(state["row"] >= SIZE, empty, filled)


def step(state, inputs):
    key, action = inputs
    key_reward, key_move = jax.random.split(key)
    noise = jax.random.normal(key_reward, shape=())
    moves_as_chosen = jax.random.uniform(key_move, shape=(), minval=0, maxval=1) > 1 / SIZE
    row, column = state["row"], state["column"]
    action_right = action == state["action_map"][row, column]
    right_cond = jnp.logical_and(action_right, moves_as_chosen)

    reward = 0.0
    at_treasure = jnp.logical_and(column == SIZE - 1, action_right)
    reward += at_treasure
    edge = jnp.logical_or(column == 0, column == SIZE - 1)
    reward += noise * jnp.logical_and(row == SIZE - 1, edge)
    reward -= right_cond * MOVE_COST / SIZE

    new_column = lax.select(right_cond, jnp.clip(column + 1, 0, SIZE - 1), column)
    went_wrong = jnp.logical_and(1 - action_right, row == new_column)
    bad = lax.select(went_wrong, True, state["bad_episode"])
    new_column = lax.select(action_right, new_column, jnp.clip(column - 1, 0, SIZE - 1))
    state = dict(state, row=row + 1, column=new_column, bad_episode=bad,
                 denoised_return=state["denoised_return"] + at_treasure,
                 time=state["time"] + 1)
    done = state["row"] == SIZE
    return state, (observe(state), reward, done)


@jax.jit
def program(seed, actions):
    key_map, key_run = jax.random.split(jax.random.PRNGKey(seed))
    state = reset(key_map)
    keys = jax.random.split(key_run, actions.shape[0])
    final, (obs, rewards, dones) = lax.scan(step, state, (keys, actions))
    return (final["action_map"], final["column"], final["bad_episode"],
            final["denoised_return"], obs.sum(axis=(1, 2)), rewards, dones)


def inputs():
    rng = np.random.default_rng(12)
    return np.int32(2), rng.integers(0, 2, SIZE).astype(np.int32)
