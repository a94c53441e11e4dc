"""The linter reads transpile's own tables (public names, the tracer methods that concretize)
instead of keeping copies, and reads them only when it needs them: linting code with nothing
traced imports neither NumPy nor the compiler."""

from __future__ import annotations

import importlib
import subprocess
import sys
import textwrap

import pytest

import transpile as tp
import transpile.numpy as tnp
from transpile.lint import LintConfig, lint_source
from transpile.lint.from_transpile import concretizing_methods, conversion_builtins, public_names


@pytest.mark.parametrize("namespace", ["transpile.numpy", "transpile.lax"])
def test_public_names_read_from_source_are_what_the_namespace_has(namespace):
    module = importlib.import_module(namespace)
    assert public_names(namespace) == {name for name in dir(module) if not name.startswith("_")}
    assert {"where", "cond", "while_loop"} & public_names(namespace)


@pytest.mark.parametrize("method", sorted(concretizing_methods()))
def test_every_concretizing_method_fails_on_a_tracer(method):
    @tp.jit
    def convert(x):
        return getattr(x, method)()

    with pytest.raises(tp.ConcretizationError):
        convert(tnp.ones(()))


def test_the_python_conversions_are_found_through_the_tracer():
    assert {"__bool__", "__int__", "__float__", "__index__", "item", "tolist"} <= concretizing_methods()
    assert {"bool", "int", "float", "complex", "hex", "chr"} <= conversion_builtins()


def test_a_method_missing_from_the_tracer_is_not_a_conversion():
    source = "import transpile as tp\n@tp.jit\ndef f(x):\n    return x.sum(), x.item()\n"
    assert [(f.code, f.col) for f in lint_source(source, "m.py", LintConfig())] == [("TP102", 21)]


def test_code_is_linted_without_importing_numpy_or_the_compiler():
    # Findings in transpile code word their advice with transpile.numpy's names (read from
    # its source): neither JAX nor transpile code makes the linter import NumPy.
    script = textwrap.dedent(
        """
        import sys
        from transpile.lint import LintConfig, lint_source
        jax_code = "import jax\\n@jax.jit\\ndef f(x):\\n    return x.sum() + int(x)\\n"
        tp_code = "import transpile as tp\\nimport transpile.numpy as tnp\\n@tp.jit\\ndef f(x):\\n    return max(tnp.abs(x)) + (1 if x else 2)\\n"
        found = [f for code in (jax_code, tp_code) for f in lint_source(code, "m.py", LintConfig())]
        assert [f.code for f in found] == ["TP102", "TP102", "TP101"], found
        assert "tnp.maximum" in found[1].text and "tnp.where" in found[2].text, found
        print("numpy" in sys.modules, "transpile.core" in sys.modules, "transpile.numpy" in sys.modules)
        """
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["False", "False", "False"]


# How to call each function the linter takes to answer a Python value (flow_tables.py's
# CONCRETE_ARRAY_FUNCTIONS) on a traced float32 vector `x`.
PYTHON_VALUED_CALLS = {
    "broadcast_shapes": lambda x: tnp.broadcast_shapes(x.shape, (1,)),
    "can_cast": lambda x: tnp.can_cast(x.dtype, tnp.float64),
    "dtype": lambda x: tnp.dtype(x.dtype),
    "finfo": lambda x: tnp.finfo(x.dtype).eps,
    "iinfo": lambda x: tnp.iinfo(tnp.int32).max,
    "iscomplexobj": lambda x: tnp.iscomplexobj(x),
    "isrealobj": lambda x: tnp.isrealobj(x),
    "isscalar": lambda x: tnp.isscalar(x),
    "isdtype": lambda x: tnp.isdtype(x.dtype, "real floating"),
    "issubdtype": lambda x: tnp.issubdtype(x.dtype, tnp.floating),
    "ndim": lambda x: tnp.ndim(x),
    "promote_types": lambda x: tnp.promote_types(x.dtype, tnp.int8),
    "result_type": lambda x: tnp.result_type(x),
    "shape": lambda x: tnp.shape(x),
    "size": lambda x: tnp.size(x),
}


def test_the_functions_taken_as_python_valued_are_so_in_transpile():
    from transpile.lint.flow_tables import CONCRETE_ARRAY_FUNCTIONS

    assert set(PYTHON_VALUED_CALLS) == CONCRETE_ARRAY_FUNCTIONS & public_names("transpile.numpy")
    answers = {}

    @tp.jit
    def probe(x):
        for name, call in PYTHON_VALUED_CALLS.items():
            answers[name] = call(x)
        return x

    probe(tnp.ones(3, dtype=tnp.float32))
    traced = {name for name, value in answers.items() if isinstance(value, tp.Tracer)}
    assert traced == set() and len(answers) == len(PYTHON_VALUED_CALLS)
