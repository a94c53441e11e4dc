"""Third-generation recall: hazards reached through transformations, module calls, shape
arguments outside the array namespace, array results of constants, and trace-time side
effects. (The corpus file hazards_modern.py holds the same kinds in realistic code.)"""

from __future__ import annotations

import textwrap

import pytest

from transpile.lint import LintConfig, lint_source

HEAD = """
import functools
import logging
import jax
import jax.numpy as jnp
import numpy as np
import transpile as tp
import transpile.numpy as tnp
"""


def codes(body: str) -> list[tuple[str, int]]:
    source = HEAD.lstrip("\n") + textwrap.dedent(body)
    offset = HEAD.strip("\n").count("\n") + 1
    return [(f.code, f.line - offset) for f in lint_source(source, "mod.py", LintConfig())]


BRANCHY = """
def branchy(w, x):
    if x.sum() > 0:
        return w * x
    return w
"""


@pytest.mark.parametrize(
    "wrapping",
    ["jax.jit(jax.grad(branchy))", "jax.jit(jax.vmap(branchy))", "jax.jit(jax.checkpoint(branchy))",
     "jax.jit(jax.value_and_grad(branchy))", "jax.jit(jax.vmap(jax.grad(branchy)))"],
)  # fmt: skip
def test_jit_of_a_transformation_analyses_the_wrapped_function(wrapping):
    assert codes(BRANCHY + f"\nstep = {wrapping}\n") == [("TP101", 3)]


@pytest.mark.parametrize(
    "call",
    ["jax.grad(branchy)(w, x)", "jax.vmap(branchy)(w, x)", "jax.vmap(lambda r: branchy(w, r))(x)",
     "jax.tree_util.tree_map(branchy, w, x)", "jax.tree.map(lambda a, b: branchy(a, b), w, x)",
     "jax.vjp(branchy, w, x)", "jax.grad(functools.partial(branchy, w))(x)"],
)  # fmt: skip
def test_transformations_inside_jit_are_followed(call):
    body = BRANCHY + f"\n@jax.jit\ndef outer(w, x):\n    return {call}\n"
    assert codes(body) == [("TP101", 3)]


def test_a_transformed_function_bound_to_a_name_is_followed():
    body = BRANCHY + "\n@jax.jit\ndef outer(w, x):\n    g = jax.grad(branchy)\n    return g(w, x)\n"
    assert codes(body) == [("TP101", 3)]


def test_array_results_of_constants_are_tracers_under_their_own_jit_only():
    jax_body = "\n@jax.jit\ndef f(x):\n    return jnp.zeros(int(jnp.ceil(x.shape[0] / 2)))\n"
    assert codes(jax_body) == [("TP102", 4)]
    tp_body = "\n@tp.jit\ndef f(x):\n    return tnp.zeros(int(tnp.ceil(x.shape[0] / 2)))\n"
    assert codes(tp_body) == [("TP102", 4)]
    eager = "\n@tp.jit\ndef f(x):\n    return tnp.zeros(int(jnp.ceil(x.shape[0] / 2)))\n"
    assert codes(eager) == []  # jax.numpy outside a JAX trace computes a concrete value
    static = "\n@jax.jit\ndef f(x):\n    return jnp.zeros(int(np.ceil(x.shape[0] / 2))) + jnp.finfo(x.dtype).eps\n"
    assert codes(static) == []


@pytest.mark.parametrize(
    ("expression", "code"),
    [("jax.nn.one_hot(x, n)", "TP103"), ("jax.random.normal(key, (n,))", "TP103"),
     ("jax.random.split(key, n)", "TP103"), ("jax.lax.dynamic_slice(x, (0,), (n,))", "TP103"),
     ("jax.lax.scan(lambda c, _: (c, c), x, None, length=n)", "TP103"),
     ("jnp.repeat(x, n)", "TP103"), ("x.at[x > 0].set(0.0)", "TP105")],
)  # fmt: skip
def test_shape_arguments_outside_the_array_namespace(expression, code):
    body = f"\n@jax.jit\ndef f(x, n, key):\n    return {expression}\n"
    assert codes(body) == [(code, 4)]


def test_repeat_with_a_total_length_has_a_fixed_shape():
    assert codes("\n@jax.jit\ndef f(x, n):\n    return jnp.repeat(x, n, total_repeat_length=8)\n") == []


def test_trace_time_side_effects():
    body = """
    LOG = logging.getLogger(__name__)

    @jax.jit
    def f(x):
        logging.info("tracing f")  # no tracer: a deliberate trace-time message
        LOG.warning("x is %s", x)
        noise = np.random.uniform(size=3)
        return x + noise, f"{x.mean():.2f}"
    """
    assert codes(body) == [("TP201", 7), ("TP202", 8), ("TP102", 9)]


def test_an_equinox_module_argument_runs_its_call():
    body = """
    import equinox as eqx

    class Block(eqx.Module):
        weight: jax.Array

        def __call__(self, x):
            if jnp.any(x > 0):
                return self.weight * x
            return x

    @eqx.filter_jit
    def run(block, x):
        return block(x)
    """
    assert codes(body) == []  # nothing says `block` is a Block
    assert codes(textwrap.dedent(body) + "\nmodel = Block(jnp.ones(3))\n") == [("TP101", 8)]
    assert codes(body.replace("def run(block, x)", "def run(block: Block, x)")) == [("TP101", 8)]


def test_train_state_apply_fn_runs_the_modules_linen_call():
    body = """
    import flax.linen as nn

    class CNN(nn.Module):
        @nn.compact
        def __call__(self, x, train: bool = False):
            x = nn.Dense(10)(x)
            if train:
                x = nn.Dropout(0.5, deterministic=False)(x)
            if x.sum() > 0:
                x = -x
            return x

    @jax.jit
    def apply_model(state, images):
        def loss_fn(params):
            return jnp.mean(state.apply_fn({"params": params}, images, train=True))
        return jax.grad(loss_fn)(state.params)

    def create(rng):
        cnn = CNN()
        return cnn.init(rng, jnp.ones([1, 4]))
    """
    assert codes(body) == [("TP101", 10)]


def test_custom_derivative_rules_are_traced_when_differentiated():
    body = """
    @jax.custom_jvp
    def safe_log(x):
        return jnp.log(x)

    @safe_log.defjvp
    def safe_log_jvp(primals, tangents):
        (x,), (t,) = primals, tangents
        if x > 0:
            return safe_log(x), t / x
        return safe_log(x), 0.0 * t

    @jax.custom_vjp
    def clip(x):
        return x

    def clip_fwd(x):
        return x, x

    def clip_bwd(residual, g):
        return (g if g.sum() > 0 else -g,)

    clip.defvjp(clip_fwd, clip_bwd)

    @jax.jit
    def f(x):
        return jax.grad(lambda v: safe_log(v) + clip(v))(x)
    """
    assert codes(body) == [("TP101", 9), ("TP101", 21)]
