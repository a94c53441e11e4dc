"""The seed documents' examples (jax -> transpile): what the linter must and must not flag,
and, where the core `jit` exists, that it flags exactly what `jit` rejects."""

from __future__ import annotations

import os
import textwrap
import types

import pytest

from transpile.lint import LintConfig, lint_source

TP1 = ("TP101", "TP102", "TP103", "TP104")

# name -> (source, the jitted object's name, its call arguments, names a finding must quote)
SEEDS = {
    "f_if_x": (
        """
        import transpile as tp

        def f(x):
            if x > 0:
                return x

        f_jit = tp.jit(f)
        """,
        "f_jit", (10,), ("'x'",),
    ),
    "g_while_n": (
        """
        import transpile as tp

        def g(x, n):
            i = 0
            while i < n:
                i += 1
            return x + i

        g_jit = tp.jit(g)
        """,
        "g_jit", (10, 20), ("'n'",),
    ),
    "f_if_n": (
        """
        from transpile import jit

        def f(x, n):
            if n > 0:
                return 3 * x**3 + 2 * x**2 + n
            else:
                return 2 * x - n

        jf = jit(f)
        """,
        "jf", (2.0, 5.0), ("'n'",),
    ),
    "f_static_argnums": (
        """
        import transpile as tp

        def f(x):
            if x > 0:
                return x

        f_jit_correct = tp.jit(f, static_argnums=0)
        """,
        "f_jit_correct", (10,), None,
    ),
    "g_static_argnames": (
        """
        import transpile as tp

        def g(x, n):
            i = 0
            while i < n:
                i += 1
            return x + i

        g_jit_correct = tp.jit(g, static_argnames=['n'])
        """,
        "g_jit_correct", (10, 20), None,
    ),
    "g_partial_decorator": (
        """
        from functools import partial
        import transpile as tp

        @partial(tp.jit, static_argnames=['n'])
        def g_jit_decorated(x, n):
            i = 0
            while i < n:
                i += 1
            return x + i
        """,
        "g_jit_decorated", (10, 20), None,
    ),
    "f3_partial_static": (
        """
        from functools import partial
        from transpile import jit

        @partial(jit, static_argnames=["n"])
        def f3(x, n):
            if n > 0:
                return 3 * x**3 + 2 * x**2 + n
            else:
                return 2 * x - n
        """,
        "f3", (2.0, 5.0), None,
    ),
    "log2_if_rank_2": (
        """
        import transpile as tp
        import transpile.numpy as tnp

        @tp.jit
        def log2_if_rank_2(x):
            if x.ndim == 2:
                ln_x = tnp.log(x)
                ln_2 = tnp.log(2.0)
                return ln_x / ln_2
            else:
                return x
        """,
        "log2_if_rank_2", ([1.0, 2.0, 3.0],), None,
    ),
    "selu": (
        """
        import transpile as tp
        import transpile.numpy as tnp

        def selu(x, alpha=1.67, lambda_=1.05):
            return lambda_ * tnp.where(x > 0, x, alpha * tnp.exp(x) - alpha)

        selu_jit = tp.jit(selu)
        """,
        "selu_jit", ([1.0, -2.0],), None,
    ),
    "sum_of_sqs_2": (
        """
        import transpile as tp

        @tp.jit
        def sum_of_sqs_2(xs):
            answer = 0
            for x in xs:
                answer += x**2
            return answer
        """,
        "sum_of_sqs_2", ([0.0, 1.0, 2.0],), None,
    ),
    "fori_loop_closure": (
        """
        import transpile as tp
        from transpile import lax
        import transpile.numpy as tnp

        @tp.jit
        def sum_sq(ary):
            return lax.fori_loop(0, 3, lambda idx, acc: acc + ary[idx] ** 2, 0.0)
        """,
        "sum_sq", ([0.0, 1.0, 2.0],), None,
    ),
}


def _code(source: str) -> str:
    return textwrap.dedent(source).lstrip("\n")


def _tp1(source: str) -> list:
    return [f for f in lint_source(_code(source), "seed.py", LintConfig()) if f.code in TP1]


@pytest.mark.parametrize("name", SEEDS)
def test_seed_examples(name):
    source, _, _, quoted = SEEDS[name]
    findings = _tp1(source)
    if quoted is None:
        assert findings == [], [f.text for f in findings]
    else:
        assert len(findings) == 1, [f.text for f in findings]
        for text in quoted:
            assert text in findings[0].text
        assert "static_argnames" in findings[0].text


def test_seed_jit_of_partial_and_lambda_in_loop():
    source = _code(
        """
        from functools import partial
        import transpile as tp

        def unjitted_loop_body(prev_i):
            return prev_i + 1

        def g_inner_jitted_partial(x, n):
            i = 0
            while i < n:
                i = tp.jit(partial(unjitted_loop_body))(i)
            return x + i

        def g_inner_jitted_lambda(x, n):
            i = 0
            while i < n:
                i = tp.jit(lambda x: unjitted_loop_body(x))(i)
            return x + i

        def g_inner_jitted_normal(x, n):
            i = 0
            while i < n:
                i = tp.jit(unjitted_loop_body)(i)
            return x + i
        """
    )
    findings = lint_source(source, "seed.py", LintConfig())
    assert [(f.code, f.line) for f in findings] == [("TP401", 10), ("TP401", 16)]


def test_seed_global_capture_and_print():
    source = _code(
        """
        from transpile import jit
        import transpile.numpy as tnp

        power = 5

        def powerof(x):
            return x ** power

        jit(powerof)(2)
        power = 10

        @jit
        def dotproduct(x, y):
            print("Inside dotproduct")
            z = tnp.dot(x, y)
            return z
        """
    )
    codes = [(f.code, f.line) for f in lint_source(source, "seed.py", LintConfig())]
    assert codes == [("TP301", 7), ("TP201", 14)]


def test_seed_log2_global_list_when_jitted():
    source = _code(
        """
        import transpile as tp
        import transpile.numpy as tnp

        global_list = []

        @tp.jit
        def log2(x):
            global_list.append(x)
            ln_x = tnp.log(x)
            ln_2 = tnp.log(2.0)
            return ln_x / ln_2
        """
    )
    assert [f.code for f in lint_source(source, "seed.py", LintConfig())] == ["TP202"]


# -- agreement with the real jit, once the core exists --------------------------------------


@pytest.mark.parametrize("name", SEEDS)
def test_lint_agrees_with_jit(name, monkeypatch):
    import transpile
    monkeypatch.setenv("TRANSPILE_BACKEND", os.environ.get("TRANSPILE_BACKEND", "interpret"))
    source, attribute, args, _ = SEEDS[name]
    module = types.ModuleType(f"seed_{name}")
    exec(compile(_code(source), f"seed_{name}.py", "exec"), module.__dict__)
    import numpy as np

    call_args = [np.asarray(a) if isinstance(a, list) and name != "sum_of_sqs_2" else a for a in args]
    try:
        getattr(module, attribute)(*call_args)
        raised = False
    except transpile.ConcretizationError:
        raised = True
    assert bool(_tp1(source)) == raised
