"""bsuite's MemoryChain through gymnax's Environment API: a class whose `step`/`reset` are
jitted with `self` static (functools.partial(jax.jit, static_argnums=(0,))), params as a
registered dataclass with a static (meta) field and defaults, the auto-reset by
tree_map(lax.select) in the base class, the discount from is_terminal, and 6 environments
stepped with jax.vmap(env.step, in_axes=(0, 0, 0, None)) in a Python loop."""
import dataclasses
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax


@partial(jax.tree_util.register_dataclass, data_fields=["time", "context", "query"],
         meta_fields=[])
@dataclasses.dataclass
class EnvState:
    time: jax.Array
    context: jax.Array
    query: jax.Array


@partial(jax.tree_util.register_dataclass, data_fields=["reward_scale"],
         meta_fields=["memory_length"])
@dataclasses.dataclass
class EnvParams:
    reward_scale: float = 1.0
    memory_length: int = 5


class Environment:
    @partial(jax.jit, static_argnums=(0,))
    def step(self, key, state, action, params):
        key, key_reset = jax.random.split(key)
        obs_st, state_st, reward, done = self.step_env(key, state, action, params)
        obs_re, state_re = self.reset_env(key_reset, params)
        state = jax.tree_util.tree_map(lambda x, y: lax.select(done, x, y), state_re, state_st)
        obs = lax.select(done, obs_re, obs_st)
        return obs, state, reward, done, self.discount(state_st, params)

    @partial(jax.jit, static_argnums=(0,))
    def reset(self, key, params):
        return self.reset_env(key, params)

    def discount(self, state, params):
        return lax.select(self.is_terminal(state, params), 0.0, 1.0)


class MemoryChain(Environment):
    def __init__(self, num_bits=3):
        self.num_bits = num_bits

    def reset_env(self, key, params):
        key_context, key_query = jax.random.split(key)
        context = jax.random.bernoulli(key_context, 0.5, (self.num_bits,))
        query = jax.random.randint(key_query, (), 0, self.num_bits)
        state = EnvState(jnp.int32(0), context, query)
        return self.get_obs(state, params), state

    def step_env(self, key, state, action, params):
        correct = action == state.context[state.query]
        at_end = state.time == params.memory_length - 1
        reward = params.reward_scale * at_end * jnp.where(correct, 1.0, -1.0)
        state = dataclasses.replace(state, time=state.time + 1)
        return self.get_obs(state, params), state, reward, self.is_terminal(state, params)

    def get_obs(self, state, params):
        obs = jnp.zeros(self.num_bits + 2)
        obs = obs.at[0].set(1 - state.time / params.memory_length)
        obs = lax.select(state.time == params.memory_length - 1,
                         obs.at[1].set(state.query), obs)
        return lax.select(state.time == 0, obs.at[2:].set(2 * state.context - 1), obs)

    def is_terminal(self, state, params):
        return state.time >= params.memory_length


def program(seed, actions):
    env, params = MemoryChain(), EnvParams()
    key = jax.random.PRNGKey(seed)
    key, *reset_keys = jax.random.split(key, 7)
    obs, state = jax.vmap(env.reset, in_axes=(0, None))(jnp.stack(reset_keys), params)
    step = jax.vmap(env.step, in_axes=(0, 0, 0, None))
    rewards, discounts, observations = [], [], [obs]
    for t in range(actions.shape[1]):
        key, *step_keys = jax.random.split(key, 7)
        obs, state, reward, done, discount = step(jnp.stack(step_keys), state, actions[:, t],
                                                  params)
        rewards.append(reward)
        discounts.append(discount)
        observations.append(obs)
    return jnp.stack(rewards), jnp.stack(discounts), jnp.stack(observations), state.context


def inputs():
    rng = np.random.default_rng(32)
    return np.int32(6), rng.integers(0, 2, (6, 12)).astype(np.int32)
