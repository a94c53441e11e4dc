"""Fixes must make code trace: apply every fix (unsafe ones included) and run the result under
`transpile.jit`, for every kind of fix the rules offer, and for every documented example that
has a fixed form."""

from __future__ import annotations

import textwrap

import numpy as np
import pytest

from transpile.lint import LintConfig, fix_source, lint_source
from transpile.lint.rules import ALL_RULES

# (source, expression to evaluate after the fixed module has run, its expected value)
CASES = {
    "static-call-form": (
        """
        import transpile as tp

        def g(x, n):
            i = 0
            while i < n:
                i += 1
            return x + i

        g_jit = tp.jit(g)
        """,
        "g_jit(np.float64(1.0), 3)", 4.0,
    ),
    "static-bare-decorator": (
        """
        import transpile as tp

        @tp.jit
        def f(x, n):
            if n > 0:
                return x * 2
            return x
        """,
        "f(np.ones(3), 1)", np.full(3, 2.0),
    ),
    "static-extend-existing": (
        """
        from functools import partial

        import transpile as tp
        import transpile.numpy as tnp

        @partial(tp.jit, static_argnames=("m",))
        def f(x, n, m):
            for _ in range(m):
                x = x + 1
            return tnp.zeros(n) + x
        """,
        "f(np.ones(2), 2, 1)", np.full(2, 2.0),
    ),
    "static-for-conversion": (
        """
        import transpile as tp

        @tp.jit
        def f(x, k):
            return x * int(k)
        """,
        "f(np.ones(2), 3.0)", np.full(2, 3.0),
    ),
    "where-for-conditional-expression": (
        """
        import transpile as tp
        import transpile.numpy as tnp

        @tp.jit
        def clip(x):
            m = tnp.max(x)
            return x if m > 1 else x * 0
        """,
        "clip(np.array([0.5, 2.0]))", np.array([0.5, 2.0]),
    ),
    "logical-not": (
        """
        import transpile as tp
        import transpile.numpy as tnp

        @tp.jit
        def f(x):
            mask = tnp.isnan(x)
            return not mask
        """,
        "f(np.array([1.0, np.nan]))", np.array([True, False]),
    ),
    "logical-and": (
        """
        import transpile as tp
        import transpile.numpy as tnp

        @tp.jit
        def inside(x):
            return (x > 0) and (x < 1)
        """,
        "inside(np.array([0.5, 2.0]))", np.array([True, False]),
    ),
    "mask-sum-to-where": (
        """
        import transpile as tp
        import transpile.numpy as tnp

        @tp.jit
        def positive_sum(x):
            return x[x > 0].sum()
        """,
        "positive_sum(np.array([1.0, -2.0, 3.0]))", 4.0,
    ),
    "print-to-debug-print": (
        """
        import transpile as tp

        @tp.jit
        def f(x):
            y = x + 1
            print(f"y[0] = {y[0]:.2f}")
            return y
        """,
        "f(np.ones(2))", np.full(2, 2.0),
    ),
    "array-passed-so-not-static": (
        """
        import transpile as tp
        import transpile.numpy as tnp

        @tp.jit
        def flip(x, t):
            return x if t > 0 else -x

        y = flip(np.ones(2), np.full((), -1.0))
        """,
        "y", np.full(2, -1.0),
    ),
    "jit-of-partial-in-loop": (
        """
        import transpile as tp
        from functools import partial

        def body(i):
            return i + 1

        def run(x, n):
            i = x
            for _ in range(n):
                i = tp.jit(partial(body))(i)
            return i
        """,
        "run(np.zeros(2), 3)", np.full(2, 3.0),
    ),
    "unhashable-static-list": (
        """
        import transpile as tp

        def scale(x, factors):
            return x * factors[0]

        scale_jit = tp.jit(scale, static_argnums=1)
        y = scale_jit(np.ones(2), [3])
        """,
        "y", np.full(2, 3.0),
    ),
}


def _run_fixed(source: str, expression: str):
    code = textwrap.dedent(source).lstrip("\n")
    assert lint_source(code, "case.py", LintConfig()), "the case must have a finding to fix"
    fixed = fix_source(code, "case.py", LintConfig(), unsafe=True)
    assert fixed.applied, [f.text for f in fixed.findings]
    namespace = {"np": np}
    exec(compile(fixed.source, "case.py", "exec"), namespace)
    return fixed, eval(expression, namespace)


@pytest.mark.parametrize("name", CASES)
def test_fixed_code_traces_and_computes(name):
    source, expression, expected = CASES[name]
    fixed, value = _run_fixed(source, expression)
    np.testing.assert_allclose(np.asarray(value), expected)
    assert not [f for f in fixed.findings if f.fix is not None], fixed.source


def test_print_fix_keeps_the_output_as_values(capfd):
    """The print is not deleted: it becomes transpile.debug.print and shows values at run time."""
    source, expression, _ = CASES["print-to-debug-print"]
    fixed, _ = _run_fixed(source, expression)
    assert "tp.debug.print('y[0] = {:.2f}', y[0])" in fixed.source, fixed.source
    assert "y[0] = 2.00" in capfd.readouterr().out


FIXED_EXAMPLES = [
    pytest.param(rule, example, id=f"{rule.code}-{number}")
    for rule in ALL_RULES
    for number, example in enumerate(rule.invalid)
    if example.fixed is not None and "import transpile" in example.code
]


@pytest.mark.parametrize(("rule", "example"), FIXED_EXAMPLES)
def test_documented_fixes_give_importable_code(rule, example):
    """Every documented fix of transpile code gives a module that runs (jit applied at import)."""
    fixed = fix_source(example.code, "example.py", LintConfig(select=(rule.code,)), unsafe=example.unsafe)
    exec(compile(fixed.source, "example.py", "exec"), {"np": np})


def test_fix_cases_cover_every_fixing_rule():
    fixing = {rule.code for rule in ALL_RULES if rule.fix != "none"}
    covered = set()
    for source, _, _ in CASES.values():
        code = textwrap.dedent(source).lstrip("\n")
        covered |= {f.code for f in lint_source(code, "case.py", LintConfig()) if f.fix is not None}
    assert fixing <= covered, fixing - covered
