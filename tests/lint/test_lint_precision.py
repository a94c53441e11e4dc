"""Third-generation precision: rules report what fails at run time and nothing that works in
real library code (jit factories, `f = jax.jit(f)`, if/else imports, Python-bool predicates,
NumPy calls that transpile's tracers accept, static pytree metadata)."""

from __future__ import annotations

import textwrap

import pytest

from transpile.lint import LintConfig, lint_source


def lint(source: str):
    return lint_source(textwrap.dedent(source).lstrip("\n"), "mod.py", LintConfig())


def codes(source: str) -> list[tuple[str, int]]:
    return [(f.code, f.line) for f in lint(source)]


# -- TP401: only a jit object built again and again -------------------------------------------

FACTORY = """
    import jax

    def make_step(scale):
        return jax.jit(lambda x: x * scale)

    step = make_step(2.0)
    """


def test_a_factory_that_runs_once_is_not_reported():
    assert codes(FACTORY) == []


def test_a_function_a_loop_drives_is_reported_with_the_loop_line():
    source = FACTORY + "\n    def sweep(scales, x):\n        return [make_step(s)(x) for s in scales]\n"
    findings = lint(source)
    assert [(f.code, f.line) for f in findings] == [("TP401", 4)]
    assert "loop on line 9" in findings[0].message


def test_a_function_called_from_a_loop_through_another_is_reported():
    source = """
        import jax

        def apply(x, k):
            return jax.jit(lambda v: v + k)(x)

        def one_pass(x, k):
            return apply(x, k)

        def run(x):
            for k in range(10):
                x = one_pass(x, k)
            return x
        """
    assert codes(source) == [("TP401", 4)]


# -- TP301: only a global rebound after the traced function can read it ------------------------


@pytest.mark.parametrize(
    "module",
    [
        "import jax\n\ndef f(x):\n    return x\n\nf = jax.jit(f)\ng = jax.jit(lambda x: f(x) + 1)\n",
        "import jax\nimport sys\n\nif sys.platform == 'win32':\n    EPS = 1e-5\nelse:\n    EPS = 1e-6\n\n"
        "@jax.jit\ndef f(x):\n    return x + EPS\n",
        "import jax\n\ntry:\n    import scipy\n    TOL = 1e-8\nexcept ImportError:\n    TOL = 1e-6\n\n"
        "@jax.jit\ndef f(x):\n    return x + TOL\n",
        "import jax\n\nSCALE = 1.0\nSCALE = 2.0\n\n@jax.jit\ndef f(x):\n    return x * SCALE\n",
    ],
    ids=["rewrapped-function", "if-else-constant", "try-except-import", "rebound-before-def"],
)
def test_bindings_fixed_before_tracing_are_not_stale(module):
    assert codes(module) == []


def test_a_rebinding_after_the_def_is_reported():
    source = "import jax\n\nSCALE = 1.0\n\n@jax.jit\ndef f(x):\n    return x * SCALE\n\nSCALE = 2.0\n"
    findings = lint(source)
    assert [(f.code, f.line) for f in findings] == [("TP301", 7)]
    assert "line 9" in findings[0].message


# -- static values -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "test",
    ["jnp.iscomplexobj(x)", "jnp.isscalar(x)", "eqx.is_array(x)", "jnp.issubdtype(x.dtype, jnp.floating)",
     "isinstance(x, tuple)", "x.ndim == 2", "len(x.shape) > 1", "jax.tree.structure(x) == jax.tree.structure(y)"],
)  # fmt: skip
def test_python_bool_predicates_are_static(test):
    source = f"""
        import equinox as eqx
        import jax
        import jax.numpy as jnp

        @jax.jit
        def f(x, y):
            if {test}:
                return x
            return y
        """
    assert codes(source) == []


def test_static_argnames_given_as_a_module_constant_is_resolved():
    source = """
        from functools import partial
        import jax

        STATIC = ("n",)

        @partial(jax.jit, static_argnames=STATIC)
        def f(x, n, m):
            for _ in range(n):
                x = x * 2
            return x if m > 0 else x
        """
    assert codes(source) == [("TP101", 10)]  # n is static; m is still traced


