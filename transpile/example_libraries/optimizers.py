"""jax.example_libraries.optimizers: an optimizer is a triple
`(init_fun, update_fun, get_params)` over a pytree of parameters,

    opt_init, opt_update, get_params = optimizers.adam(1e-3)
    state = opt_init(params)
    state = opt_update(step, grads, state)       # inside a jitted step
    params = get_params(state)

Each optimizer is written for one array (`init(x0)`, `update(i, g, state)`, `get(state)`)
and `optimizer` lifts it to pytrees: the state is an `OptimizerState` pytree whose leaves
are the per-array states, so it passes through `jit` with its structure static. The update
formulas are the textbook ones, in the order of operations JAX's module uses, so results
agree with JAX's to rounding.
"""
from __future__ import annotations

import functools
from collections import namedtuple
from typing import NamedTuple

from .. import numpy as jnp
from ..tree_util import register_pytree_node, tree_flatten, tree_map, tree_unflatten

OptimizerState = namedtuple("OptimizerState", ["packed_state", "tree_def", "subtree_defs"])
register_pytree_node(
    OptimizerState,
    lambda s: ((s.packed_state,), (s.tree_def, s.subtree_defs)),
    lambda aux, children: OptimizerState(children[0], aux[0], aux[1]))


class Optimizer(NamedTuple):
    init_fn: object
    update_fn: object
    params_fn: object


def optimizer(opt_maker):
    """Lift an optimizer of one array to an optimizer of a pytree of arrays."""
    @functools.wraps(opt_maker)
    def tree_opt_maker(*args, **kwargs):
        init, update, get_params = opt_maker(*args, **kwargs)

        def tree_init(x0_tree):
            leaves, tree = tree_flatten(x0_tree)
            flat_states, subtrees = _flatten_each([init(x0) for x0 in leaves])
            return OptimizerState(flat_states, tree, subtrees)

        def tree_update(i, grad_tree, opt_state):
            flat_states, tree, subtrees = opt_state
            grads, grad_tree_def = tree_flatten(grad_tree)
            if grad_tree_def != tree:
                raise TypeError("optimizer update function was passed a gradient tree that "
                                "did not match the parameter tree structure with which it was "
                                f"initialized: parameter tree {tree} and grad tree "
                                f"{grad_tree_def}.")
            states = [tree_unflatten(d, s) for d, s in zip(subtrees, flat_states)]
            new_flat, new_subtrees = _flatten_each([update(i, g, s)
                                                    for g, s in zip(grads, states)])
            if new_subtrees != tuple(subtrees):
                raise TypeError("optimizer update function produced an output structure that "
                                "did not match its input structure")
            return OptimizerState(new_flat, tree, subtrees)

        def tree_get_params(opt_state):
            flat_states, tree, subtrees = opt_state
            return tree_unflatten(tree, [get_params(tree_unflatten(d, s))
                                         for d, s in zip(subtrees, flat_states)])
        return Optimizer(tree_init, tree_update, tree_get_params)
    return tree_opt_maker


def _flatten_each(states):
    """(leaves per state, tree per state), as tuples: the trees are the OptimizerState's
    static part, which jit hashes."""
    pairs = [tree_flatten(s) for s in states]
    return tuple(p[0] for p in pairs), tuple(p[1] for p in pairs)


def _first(state):
    return state[0]


@optimizer
def sgd(step_size):
    step_size = make_schedule(step_size)
    return (lambda x0: x0, lambda i, g, x: x - step_size(i) * g, lambda x: x)


@optimizer
def momentum(step_size, mass):
    step_size = make_schedule(step_size)

    def update(i, g, state):
        x, velocity = state
        velocity = mass * velocity + g
        return x - step_size(i) * velocity, velocity
    return (lambda x0: (x0, jnp.zeros_like(x0)), update, _first)


@optimizer
def nesterov(step_size, mass):
    step_size = make_schedule(step_size)

    def update(i, g, state):
        x, velocity = state
        velocity = mass * velocity + g
        return x - step_size(i) * (mass * velocity + g), velocity
    return (lambda x0: (x0, jnp.zeros_like(x0)), update, _first)


@optimizer
def adagrad(step_size, momentum=0.9):
    step_size = make_schedule(step_size)

    def update(i, g, state):
        x, g_sq, m = state
        g_sq = g_sq + jnp.square(g)
        g_sq_inv_sqrt = jnp.where(g_sq > 0, 1.0 / jnp.sqrt(g_sq), 0.0)
        m = (1.0 - momentum) * (g * g_sq_inv_sqrt) + momentum * m
        return x - step_size(i) * m, g_sq, m
    return (lambda x0: (x0, jnp.zeros_like(x0), jnp.zeros_like(x0)), update, _first)


@optimizer
def rmsprop(step_size, gamma=0.9, eps=1e-8):
    step_size = make_schedule(step_size)

    def update(i, g, state):
        x, avg_sq_grad = state
        avg_sq_grad = avg_sq_grad * gamma + jnp.square(g) * (1.0 - gamma)
        return x - step_size(i) * g / jnp.sqrt(avg_sq_grad + eps), avg_sq_grad
    return (lambda x0: (x0, jnp.zeros_like(x0)), update, _first)


@optimizer
def rmsprop_momentum(step_size, gamma=0.9, eps=1e-8, momentum=0.9):
    step_size = make_schedule(step_size)

    def update(i, g, state):
        x, avg_sq_grad, mom = state
        avg_sq_grad = avg_sq_grad * gamma + jnp.square(g) * (1.0 - gamma)
        mom = momentum * mom + step_size(i) * g / jnp.sqrt(avg_sq_grad + eps)
        return x - mom, avg_sq_grad, mom
    return (lambda x0: (x0, jnp.zeros_like(x0), jnp.zeros_like(x0)), update, _first)


