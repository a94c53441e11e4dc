"""The trace analysis: what counts as a traced value, how it flows, how names are resolved."""

from __future__ import annotations

import textwrap

import pytest

from transpile.lint import LintConfig, lint_source


def findings(source: str, **config):
    code = textwrap.dedent(source).lstrip("\n")
    return lint_source(code, "mod.py", LintConfig(**config))


def codes(source: str) -> list[tuple[str, int]]:
    return [(f.code, f.line) for f in findings(source)]


HEADER = "import transpile as tp\nimport transpile.numpy as tnp\nfrom transpile import lax\n\n"

NOT_HAZARDS = {
    "shape": "if x.shape[0] > 2 and x.size > 1:\n        x = x * 2",
    "ndim_dtype": "if x.ndim == 2 or x.dtype == tnp.float32:\n        x = x.T",
    "len": "while len(x) > 3:\n        x = x[1:]",
    "isinstance_none": "if isinstance(x, tuple) or x is None or x is not None:\n        pass",
    "tnp_shape": "if tnp.shape(x)[0] > 1 and tnp.ndim(x) > 0:\n        pass",
    "range_of_shape": "for i in range(x.shape[0] - 1):\n        x = x + i",
    "range_of_len": "for i in range(len(x)):\n        x = x * i",
    "static_local": "k = 3\n    while k > 0:\n        k -= 1",
    "shape_unpack": "n, m = x.shape\n    if n > m:\n        x = x.T",
    "fstring": "label = f'{x}'\n    if label:\n        pass",
}


@pytest.mark.parametrize("body", NOT_HAZARDS.values(), ids=NOT_HAZARDS.keys())
def test_concrete_information_is_not_a_hazard(body):
    source = HEADER + f"@tp.jit\ndef f(x):\n    {body}\n    return x\n"
    assert codes(source) == []


FLOWS = {
    "assignment": "y = x * 2\n    z = y\n    if z > 1:\n        pass",
    "augmented": "acc = 0\n    acc += x\n    if acc:\n        pass",
    "loop_carried": "acc = 0\n    for _ in range(3):\n        if acc > 1:\n            pass\n        acc = acc + x",
    "tuple_unpack": "a, b = 1, x\n    if b > 0:\n        pass",
    "swap": "a, b = x, 1\n    a, b = b, a\n    if b > 0:\n        pass",
    "loop_over_array": "for row in x:\n        if row > 0:\n            pass",
    "container": "items = []\n    items.append(x)\n    if items[0] > 0:\n        pass",
    "walrus": "if (y := x + 1) > 0:\n        pass",
    "comprehension": "ys = [v * 2 for v in x]\n    if ys[0]:\n        pass",
    "subscript_store": "d = {}\n    d['k'] = x\n    if d['k']:\n        pass",
    "with_target": "with ctx(x) as y:\n        if y:\n            pass",
    "except_else": "try:\n        y = x\n    except ValueError:\n        y = 0\n    if y:\n        pass",
}


@pytest.mark.parametrize("body", FLOWS.values(), ids=FLOWS.keys())
def test_traced_values_are_followed(body):
    source = HEADER + f"@tp.jit\ndef f(x):\n    {body}\n    return x\n"
    found = findings(source)
    assert [f.code for f in found] == ["TP101"], [f.text for f in found]
    assert "'x'" in found[0].text


def test_concrete_branch_before_traced_one_is_fine():
    source = HEADER + "@tp.jit\ndef f(x, n):\n    y = 0 if x.ndim else 1\n    if y:\n        return x\n    return x\n"
    assert codes(source) == []


@pytest.mark.parametrize(
    "imports, decorator",
    [
        ("import transpile", "@transpile.jit"),
        ("import transpile as anything", "@anything.jit"),
        ("from transpile import jit as J", "@J"),
        ("from transpile import jit", "@jit(static_argnames=['m'])"),
        ("import functools\nimport transpile as tp", "@functools.partial(tp.jit, static_argnums=(2,))"),
        ("from functools import partial as P\nfrom transpile import api", "@P(api.jit)"),
    ],
)
def test_aliases_resolve_by_qualified_name(imports, decorator):
    source = f"{imports}\n\n{decorator}\ndef f(x, n, m=1):\n    if n > 0:\n        return x\n    return x\n"
    assert [c for c, _ in codes(source)] == ["TP101"]


@pytest.mark.parametrize(
    "imports, decorator",
    [
        ("import transpile as tp\n\ndef jit(f):\n    return f", "@jit"),  # a local function named jit
        ("import transpile as tp", "@tp.vmap"),
        ("import transpile as tp\nfrom functools import partial", "@partial(tp.jit, static_argnames=['n'])"),
        ("import transpile as tp\nfrom functools import partial", "@partial(tp.jit, static_argnums=-1)"),
    ],
)
def test_not_jitted_or_static_is_not_flagged(imports, decorator):
    source = f"{imports}\n\n{decorator}\ndef f(x, n):\n    if n > 0:\n        return x\n    return x\n"
    assert codes(source) == []


