"""Working code in the idioms of JAX libraries (optimizer transformations, linen and equinox
modules, pytree dataclasses with static metadata, environments, factories that jit once):
none of it fails under jit, so none of it may be reported."""

import dataclasses
import functools
import logging
from typing import NamedTuple, Optional

import equinox as eqx
import flax.linen as nn
import jax
import jax.numpy as jnp
import numpy as np
from flax import struct
from jax_md import dataclasses as md_dataclasses

try:
    import scipy.special as special

    HAVE_SCIPY = True
except ImportError:
    special = None
    HAVE_SCIPY = False

STATIC_OPTIONS = ("num_steps", "method")
EPS = 1e-8


# -- an optimizer in the optax style: init/update closures over hyperparameters -------------


class MomentState(NamedTuple):
    count: jax.Array
    mu: dict
    nu: dict


def scale_by_moments(b1: float = 0.9, b2: float = 0.999, *, nesterov: bool = False):
    def init_fn(params):
        zeros = jax.tree.map(jnp.zeros_like, params)
        return MomentState(count=jnp.zeros([], jnp.int32), mu=zeros, nu=zeros)

    def update_fn(updates, state, params=None):
        del params
        mu = jax.tree.map(lambda m, g: b1 * m + (1 - b1) * g, state.mu, updates)
        nu = jax.tree.map(lambda v, g: b2 * v + (1 - b2) * jnp.square(g), state.nu, updates)
        count = state.count + 1
        if nesterov:
            mu = jax.tree.map(lambda m, g: b1 * m + (1 - b1) * g, mu, updates)
        corrected = jax.tree.map(lambda m, v: m / (jnp.sqrt(v) + EPS), mu, nu)
        return corrected, MomentState(count=count, mu=mu, nu=nu)

    return init_fn, update_fn


_, moment_update = scale_by_moments()
jitted_update = jax.jit(moment_update)


def apply_every(k: int):
    def update(updates, count):
        emit = count % k == 0
        return jax.tree.map(lambda u: jnp.where(emit, u, jnp.zeros_like(u)), updates)

    return jax.jit(update)  # a factory: runs once per configuration


# -- modules ---------------------------------------------------------------------------------


class MLP(nn.Module):
    hidden: int
    use_bias: bool = True
    dropout_rate: float = 0.0

    @nn.compact
    def __call__(self, x, training: bool = False):
        x = nn.Dense(self.hidden, use_bias=self.use_bias)(x)
        if self.dropout_rate > 0:
            x = nn.Dropout(self.dropout_rate, deterministic=not training)(x)
        if x.ndim > 1:
            x = x.reshape((x.shape[0], -1))
        return nn.relu(x)


mlp = MLP(16)


@jax.jit
def predict(variables, x):
    return mlp.apply(variables, x)


@functools.partial(jax.jit, static_argnames=("training",))
def predict_train(variables, x, training):
    return mlp.apply(variables, x, training=training)


class Linear(eqx.Module):
    weight: jax.Array
    bias: Optional[jax.Array]
    use_bias: bool = eqx.field(static=True)
    activation: str = "relu"

    def __call__(self, x):
        y = self.weight @ x
        if self.use_bias:
            y = y + self.bias
        if self.activation == "relu":
            y = jax.nn.relu(y)
        return y


@eqx.filter_jit
def run_linear(model: Linear, x):
    params, static = eqx.partition(model, eqx.is_array)
    model = eqx.combine(params, static)
    return model(x)


@eqx.filter_jit
def count_arrays(tree):
    leaves = [leaf for leaf in jax.tree_util.tree_leaves(tree) if eqx.is_array(leaf)]
    return len(leaves)


# -- pytree dataclasses with static metadata -------------------------------------------------


@md_dataclasses.dataclass
class ChainState:
    position: jax.Array
    momentum: jax.Array
    chain_length: int = md_dataclasses.static_field()