def _bias_correction(beta, like, i):
    """1 - beta**(i + 1) in the moments' dtype (a float32 model stays float32)."""
    return 1 - jnp.asarray(beta, like.dtype) ** (i + 1)


@optimizer
def adam(step_size, b1=0.9, b2=0.999, eps=1e-8):
    step_size = make_schedule(step_size)

    def update(i, g, state):
        x, m, v = state
        m = (1 - b1) * g + b1 * m                    # first moment
        v = (1 - b2) * jnp.square(g) + b2 * v        # second moment
        m_hat, v_hat = m / _bias_correction(b1, m, i), v / _bias_correction(b2, m, i)
        return x - step_size(i) * m_hat / (jnp.sqrt(v_hat) + eps), m, v
    return (lambda x0: (x0, jnp.zeros_like(x0), jnp.zeros_like(x0)), update, _first)


@optimizer
def adamax(step_size, b1=0.9, b2=0.999, eps=1e-8):
    step_size = make_schedule(step_size)

    def update(i, g, state):
        x, m, u = state
        m = (1 - b1) * g + b1 * m
        u = jnp.maximum(b2 * u, jnp.abs(g))          # weighted infinity norm
        return x - (step_size(i) / _bias_correction(b1, m, i)) * m / (u + eps), m, u
    return (lambda x0: (x0, jnp.zeros_like(x0), jnp.zeros_like(x0)), update, _first)


@optimizer
def sm3(step_size, momentum=0.9):
    """SM3 (Anil et al. 2019): one accumulator per axis, their minimum per element."""
    step_size = make_schedule(step_size)

    def along(ndim, v, axis):
        index = [None] * ndim
        index[axis] = slice(None)
        return v[tuple(index)]

    def init(x0):
        x = jnp.atleast_1d(x0)
        return x, jnp.zeros_like(x), [jnp.zeros(n, dtype=x.dtype) for n in x.shape], x0.shape

    def update(i, g, state):
        x, m, vs, x_shape = state
        accum = functools.reduce(jnp.minimum, [along(g.ndim, v, a) for a, v in enumerate(vs)])
        accum = accum + jnp.square(g)
        accum_inv_sqrt = jnp.where(accum > 0, 1.0 / jnp.sqrt(accum), 0)
        m = (1.0 - momentum) * (g * accum_inv_sqrt) + momentum * m
        vs = [accum.max(tuple(a for a in range(x.ndim) if a != j)) for j in range(x.ndim)]
        return x - step_size(i) * m, m, vs, x_shape
    return init, update, lambda state: state[0].reshape(state[3])


# -- step-size schedules: step number -> step size -----------------------------------------

def constant(step_size):
    return lambda i: step_size


def exponential_decay(step_size, decay_steps, decay_rate):
    return lambda i: step_size * decay_rate ** (i / decay_steps)


def inverse_time_decay(step_size, decay_steps, decay_rate, staircase=False):
    if staircase:
        return lambda i: step_size / (1 + decay_rate * jnp.floor(i / decay_steps))
    return lambda i: step_size / (1 + decay_rate * i / decay_steps)


def polynomial_decay(step_size, decay_steps, final_step_size, power=1.0):
    def schedule(step_num):
        fraction_left = 1 - jnp.minimum(step_num, decay_steps) / decay_steps
        return fraction_left ** power * (step_size - final_step_size) + final_step_size
    return schedule


def piecewise_constant(boundaries, values):
    boundaries, values = jnp.array(boundaries), jnp.array(values)
    if not boundaries.ndim == values.ndim == 1:
        raise ValueError("boundaries and values must be sequences")
    if not boundaries.shape[0] == values.shape[0] - 1:
        raise ValueError("boundaries length must be one shorter than values length")
    return lambda i: values[jnp.sum(i > boundaries)]


def make_schedule(scalar_or_schedule):
    if callable(scalar_or_schedule):
        return scalar_or_schedule
    if jnp.ndim(scalar_or_schedule) == 0:
        return constant(scalar_or_schedule)
    raise TypeError(f"step_size must be a scalar or a schedule (a function of the step), "
                    f"got {type(scalar_or_schedule).__name__}")


# -- utilities ------------------------------------------------------------------------------

def l2_norm(tree):
    """The L2 norm of all the leaves of a pytree together."""
    leaves, _ = tree_flatten(tree)
    return jnp.sqrt(sum(jnp.vdot(x, x) for x in leaves))


def clip_grads(grad_tree, max_norm):
    """Scale a gradient pytree down to L2 norm `max_norm` when it is longer."""
    norm = l2_norm(grad_tree)
    return tree_map(lambda g: jnp.where(norm < max_norm, g, g * (max_norm / norm)), grad_tree)


class JoinPoint:
    """A marker leaf holding one parameter's optimizer state (unpack/pack_optimizer_state)."""

    def __init__(self, subtree):
        self.subtree = subtree

    def __iter__(self):
        yield self.subtree


def unpack_optimizer_state(opt_state):
    """An OptimizerState as a pytree of JoinPoints in the parameters' structure (picklable)."""
    flat_states, tree, subtrees = opt_state
    return tree_unflatten(tree, [JoinPoint(tree_unflatten(d, s))
                                 for d, s in zip(subtrees, flat_states)])


def pack_optimizer_state(marked_pytree):
    """The inverse of unpack_optimizer_state."""
    joins, tree = tree_flatten(marked_pytree)
    if not all(isinstance(j, JoinPoint) for j in joins):
        raise TypeError("pack_optimizer_state: expected the pytree unpack_optimizer_state "
                        "returned (its leaves are JoinPoints)")
    flat_states, subtrees = _flatten_each([j.subtree for j in joins])
    return OptimizerState(flat_states, tree, subtrees)
