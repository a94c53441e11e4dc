"""Fixes rewrite only what they must: the static_argnames edit in each jit form, imports, and
safe fixes; formatting and comments elsewhere survive, and fixing twice changes nothing."""

from __future__ import annotations

import textwrap

import pytest

from transpile.lint import LintConfig, fix_source, lint_source
from transpile.lint.fixer import apply_fixes
from transpile.lint.model import Applicability, Edit, Fix

BODY = "def f(x, n, m=0):\n    if n > 0:\n        return x\n    return x\n"


def fixed(source: str, unsafe: bool = True) -> str:
    code = textwrap.dedent(source).lstrip("\n")
    result = fix_source(code, "mod.py", LintConfig(), unsafe=unsafe)
    again = fix_source(result.source, "mod.py", LintConfig(), unsafe=unsafe)
    assert again.source == result.source and again.applied == 0  # idempotent
    return result.source


@pytest.mark.parametrize(
    "before, after",
    [
        (
            "import transpile as tp\n\n@tp.jit\n" + BODY,
            "import transpile as tp\nfrom functools import partial\n\n@partial(tp.jit, static_argnames=['n'])\n" + BODY,
        ),
        (
            "import functools\nimport transpile as tp\n\n@tp.jit\n" + BODY,
            "import functools\nimport transpile as tp\n\n@functools.partial(tp.jit, static_argnames=['n'])\n" + BODY,
        ),
        (
            "from functools import partial as P\nfrom transpile import jit\n\n@jit\n" + BODY,
            "from functools import partial as P\nfrom transpile import jit\n\n@P(jit, static_argnames=['n'])\n" + BODY,
        ),
        (
            "import transpile as tp\n\n@tp.jit(static_argnames='m')\n" + BODY,
            "import transpile as tp\n\n@tp.jit(static_argnames=['m', 'n'])\n" + BODY,
        ),
        (
            'import transpile as tp\nfrom functools import partial\n\n@partial(tp.jit, static_argnames=("m",))\n' + BODY,
            'import transpile as tp\nfrom functools import partial\n\n@partial(tp.jit, static_argnames=("m", "n",))\n' + BODY,
        ),
        (
            "import transpile as tp\nfrom functools import partial\n\n@partial(tp.jit, static_argnums=(2,))\n" + BODY,
            "import transpile as tp\nfrom functools import partial\n\n@partial(tp.jit, static_argnums=(2,), static_argnames=['n'])\n" + BODY,
        ),
        (
            "import transpile as tp\n\n" + BODY + "\nf_jit = tp.jit(f)  # the fast one\n",
            "import transpile as tp\n\n" + BODY + "\nf_jit = tp.jit(f, static_argnames=['n'])  # the fast one\n",
        ),
        (
            "import transpile as tp\n\n@tp.jit(static_argnames=())\n" + BODY,
            "import transpile as tp\n\n@tp.jit(static_argnames=('n',))\n" + BODY,
        ),
    ],
    ids=["bare", "functools", "partial-alias", "string", "tuple", "argnums", "call", "empty-tuple"],
)
def test_static_argnames_edit_in_each_form(before, after):
    assert fixed(before) == after


def test_multiline_call_keeps_layout_and_comments():
    before = """
        import transpile as tp

        def f(x, n):
            while n > 0:  # count down
                n -= 1
            return x

        f_jit = tp.jit(
            f,  # the function
            donate_argnums=(),
        )
        """
    after = """
        import transpile as tp

        def f(x, n):
            while n > 0:  # count down
                n -= 1
            return x

        f_jit = tp.jit(
            f,  # the function
            donate_argnums=(),
            static_argnames=['n'],
        )
        """
    assert fixed(before) == textwrap.dedent(after).lstrip("\n")


def test_import_goes_after_docstring_and_imports():
    before = '''
        """Docs."""
        from __future__ import annotations

        import transpile as tp

        X = 1

        @tp.jit
        def f(x, n):
            return x if n else -x
        '''
    result = fixed(before)
    assert result.splitlines()[:6] == [
        '"""Docs."""', "from __future__ import annotations", "", "import transpile as tp",
        "from functools import partial", "",
    ]  # fmt: skip


def test_partial_name_taken_uses_functools():
    before = "import transpile as tp\n\npartial = None\n\n@tp.jit\n" + BODY
    result = fixed(before)
    assert "import functools\n" in result and "@functools.partial(tp.jit, static_argnames=['n'])" in result


def test_two_arguments_of_one_site_are_both_added():
    before = "import transpile as tp\n\n@tp.jit\ndef f(x, a, b):\n    if a:\n        x = -x\n    if b:\n        x = -x\n    return x\n"
    assert "@partial(tp.jit, static_argnames=['a', 'b'])" in fixed(before)


def test_safe_only_leaves_unsafe_fixes():
    source = "import transpile as tp\n\n@tp.jit\n" + BODY
    result = fix_source(source, "mod.py", LintConfig(), unsafe=False)
    assert result.source == source and result.applied == 0
    assert [f.code for f in result.findings] == ["TP101"]


def test_message_shows_the_edited_decorator():
    source = "import transpile as tp\n\n@tp.jit\n" + BODY
    (finding,) = lint_source(source, "mod.py", LintConfig())
    assert finding.text.endswith("add static_argnames=['n']: @partial(tp.jit, static_argnames=['n'])")
    assert finding.fix.applicability is Applicability.UNSAFE


def test_overlapping_fixes_wait_for_the_next_round():
    first = Fix(Applicability.SAFE, "a", (Edit(0, 3, "AAA", 1, 1, 1, 4),))
    second = Fix(Applicability.SAFE, "b", (Edit(2, 5, "BBB", 1, 3, 1, 6),))
    third = Fix(Applicability.SAFE, "c", (Edit(6, 6, "!", 1, 7, 1, 7),))
    assert apply_fixes("abcdefg", [second, first, third]) == ("AAAdef!g", 2)