@jax.jit
def chain_step(state: ChainState, dt):
    momentum = state.momentum
    for _ in range(state.chain_length):
        momentum = momentum * jnp.exp(-dt)
    return dataclasses.replace(state, momentum=momentum)


@struct.dataclass
class EnvParams:
    max_steps: int = 200
    gravity: float = 9.8
    render_mode: str = struct.field(pytree_node=False, default="none")


@struct.dataclass
class EnvState:
    position: jax.Array
    time: int


class Pendulum:
    @property
    def default_params(self) -> EnvParams:
        return EnvParams()

    @functools.partial(jax.jit, static_argnums=(0,))
    def step(self, key, state: EnvState, action, params: Optional[EnvParams] = None):
        if params is None:
            params = self.default_params
        if params.render_mode == "human":
            action = action * 1.0
        noise = jax.random.normal(key, state.position.shape)
        position = state.position + params.gravity * action + 0.01 * noise
        time = state.time + 1
        done = time >= params.max_steps
        new_state = EnvState(position=jnp.where(done, jnp.zeros_like(position), position), time=time)
        return new_state, done


@functools.partial(jax.tree_util.register_dataclass, data_fields=["values"], meta_fields=["order"])
@dataclasses.dataclass
class Polynomial:
    values: jax.Array
    order: int


@jax.jit
def evaluate_polynomial(poly: Polynomial, x):
    total = jnp.zeros_like(x)
    for power in range(poly.order + 1):
        total = total + poly.values[power] * x**power
    return total


@jax.tree_util.register_static
@dataclasses.dataclass(frozen=True)
class Solver:
    tolerance: float
    max_iterations: int


@jax.jit
def solve(solver: Solver, x):
    if solver.max_iterations > 10:
        x = x * 0.5
    return jax.lax.fori_loop(0, solver.max_iterations, lambda i, v: v * 0.9, x)


# -- predicates, structure and dtypes are static --------------------------------------------


@jax.jit
def magnitude(x):
    if jnp.iscomplexobj(x):
        return x.real**2 + x.imag**2
    if jnp.isscalar(x) or x.ndim == 0:
        return x * x
    if jnp.issubdtype(x.dtype, jnp.integer):
        x = x.astype(jnp.float32)
    return jnp.abs(x)


@jax.jit
def check_structure(a, b):
    if jax.tree.structure(a) != jax.tree.structure(b):
        raise ValueError("trees differ")
    logging.info("tracing check_structure")  # a trace-time message, on purpose
    return jax.tree.map(jnp.add, a, b)


@functools.partial(jax.jit, static_argnames=STATIC_OPTIONS)
def integrate(x, num_steps, method):
    match method:
        case "euler":
            scale = 1.0
        case _:
            scale = 0.5
    for _ in range(num_steps):
        x = x + scale * x
    return x


@jax.jit
def halves(x):
    half = x.shape[0] // 2
    count = int(np.ceil(x.shape[0] / 2))
    return x[:half], jnp.zeros(count)


@jax.jit
def grad_of_norm(w):
    return jax.grad(lambda v: jnp.sum(v**2))(w)


@jax.jit
def batched_norms(xs):
    return jax.vmap(lambda row: jnp.sqrt(jnp.sum(row**2)))(xs)


def gamma_ratio(x):
    return jnp.exp(x) + (0.0 if special is None else 1.0)


gamma_ratio = jax.jit(gamma_ratio)


# -- jit once, call in loops -------------------------------------------------------------------


def make_train_step(learning_rate):
    def loss(w, x, y):
        return jnp.mean((x @ w - y) ** 2)

    @jax.jit
    def step(w, x, y):
        return w - learning_rate * jax.grad(loss)(w, x, y)

    return step


def fit(batches, w):
    step = make_train_step(0.1)
    for x, y in batches:
        w = step(w, x, y)
    return w


def benchmark_shapes(sizes):
    results = []
    for n in sizes:
        results.append(jax.jit(jnp.cumsum)(jnp.ones(n)))
    return results
