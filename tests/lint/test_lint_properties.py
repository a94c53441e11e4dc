"""Properties over generated jitted functions: the linter never crashes, every value finding
names a parameter, and applying all fixes gives code that parses, has no static-argument
findings left, and does not change when fixed again."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from transpile.lint import LintConfig, fix_source, lint_source

STATEMENTS = [
    "y = y * 2",
    "if n > 0:\n    y = y + 1",
    "while n > 0:\n    n = n - 1",
    "for i in range(n):\n    y = y + i",
    "if x.ndim == 1:\n    y = y.T",
    "z = tnp.zeros(n)",
    "y = y if n else -y",
    "k = int(n) + m",
    "if x[0] > 0:\n    y = -y",
    "print(y)",
    "a, b = n, x\nif a:\n    y = b",
    "y = helper(y, n)",
    "acc = 0\nfor v in y:\n    acc = acc + v",
    "assert m > 0",
]
DECORATORS = ["@tp.jit", "@tp.jit(static_argnames=['m'])", "@partial(tp.jit, static_argnums=(2,))", "@partial(tp.jit)"]
HEADER = (
    "from functools import partial\n\nimport transpile as tp\nimport transpile.numpy as tnp\n\n\n"
    "def helper(v, k):\n    if k > 1:\n        return v\n    return -v\n\n\n"
)


def indent(text: str) -> str:
    return "".join(f"    {line}\n" for line in text.splitlines())


@st.composite
def programs(draw) -> str:
    decorator = draw(st.sampled_from(DECORATORS))
    body = draw(st.lists(st.sampled_from(STATEMENTS), min_size=1, max_size=6))
    code = "y = x\n" + "\n".join(body) + "\nreturn y"
    return HEADER + f"{decorator}\ndef f(x, n, m=1):\n{indent(code)}"


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(programs())
def test_fixing_everything_is_safe_and_stable(source):
    config = LintConfig()
    for finding in lint_source(source, "gen.py", config):
        if finding.code.startswith("TP1"):
            assert any(f"'{name}'" in finding.message for name in ("x", "n", "m", "v", "k"))
    result = fix_source(source, "gen.py", config, unsafe=True)
    compile(result.source, "gen.py", "exec")
    assert not [f for f in result.findings if "add static_argnames" in f.text]
    again = fix_source(result.source, "gen.py", config, unsafe=True)
    assert again.source == result.source