def test_match_is_reported_on_the_first_comparing_case():
    source = """
        import jax

        @jax.jit
        def f(x, kind):
            match kind:
                case [a, b]:
                    return a
                case "abs":
                    return abs(x)
            return x
        """
    assert codes(source) == [("TP101", 8)]


@pytest.mark.parametrize(
    "field",
    ["order: int = md.static_field()", "order: int = eqx.field(static=True)",
     "order: int = struct.field(pytree_node=False)",
     "order: int = dataclasses.field(metadata=dict(static=True))"],
)  # fmt: skip
def test_static_field_styles(field):
    source = f"""
        import dataclasses
        import equinox as eqx
        import jax
        from flax import struct
        from jax_md import dataclasses as md

        @struct.dataclass
        class Poly:
            values: jax.Array
            {field}

        @jax.jit
        def f(p: Poly, x):
            for k in range(p.order):
                x = x * p.values[k]
            return x
        """
    assert codes(source) == []


def test_a_field_declared_bool_is_a_traced_leaf_under_jax_jit_but_static_under_filter_jit():
    template = """
        import equinox as eqx
        import jax

        class Cfg(eqx.Module):
            flag: bool

        @{jit}
        def f(cfg: Cfg, x):
            if cfg.flag:
                return x
            return -x
        """
    assert codes(template.format(jit="jax.jit")) == [("TP101", 9)]
    assert codes(template.format(jit="eqx.filter_jit")) == []


def test_an_optional_field_truth_test_is_structure():
    source = """
        import jax
        from typing import Optional
        from flax import struct

        @struct.dataclass
        class State:
            scale: Optional[jax.Array]

        @jax.jit
        def f(state: State, x):
            if state.scale:
                x = x * state.scale
            return x
        """
    assert codes(source) == []


# -- NumPy on tracers: works under transpile.jit (NumPy protocols), not under jax.jit -----------


def test_numpy_calls_on_tracers_trace_under_transpile_jit_only():
    body = "\n@{jit}\ndef f(x):\n    return np.sin(x) + np.sum(x)\n"
    head = "import numpy as np\nimport jax\nimport transpile as tp\n"
    assert codes(head + body.format(jit="tp.jit")) == []
    assert [code for code, _ in codes(head + body.format(jit="jax.jit"))] == ["TP102", "TP102"]
    converting = head + "\n@tp.jit\ndef g(x):\n    return np.asarray(x)\n"
    assert [code for code, _ in codes(converting)] == ["TP102"]  # __array__ still fails


def test_partial_with_keyword_options_binds_the_keyword_only_parameters():
    source = """
        import functools
        import jax

        def kernel(x, *, config, scale=1.0):
            if config.fast:
                return x * scale
            return x

        def build(**options):
            return jax.jit(functools.partial(kernel, **options))
        """
    assert codes(source) == []


def test_a_default_no_call_passes_is_filled_in_by_python_while_tracing():
    source = """
        import jax

        @jax.jit
        def forward(x, training=False):
            if training:
                return x * 0.5
            return x

        y = forward(1.0)
        """
    assert codes(source) == []
    assert codes(source.replace("forward(1.0)", "forward(1.0, training=True)")) == [("TP101", 5)]
    assert codes(source.replace("forward(1.0)", "forward(1.0, True)")) == [("TP101", 5)]


def test_jit_of_a_fresh_transformation_in_a_loop_is_reported_without_a_wrong_fix():
    source = """
        import jax
        import jax.numpy as jnp

        def loss(w, x):
            return jnp.sum(w * x)

        def train(w, batches):
            for x in batches:
                w = w - jax.jit(jax.grad(loss))(w, x)
            return w

        step = jax.jit(jax.grad(loss))
        """
    findings = lint(source)
    assert [(f.code, f.line) for f in findings] == [("TP401", 9)]
    assert findings[0].fix is None and "jax.grad(loss)" in findings[0].help


