"""Code written for Python 3.12/3.13/3.14 is linted on the running 3.11: PEP 701 f-strings, PEP
695 type parameters and `type` statements, t-strings. Findings keep their exact positions, and
only genuinely invalid code is an E999 (with the parser's reason)."""

from __future__ import annotations

import ast
import sys
import textwrap

import pytest

from transpile.lint import LintConfig, lint_source
from transpile.lint.newer_syntax import lower_newer_syntax, parse_any_version


def codes(source: str) -> list[tuple[str, int, int]]:
    code = textwrap.dedent(source).lstrip("\n")
    return [(f.code, f.line, f.col) for f in lint_source(code, "mod.py", LintConfig())]


NEWER = {
    "fstring-same-quote": 'label = f"{names["x"]}: {", ".join(keys)}"\n',
    "fstring-backslash": "text = f\"{'\\n'.join(lines)}\"\n",
    "fstring-comment": 'text = f"""{\n    value  # the value\n}"""\n',
    "fstring-nested-same-quote": 'text = f"{f"{a}"!r:>{width}}"\n',
    "type-alias": "type Vector = list[float]\n",
    "generic-alias": "type Pair[T] = tuple[T, T]\n",
    "generic-def": "def first[T: (int, float), *Ts, **P](x: T) -> T:\n    return x\n",
    "generic-class-default": "class Box[T = int](Base):\n    def get[U](self, u: U) -> U:\n        return u\n",
    "tstring": 'greeting = t"hello {name}"\n',
    "except-without-parentheses": "try:\n    pass\nexcept ValueError, TypeError:\n    pass\n",
}


@pytest.mark.parametrize("name", NEWER)
def test_newer_syntax_parses_with_positions_kept(name):
    source = NEWER[name]
    lowered = lower_newer_syntax(source)
    assert len(lowered) == len(source)
    assert [len(line) for line in lowered.splitlines()] == [len(line) for line in source.splitlines()]
    assert isinstance(parse_any_version(source, "mod.py"), ast.Module)


@pytest.mark.skipif(sys.version_info >= (3, 12), reason="the running parser reads these itself")
@pytest.mark.parametrize("name", NEWER)
def test_the_running_parser_alone_would_reject_it(name):
    with pytest.raises(SyntaxError):
        ast.parse(NEWER[name])


def test_code_that_is_valid_everywhere_is_not_touched():
    source = 'type = 3\nx = f"{a} {b!r:>10}" + "{not a field}"\nclass C(Base):\n    pass\n'
    assert lower_newer_syntax(source) == source


def test_hazards_in_312_code_are_found_at_their_positions():
    found = codes(
        """
        import jax
        import jax.numpy as jnp

        type Params = dict[str, jax.Array]

        def norm[T](x: T) -> T:
            return x / jnp.linalg.norm(x)

        @jax.jit
        def step(params: Params, x, n):
            label = f"{params["w"].shape}"
            if n > 0:
                return norm(x)
            return x
        """
    )
    assert found == [("TP101", 12, 5)]


def test_a_file_of_newer_syntax_is_never_an_e999():
    source = "\n".join(NEWER.values())
    assert codes(source) == []


def test_invalid_code_is_e999_with_the_parsers_reason():
    findings = lint_source("import jax\n\n@jax.jit\ndef f(x:\n    return x\n", "bad.py", LintConfig())
    assert [(f.code, f.line) for f in findings] == [("E999", 4)]
    assert findings[0].message.startswith("SyntaxError: ") and len(findings[0].message) > len("SyntaxError: ")


def test_code_nested_past_the_recursion_limit_is_reported_not_crashed_on():
    source = "import jax\n\n@jax.jit\ndef f(x):\n    return " + " + ".join(["x"] * 10000) + "\n"
    findings = lint_source(source, "deep.py", LintConfig())
    assert [(f.code, f.line) for f in findings] == [("E902", 1)]
    assert "recursion limit" in findings[0].message
