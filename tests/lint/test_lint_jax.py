"""Second-generation semantics: JAX with no configuration, configurable jit decorators, traced
status through method chains and fields, narrow mutation rules, suggestions that exist,
parallel runs."""

from __future__ import annotations

import textwrap

import pytest

from transpile.lint import LintConfig, lint_source
from transpile.lint.config import apply_table


def lint(source: str, config: LintConfig | None = None):
    return lint_source(textwrap.dedent(source).lstrip("\n"), "mod.py", config or LintConfig())


def codes(source: str, config: LintConfig | None = None) -> list[tuple[str, int]]:
    return [(f.code, f.line) for f in lint(source, config)]


BRANCH = "    if n > 0:\n        return x\n    return -x\n"


@pytest.mark.parametrize(
    "head",
    [
        "import jax\n\n@jax.jit\ndef f(x, n):\n",
        "from jax import jit\n\n@jit\ndef f(x, n):\n",
        "import jax as J\n\n@J.jit\ndef f(x, n):\n",
        "import jax\nfrom functools import partial\n\n@partial(jax.jit, static_argnums=(0,))\ndef f(x, n):\n",
    ],
)
def test_jax_is_known_without_configuration(head):
    assert [code for code, _ in codes(head + BRANCH)] == ["TP101"]


def test_jax_numpy_and_lax_are_array_namespaces():
    source = """
        import jax
        import jax.numpy as jnp
        from jax import lax

        @jax.jit
        def f(x):
            def body(i, v):
                if v.sum() > 0:
                    return v
                return -v
            y = lax.fori_loop(0, 3, body, x)
            return jnp.zeros(int(jnp.sum(y)))
        """
    found = lint(source)
    assert {f.code for f in found} == {"TP101", "TP102"}
    assert any("jnp." in f.text for f in found if f.code == "TP101")


def test_static_names_through_partial_and_call_forms():
    source = """
        import jax
        from functools import partial

        def g(x, n):
            return x[:n]

        g1 = jax.jit(g, static_argnames="n")
        g2 = jax.jit(partial(g, n=3))

        @partial(jax.jit, static_argnames=["n"])
        def h(x, n):
            for _ in range(n):
                x = x * 2
            return x
        """
    assert codes(source) == []


def test_jit_functions_setting_adds_to_the_defaults():
    config = apply_table(LintConfig(), {"jit-functions": ["mylib.compile"]}, "pyproject.toml")
    assert {"jax.jit", "transpile.jit", "equinox.filter_jit", "flax.nnx.jit", "mylib.compile"} <= set(config.jit_functions)
    filtered = """
        import equinox as eqx
        import jax.numpy as jnp

        @eqx.filter_jit
        def f(x, n, flag):
            if flag:          # not an array: filter_jit makes it static
                x = x * 2
            if jnp.sum(x) > n:
                return x
            return -x
        """
    assert codes(filtered) == [("TP101", 8)]  # equinox.filter_jit is a default
    assert codes(filtered.replace("eqx.filter_jit", "eqx.filter_vmap")) == []
    nnx = filtered.replace("import equinox as eqx", "from flax import nnx").replace("eqx.filter_jit", "nnx.jit")
    assert codes(nnx) == [("TP101", 6), ("TP101", 8)]  # nnx.jit is a default, and traces every argument
    own = filtered.replace("import equinox as eqx", "import mylib").replace("eqx.filter_jit", "mylib.compile")
    assert codes(own, config) == [("TP101", 6), ("TP101", 8)]
    assert codes(own) == []  # without the setting, mylib.compile is not a jit
    plain_jax = "import jax\n\n@jax.jit\ndef f(x):\n    if x > 0:\n        return x\n    return -x\n"
    assert codes(plain_jax, config) == [("TP101", 5)]


@pytest.mark.parametrize(
    "expression, names",
    [
        ("(x > hi).any()", "'hi' and 'x'"),
        ("(a - b).sum() > 0", "'a' and 'b'"),
        ("tnp.abs(x).max() > hi", "'hi' and 'x'"),
        ("state.params['w'].mean() > 0", "'state'"),
        ("pair[1] > 0", "'pair'"),
    ],
)
def test_traced_status_flows_through_method_calls_and_chains(expression, names):
    source = f"""
        import transpile as tp
        import transpile.numpy as tnp

        @tp.jit
        def f(x, hi, a, b, state, pair):
            if {expression}:
                return x
            return -x
        """
    found = lint(source)
    assert [f.code for f in found] == ["TP101"]
    assert names in found[0].text


