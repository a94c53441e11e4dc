"""What JAX's lax_control_flow_test.py reached that transpile did differently, against JAX's
recorded values (tests/jax_lax_leftovers_cases.py, tools/record_jax_lax_leftovers.py), under
JAX's dtype rules with x64 on, eagerly and (where the case allows) under jit: linearize
through a checkpoint closing over a constant, NaN-free gradients of a vmapped cond, a
zero-length scan under disable_jit, read-only loop carries under vmap with out_axes=None,
associative_scan over a vmapped solve. Then what recordings cannot show."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import transpile as tp
import transpile.lax as tlax
import transpile.numpy as tnp
from jax_lax_leftovers_cases import GROUPS
from recorded_leaves import assert_leaves_like
from transpile.config import config

RECORDED = json.loads((Path(__file__).parent / "data" /
                       "jax_lax_leftovers.json").read_text())["cases"]


@pytest.fixture(autouse=True, scope="module")
def jax_rules_with_x64():
    with config.settings(transpile_dtype_rules="jax", jax_enable_x64=True):
        yield


def _cases(group):
    with config.settings(transpile_dtype_rules="jax", jax_enable_x64=True):
        return group(tnp, tlax, tp)


CASES = {name: case for group in GROUPS for name, case in _cases(group).items()}
VALUE_CASES = sorted(n for n in CASES if "error" not in RECORDED.get(n, {}))
ERROR_CASES = sorted(n for n in CASES if "error" in RECORDED.get(n, {}))


def test_every_case_was_recorded():
    assert sorted(CASES) == sorted(RECORDED)


@pytest.mark.parametrize("name", ERROR_CASES)
def test_error_matches_jax(name):
    make, args, _ = CASES[name]
    with pytest.raises(Exception) as raised:
        make(*args)
    assert RECORDED[name]["error"] in {t.__name__ for t in type(raised.value).__mro__}
    assert str(raised.value).startswith(RECORDED[name]["message"])


@pytest.mark.parametrize("name", VALUE_CASES)
def test_eager_matches_jax(name):
    make, args, _ = CASES[name]
    assert_leaves_like(make(*args), RECORDED[name], name)


@pytest.fixture(scope="module")
def jitted():
    """The jittable cases as one jitted program (one C build)."""
    table = {n: c for n, c in CASES.items() if c[2] and n in VALUE_CASES}

    def run_all(arguments):
        return {n: table[n][0](*arguments[n]) for n in table}
    return tp.jit(run_all)({n: c[1] for n, c in table.items()})


@pytest.mark.parametrize("name", sorted(n for n in VALUE_CASES if CASES[n][2]))
def test_jit_matches_jax(name, jitted):
    assert_leaves_like(jitted[name], RECORDED[name], name)


def test_vmapped_cond_guards_operands_only_under_differentiation():
    """The stop_gradient guard on a vmapped cond's operands is for gradients: a plain vmap
    runs each branch on the operands as they are."""
    def f(x):
        return tlax.cond(x < 1.0, tnp.sqrt, lambda v: v * 2.0, x)
    xs = np.array([0.25, 4.0])
    assert "stop_gradient" not in str(tp.make_ir(tp.vmap(f))(xs))
    np.testing.assert_allclose(tp.vmap(f)(xs), [0.5, 8.0])
    np.testing.assert_allclose(tp.grad(lambda x: tp.vmap(f)(x).sum())(xs), [1.0, 2.0])


def test_loop_returns_a_passed_through_carry_as_given():
    """A carry the body returns unchanged is the initial value itself, not a loop output:
    nothing downstream depends on the loop for it."""
    def f(w, x):
        return tlax.while_loop(lambda v: v[0] < 3.0, lambda v: (v[0] + v[1][0], v[1]), (x, w))
    ir = tp.make_ir(lambda w, x: f(w, x)[1])(np.ones(2), 0.0)
    assert ir.outvars[0] is ir.invars[0]
    out = tp.jit(f)(np.array([2.0, 5.0]), 0.5)
    np.testing.assert_allclose(out[0], 4.5)
    np.testing.assert_allclose(out[1], [2.0, 5.0])


def test_associative_scan_combines_in_jax_order():
    """float32 sums of mixed magnitudes round by the order of combination: JAX's order gives
    JAX's bits exactly (a sequential cumsum, or Hillis-Steele's order, does not)."""
    make, args, _ = CASES["associative_scan_f32_sum_order"]
    expected = np.asarray(RECORDED["associative_scan_f32_sum_order"][0]["values"], np.float32)
    np.testing.assert_array_equal(make(*args), expected)
    np.testing.assert_array_equal(tp.jit(make)(*args), expected)
    assert not np.array_equal(np.cumsum(args[0]), expected)


def test_linear_transpose_checks_its_cotangent():
    """JAX's TypeErrors for a cotangent of another structure or type; integer functions,
    which JAX transposes too, say they are not supported."""
    f_t = tp.linear_transpose(lambda x: (x * 2.0, x), np.zeros(2))
    with pytest.raises(TypeError, match="cotangent tree does not match function output"):
        f_t(np.ones(2))
    with pytest.raises(TypeError, match="cotangent type does not match function output"):
        f_t((np.ones(2), np.ones(3)))
    with pytest.raises(TypeError, match="cotangent type does not match function output"):
        f_t((np.ones(2), np.ones(2, np.float32)))
    np.testing.assert_allclose(f_t((np.ones(2), np.ones(2)))[0], [3.0, 3.0])
    with pytest.raises(NotImplementedError, match="integer"):
        tp.linear_transpose(lambda x: x * 2, np.zeros(2, np.int32))


def test_traced_scan_length_and_unroll_are_concretization_errors():
    """JAX's ConcretizationTypeError and its sentence for a traced `length` or `unroll`
    (JAX's lax_control_flow_test.py test_scan_{length,unroll}_concrete_error)."""
    from transpile.errors import ConcretizationTypeError
    f = tp.jit(lambda n, x: tlax.scan(lambda c, z: (c, z), x, (), n))
    with pytest.raises(ConcretizationTypeError,
                       match="The `length` argument to `scan` expects a concrete `int` value"):
        f(3, 1.0)
    g = tp.jit(lambda n, x: tlax.scan(lambda c, z: (c, z), x, (), 10, unroll=n))
    for unroll in (3, True):
        with pytest.raises(ConcretizationTypeError, match="The `unroll` argument to `scan` "
                           "expects a concrete `int` or `bool` value"):
            g(unroll, 1.0)
    with pytest.raises(TypeError, match="unroll"):
        tlax.scan(lambda c, z: (c, z), 1.0, (), 10, unroll="all")