def test_a_transformed_bound_method_binds_its_arguments_after_self():
    # `jax.value_and_grad(self._loss)(params, batch)`: `self` is the (static) receiver, so
    # `self._limit` is a Python float and only the branch on `theta` is a hazard.
    source = """
    import functools
    import jax
    import jax.numpy as jnp

    class Learner:
        def __init__(self, limit):
            self._limit = limit

        def _loss(self, theta, batch):
            if self._limit > 0:
                batch = jnp.clip(batch, -self._limit, self._limit)
            if theta.sum() > 0:
                return theta.sum()
            return (theta * batch).sum()

        @functools.partial(jax.jit, static_argnums=0)
        def update(self, params, batch):
            return jax.value_and_grad(self._loss)(params, batch)
    """
    assert codes(source) == [("TP101", 12)]


NNX_MODULE = """
    import jax
    import jax.numpy as jnp
    from flax import nnx

    class Scaler(nnx.Module):
        def __init__(self, rate, width, *, rngs):
            self.rate = rate
            self.halved = rate / 2 if width > 1 else rate
            self.layer = nnx.Linear(width, width, rngs=rngs)
            self.scale = nnx.Param(jnp.ones((width,)))

        def __call__(self, x):
            if self.rate > 0 and self.halved < 1:
                x = x * self.rate
            if self.scale[...].sum() > 0:
                x = -x
            return self.layer(x)

    scaler = Scaler(0.5, 3, rngs=nnx.Rngs(0))
    """


@pytest.mark.parametrize(
    "caller",
    ["@nnx.jit\n    def run(scaler, x):\n        return scaler(x)\n",
     "graphdef, state = nnx.split(scaler)\n\n    @jax.jit\n    def run(state, x):\n"
     "        model = nnx.merge(graphdef, state)\n        return model(x)\n"],
)  # fmt: skip
def test_nnx_plain_attributes_are_static_and_variables_traced(caller):
    # Plain attributes live in the graph definition (Python values); nnx.Param is state.
    assert codes(NNX_MODULE + "\n\n    " + caller) == [("TP101", 15)]


SWEEP = """
    import functools
    import jax

    def kernel(x, tile):
        return x * tile

    def build(**kwargs):
        return jax.jit(functools.partial(kernel, **kwargs))

    def tune(x, tiles):
        for tile in tiles:
            config = {{"tile": tile}}
            build({argument})(x)
    """


def test_a_factory_swept_over_configurations_is_not_reported():
    # Each pass hands the factory a new configuration: a new function, compiled once, is the point.
    assert codes(SWEEP.format(argument="**config")) == []
    assert codes(SWEEP.format(argument="tile=tile")) == []


def test_a_factory_called_with_the_same_values_on_each_pass_is_still_reported():
    assert codes(SWEEP.format(argument="tile=2")) == [("TP401", 8)]


def test_psum_of_a_python_number_is_the_axis_size():
    # JAX folds `lax.psum(1, axis)` to a Python int (its idiom for the axis size).
    source = """
    import jax
    from jax import lax

    def rotate(x, axis_name):
        count = lax.psum(1, axis_name)
        perm = [(i, (i + 1) % count) for i in range(count)]
        return lax.ppermute(x, axis_name=axis_name, perm=perm)

    def total(x, axis_name):
        if lax.psum(x, axis_name).sum() > 0:
            return x
        return -x

    step = jax.jit(jax.vmap(rotate, axis_name="i"), static_argnums=1)
    summed = jax.jit(jax.vmap(total, axis_name="i"), static_argnums=1)
    """
    assert codes(source) == [("TP101", 10)]


def test_a_name_rebound_to_partial_and_transforms_keeps_what_partial_binds():
    # chex's tests: foo = partial(foo, flag=True); foo = jax.pmap(foo); foo = jax.jit(foo)
    source = """
    import functools
    import jax

    def run(x, y):
        def foo(x, y, flag):
            return (x * 2) + y if flag else (x + y)
        foo = functools.partial(foo, flag=True)
        foo = jax.pmap(foo)
        foo = jax.jit(foo)
        return foo(x, y)

    def bar(x, flag):
        return x if flag else -x

    bar = jax.jit(bar)
    """
    assert codes(source) == [("TP101", 13)]
