"""What JAX's lax_control_flow_test.py reached that transpile did differently, against JAX's
recorded values (tests/jax_lax_leftovers_cases.py, tools/record_jax_lax_leftovers.py), under
JAX's dtype rules with x64 on, eagerly and (where the case allows) under jit: linearize
through a checkpoint closing over a constant, NaN-free gradients of a vmapped cond, a
zero-length scan under disable_jit, read-only loop carries under vmap with out_axes=None,
associative_scan over a vmapped solve. Then what recordings cannot show."""
from __future__ import annotations

import numpy as np
import pytest

import transpile as tp
import transpile.lax as tlax
import transpile.numpy as tnp
from jax_lax_leftovers_cases import GROUPS
from recorded_cases import RecordedCases

JAX_CASES = RecordedCases("jax_lax_leftovers.json", GROUPS, (tnp, tlax, tp))
# The shared tests (recorded_cases.py): eager and jit results and refusals against JAX's,
# the jittable cases as one jitted program (one C build).
globals().update(JAX_CASES.tests(one_jit_program=True))


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
    make, args, _ = JAX_CASES.cases["associative_scan_f32_sum_order"]
    expected = np.asarray(JAX_CASES.recorded["associative_scan_f32_sum_order"][0]["values"],
                          np.float32)
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