def test_static_names_that_are_not_literal_trust_the_user():
    source = HEADER + "STATIC = ['n']\n\n@tp.jit(static_argnames=STATIC)\ndef f(x, n):\n    if n:\n        return x\n    return x\n"
    assert codes(source) == []


def test_extra_jit_functions_from_config():
    source = "import jax\n\n@jax.jit\ndef f(x):\n    if x > 0:\n        return x\n    return x\n"
    config = {"jit_functions": ("transpile.jit", "jax.jit")}
    found = findings(source, **config)
    assert [f.code for f in found] == ["TP101"]


def test_helper_reports_its_own_line_and_the_jitted_argument():
    source = HEADER + (
        "def clip(v, limit):\n"
        "    if v > limit:\n"
        "        return limit\n"
        "    return v\n\n"
        "@tp.jit\n"
        "def f(x, n):\n"
        "    return clip(n, 3) + clip(3, 4)\n"
    )
    found = findings(source)
    assert [(f.code, f.line) for f in found] == [("TP101", 6)]
    assert "traced argument 'n'" in found[0].text and "called from jitted 'f'" in found[0].text
    assert "@partial(tp.jit, static_argnames=['n'])" in found[0].text


def test_helper_with_only_static_inputs_is_fine():
    source = HEADER + (
        "def steps(n):\n    out = 0\n    while out < n:\n        out += 1\n    return out\n\n"
        "@tp.jit\ndef f(x):\n    return x * steps(x.shape[0])\n"
    )
    assert codes(source) == []


def test_recursive_helpers_terminate():
    source = HEADER + (
        "def a(v):\n    return b(v)\n\n"
        "def b(v):\n    if v > 0:\n        return a(v - 1)\n    return v\n\n"
        "@tp.jit\ndef f(x):\n    return a(x)\n"
    )
    assert codes(source) == [("TP101", 9)]


def test_methods_with_static_self_and_self_calls():
    source = HEADER + (
        "from functools import partial\n\n"
        "class M:\n"
        "    @partial(tp.jit, static_argnames=['self'])\n"
        "    def run(self, x):\n"
        "        if self.flag:\n"
        "            return self.step(x)\n"
        "        return x\n\n"
        "    def step(self, v):\n"
        "        return v if v > 0 else -v\n"
    )
    assert codes(source) == [("TP101", 15)]


def test_jitted_bound_method_binds_self():
    source = HEADER + (
        "class M:\n"
        "    def __init__(self):\n"
        "        self.fast = tp.jit(self.slow)\n\n"
        "    def slow(self, x):\n"
        "        if self.scale > 1:\n"
        "            return x\n"
        "        return x\n"
    )
    assert codes(source) == []


def test_partial_bound_arguments_are_concrete():
    source = HEADER + (
        "from functools import partial\n\n"
        "def f(n, x):\n    if n > 0:\n        return x\n    return -x\n\n"
        "g = tp.jit(partial(f, 3))\n"
    )
    assert codes(source) == []


def test_lax_bodies_are_traced():
    source = HEADER + (
        "@tp.jit\n"
        "def f(x, n):\n"
        "    def body(i, acc):\n"
        "        if i > 2:\n"
        "            return acc\n"
        "        return acc + x[i]\n"
        "    return lax.fori_loop(0, n, body, 0.0)\n"
    )
    found = findings(source)
    assert [(f.code, f.line) for f in found] == [("TP101", 8)]
    assert "lax-body argument 'i'" in found[0].text


def test_array_data_gets_lax_advice_and_scalars_get_static_advice():
    source = HEADER + (
        "@tp.jit\n"
        "def f(x, n):\n"
        "    if x[0] > 0:\n"
        "        x = -x\n"
        "    while n > 0:\n"
        "        n -= 1\n"
        "    return x\n"
    )
    first, second = findings(source)
    assert "lax.cond" in first.text and "static_argnames" not in first.text
    assert "static_argnames=['n']" in second.text


def test_non_jitted_code_is_ignored():
    source = HEADER + "def f(x):\n    print(x)\n    if x > 0:\n        return int(x)\n    return range(x)\n"
    assert codes(source) == []


def test_syntax_error_is_reported():
    found = findings("import transpile as tp\n\ndef f(:\n    pass\n")
    assert [f.code for f in found] == ["E999"]
    assert findings("def f(:\n")[0].code == "E999"


def test_rebinding_the_name_to_its_jitted_self():
    source = HEADER + "def g(x, n):\n    while n:\n        n -= 1\n    return x\n\ng = tp.jit(g)\ng(1.0, [2])\n"
    assert codes(source) == [("TP101", 6)]
    static = source.replace("tp.jit(g)", "tp.jit(g, static_argnames=['n'])")
    assert codes(static) == [("TP402", 11)]


def test_python_containers_have_concrete_truth_values():
    source = HEADER + (
        "@tp.jit\n"
        "def f(x, *rest, **opts):\n"
        "    pair = (x, x)\n"
        "    if rest or opts or pair or not [x]:\n"
        "        x = x + rest[0]\n"
        "    if opts['w'] > 0:\n"
        "        x = -x\n"
        "    return x\n"
    )
    assert codes(source) == [("TP101", 10)]
