"""gymnax/flax-style environment state as NamedTuples and a registered pytree class, stepped
by vmap over environments and scan over time; jax.tree.map, tree_flatten_with_path, Partial,
lax.switch on a traced action, lax.select_n and dynamic_slice."""
from typing import NamedTuple
from functools import partial
import jax
import jax.numpy as jnp
import numpy as np


class EnvState(NamedTuple):
    pos: jnp.ndarray
    vel: jnp.ndarray
    t: jnp.ndarray


@jax.tree_util.register_pytree_node_class
class Params:
    def __init__(self, gravity, force):
        self.gravity, self.force = gravity, force

    def tree_flatten(self):
        return (self.gravity, self.force), None

    @classmethod
    def tree_unflatten(cls, aux, children):
        return cls(*children)


def step(params, state, action):
    push = jax.lax.switch(action, [lambda: -params.force, lambda: 0.0 * params.force, lambda: params.force])
    vel = state.vel + 0.02 * (push - params.gravity * jnp.sin(state.pos))
    pos = state.pos + 0.02 * vel
    done = (jnp.abs(pos) > 1.5) | (state.t >= 40)
    new = EnvState(pos, vel, state.t + 1)
    reset = EnvState(jnp.zeros_like(pos), jnp.zeros_like(vel), jnp.zeros_like(state.t))
    new = jax.tree.map(lambda a, b: jax.lax.select(done, a, b), reset, new)
    return new, jnp.where(done, -1.0, 0.1)


@jax.jit
def program(actions, window):
    params = Params(jnp.float32(9.8), jnp.float32(3.0))
    s0 = EnvState(jnp.linspace(-0.5, 0.5, actions.shape[1]), jnp.zeros(actions.shape[1]), jnp.zeros(actions.shape[1], jnp.int32))
    def scan_fn(state, act):
        state, r = jax.vmap(step, in_axes=(None, 0, 0))(params, state, act)
        return state, r
    final, rewards = jax.lax.scan(scan_fn, s0, actions)
    paths = [jax.tree_util.keystr(p) for p, _ in jax.tree_util.tree_flatten_with_path(final)[0]]
    scale = jax.tree_util.Partial(jnp.multiply, 2.0)
    sel = jax.lax.select_n(actions[0] % 3, rewards[0], rewards[1], rewards[2])
    win = jax.lax.dynamic_slice(rewards, (window, 0), (5, actions.shape[1]))
    return final, rewards.sum(0), len(paths), scale(final.vel), sel, win


def inputs():
    rng = np.random.default_rng(21)
    return rng.integers(0, 3, (60, 4)).astype(np.int32), np.int32(10)