def test_conversions_of_method_results_are_found():
    source = """
        import jax
        import jax.numpy as jnp

        @jax.jit
        def f(x, tol):
            a = jnp.sum(x).item()
            b = float(jnp.abs(x).max())
            err = jnp.abs(x).max()
            while err > tol:
                err = err / 2
            return a + b
        """
    assert codes(source) == [("TP102", 6), ("TP102", 7), ("TP101", 9)]


def test_static_dataclass_fields_and_metadata_are_concrete():
    source = """
        import dataclasses
        import equinox as eqx
        import jax

        class Layer(eqx.Module):
            weight: jax.Array
            activation: str = eqx.field(static=True)
            depth: int = eqx.field(static=True, default=2)

        @jax.jit
        def apply(layer, x, v):
            if layer.activation == "relu" and layer.depth > 1:
                x = x * 2
            assert v.tag == "hello"
            return x @ layer.weight
        """
    assert codes(source) == []


def test_mutation_rules_fire_only_on_real_mutation():
    source = """
        import jax
        import optax
        from flax import nnx
        from jax import lax

        opt = optax.adam(1e-3)
        REF = jax.new_ref(0.0)
        LOG = []

        @jax.jit
        def step(params, state, grads, x):
            updates, state = opt.update(grads, state)
            y = lax.add(x, x)
            nnx.update(params, state)
            REF[...] = y
            LOG.append(y)
            return updates, y
        """
    assert codes(source) == [("TP202", 16)]


def test_pytree_structure_is_concrete():
    source = """
        import jax

        @jax.jit
        def f(xs, d, scale=None):
            if not xs:
                return 0.0
            if scale:
                xs = [x * scale for x in xs]
            total = 0.0
            for key in sorted(d):
                total = total + d[key]
            return total + sum(x.sum() for x in xs) + len(xs)
        """
    assert codes(source) == []


def test_suggestions_never_name_missing_functions(monkeypatch):
    source = """
        import transpile as tp
        import transpile.numpy as tnp

        @tp.jit
        def f(x):
            return sorted(tnp.abs(x))
        """
    (finding,) = lint(source)
    assert "use tnp.sort" in finding.text  # transpile.numpy has it: read from the namespace
    from transpile.lint.rules import traced

    without_sort = traced.public_names("transpile.numpy") - {"sort"}
    monkeypatch.setattr(traced, "public_names", lambda namespace: without_sort)
    (finding,) = lint(source)
    assert "tnp.sort" not in finding.text and "not in transpile.numpy" in finding.text


def test_static_fix_is_never_offered_for_an_array_argument():
    source = """
        import transpile as tp
        import transpile.numpy as tnp

        @tp.jit
        def f(x, tol):
            if tnp.sum(x) > tol:
                return x
            if x[0] > 0:
                return -x
            return x
        """
    for finding in lint(source):
        assert "static_argnames" not in finding.text and finding.fix is None


def test_parallel_runs_match_serial_ones(tmp_path):
    from transpile.lint.runner import Job, run

    for number in range(6):
        (tmp_path / f"m{number}.py").write_text(
            f"import jax\n\n@jax.jit\ndef f{number}(x):\n    if x > {number}:\n        return x\n    return -x\n"
        )
    files = sorted(str(p) for p in tmp_path.glob("*.py"))
    serial = run(files, Job(LintConfig()), jobs=1)
    parallel = run(files, Job(LintConfig()), jobs=2)
    assert [r.findings for r in serial] == [r.findings for r in parallel]
    assert sum(len(r.findings) for r in parallel) == 6


def test_static_fix_for_a_per_step_counter_warns_about_recompiling():
    source = """
        import transpile as tp

        @tp.jit
        def step(x, k):
            if k > 2:
                return x * 2
            return x

        def run(x):
            for i in range(100):
                x = step(x, i)
            return x
        """
    (finding,) = lint(source)
    assert "static_argnames=['k']" in finding.text
    assert "changes on every pass of the loop calling it (line 11)" in finding.text


def test_columns_count_characters_not_bytes():
    source = 'import transpile as tp\n\n@tp.jit\ndef f(x, n):\n    s = "héllo wörld"; y = x if n > 0 else -x\n    return y\n'
    (finding,) = lint_source(source, "mod.py", LintConfig())
    line = source.splitlines()[4]
    assert (finding.line, finding.col - 1) == (5, line.index("n > 0"))
